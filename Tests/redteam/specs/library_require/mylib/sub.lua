#!/usr/bin/env lua (a first line starting with # is skipped, as luaL_loadfilex does)
return { name = 'sub' }

// Entry point of traitlab.so for the stock lua5.4 interpreter.
#ifndef CTRAITLABMODULE_H
#define CTRAITLABMODULE_H
#include <lua5.4/lua.h>

// Implemented in Swift (TraitLabModule): attaches a host to L and pushes the
// library table. Returns 1, or TL_RAISE_VALUE with an error message on top.
int traitlab_module_open(lua_State *L);
int luaopen_traitlab(lua_State *L);
#endif

// `require "traitlab"` from lua5.4 lands here. The Swift side runs with the
// shim's "Swift is on the stack" flags set, exactly like a trampoline call, and
// any error is raised here, after Swift has returned.
#define _GNU_SOURCE
#include "CTraitLabModule.h"
#include "CLuaShim.h"
#include <dlfcn.h>

// Lua's package library dlcloses C modules when the state closes, but this
// library must stay: the state's allocator lives here, and Swift code cannot
// be unloaded safely. Re-opening ourselves with RTLD_NODELETE pins it.
static void pin_library(void) {
    Dl_info info;
    if (dladdr((void *)&luaopen_traitlab, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

int luaopen_traitlab(lua_State *L) {
    pin_library();
    tl_host *h = tl_attach(L);
    if (h == NULL) return luaL_error(L, "traitlab: cannot attach to the Lua state (out of memory)");
    int saved = h->in_swift;
    h->in_swift = 1;
    h->swift_frames++;
    int n = traitlab_module_open(L);
    h->swift_frames--;
    h->in_swift = saved;
    if (n < 0) return lua_error(L);
    return n;
}

// ---------------------------------------------------------------------------
// busted --helper=traitlab.busted: busted runs every spec file in one Lua
// state, so without this one engine world is shared by all of them (two files
// defining the same trait name would clash). The helper subscribes to busted's
// `file start` event and gives each file a fresh world, as `traitlab test` does.

static int reset_world(lua_State *L) {
    tl_host *h = tl_attach(L);
    if (h == NULL) return luaL_error(L, "traitlab: cannot attach to the Lua state (out of memory)");
    int saved = h->in_swift;
    h->in_swift = 1;
    h->swift_frames++;
    traitlab_module_reset(L);
    h->swift_frames--;
    h->in_swift = saved;
    lua_pushnil(L);
    lua_pushboolean(L, 1);
    return 2;   // busted's subscriber protocol: no value, go on
}

static const char busted_helper[] =
    "local reset = ...\n"
    "local busted = require 'busted'\n"
    "require 'traitlab'\n"
    "busted.subscribe({ 'file', 'start' }, reset)\n"
    "return { reset = reset }\n";

int luaopen_traitlab_busted(lua_State *L) {
    if (luaL_loadbufferx(L, busted_helper, sizeof busted_helper - 1, "=traitlab.busted", "t") != LUA_OK)
        return lua_error(L);
    lua_pushcfunction(L, reset_world);
    lua_call(L, 1, 1);
    return 1;
}

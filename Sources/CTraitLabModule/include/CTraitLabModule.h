// Entry point of traitlab.so for the stock lua5.4 interpreter.
#ifndef CTRAITLABMODULE_H
#define CTRAITLABMODULE_H
#include <lua5.4/lua.h>

// Implemented in Swift (TraitLabModule): attaches a host to L and pushes the
// library table. Returns 1, or TL_RAISE_VALUE with an error message on top.
int traitlab_module_open(lua_State *L);
int luaopen_traitlab(lua_State *L);
// Implemented in Swift: a fresh engine world for L's host (if any). Returns 0.
int traitlab_module_reset(lua_State *L);
// `require "traitlab.busted"` (busted --helper=traitlab.busted): each spec
// file starts with a fresh engine world.
int luaopen_traitlab_busted(lua_State *L);
#endif

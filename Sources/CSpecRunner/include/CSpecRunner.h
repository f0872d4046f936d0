// The C side of `traitlab test`'s runner: what it registers with the shim
// (the shim knows nothing of busted) and busted's faster traceback.
#ifndef CSPECRUNNER_H
#define CSPECRUNNER_H

#include "CLuaShim.h"

// Sources whose Lua functions an interrupt never stops (busted, luassert ...):
// prefixes of `source` as lua_getinfo reports it ("@/usr/share/lua/5.4/busted/").
// The first call registers the runner's interrupt policy with the shim.
void tl_spec_trust(const char *prefix);
// Stops spec code with `message` (interrupt reason 3), as a timeout does.
void tl_spec_stop(lua_State *L, const char *message);
// debug.traceback with the same text, naming stack functions in one walk
// over package.loaded (busted takes one per registered block).
int tl_traceback(lua_State *L);
// Lua 5.1's math.randomseed and math.random(u) (lua51_random.c): the
// generator of Debian's `busted` command, for busted's shuffle.
int tl_lua51_randomseed(lua_State *L);
int tl_lua51_random(lua_State *L);

// A worker's records (records.c): encode(value [, budget]) -> record,
// budget left; decode(stream) -> { record, ... } up to the first malformed one.
int tl_record_encode(lua_State *L);
int tl_record_decode(lua_State *L);
// busted's modules kept compiled between runs (module_cache.c):
// cached_chunk(path) -> chunk | nil, message; save_module_cache().
int tl_module_cache_chunk(lua_State *L);
int tl_module_cache_save(lua_State *L);

#endif

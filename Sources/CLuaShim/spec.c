// What `traitlab test` needs below Swift to stop spec code without stopping
// busted: a list of trusted sources the interrupt hook lets run, a custom stop
// message (a spec's os.exit), and coroutine.resume/wrap that keep the stack of
// running coroutines, so an interrupt reaches a loop inside a coroutine (a
// debug hook belongs to one thread). The coroutine functions follow
// lcorolib.c of Lua 5.4.4 line for line, with the stack added.
#include "CLuaShim.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// ---------------------------------------------------------------------------
// Trusted sources

#define TL_MAX_TRUSTED 32
static char *tl_trusted[TL_MAX_TRUSTED];
static int tl_ntrusted;

void tl_spec_trust(const char *prefix) {
    if (tl_ntrusted < TL_MAX_TRUSTED && prefix && *prefix) {
        char *copy = strdup(prefix);
        if (copy) tl_trusted[tl_ntrusted++] = copy;
    }
}

// Whether the function `ar` describes (filled with "S") is C or trusted Lua.
static int tl_spec_trusted_code_info(lua_Debug *ar) {
    if (ar->what && ar->what[0] == 'C') return 1;
    const char *source = ar->source ? ar->source : "";
    for (int i = 0; i < tl_ntrusted; i++) {
        if (strncmp(source, tl_trusted[i], strlen(tl_trusted[i])) == 0) return 1;
    }
    return 0;
}

// Whether the function the hook runs in may go on: always when no source is
// trusted (the interpreter); otherwise for C functions (raising in their call
// hook would raise in their trusted caller) and trusted Lua sources.
int tl_spec_trusted_code(lua_State *L, lua_Debug *ar) {
    if (tl_ntrusted == 0) return 0;
    return lua_getinfo(L, "S", ar) && tl_spec_trusted_code_info(ar);
}

// ---------------------------------------------------------------------------
// Stop messages

static char tl_stop_message[512] = "stopped";

void tl_spec_stop(lua_State *L, const char *message) {
    strncpy(tl_stop_message, message ? message : "stopped", sizeof tl_stop_message - 1);
    tl_stop_message[sizeof tl_stop_message - 1] = 0;
    tl_interrupt(L, 3);
    tl_spec_interrupt_running(3);
}

const char *tl_spec_stop_message(void) { return tl_stop_message; }

// ---------------------------------------------------------------------------
// Running coroutines

#define TL_MAX_RUNNING 256
static lua_State *volatile tl_running[TL_MAX_RUNNING];
static volatile int tl_nrunning;

// Safe in a signal handler: reads the stack and sets hooks.
void tl_spec_interrupt_running(int reason) {
    int n = tl_nrunning;
    if (n > TL_MAX_RUNNING) n = TL_MAX_RUNNING;
    for (int i = 0; i < n; i++) {
        lua_State *co = tl_running[i];
        if (co) tl_interrupt_coroutine(co, reason);
    }
}

static lua_State *tl_getco(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    return co;
}

static int tl_auxresume(lua_State *L, lua_State *co, int narg) {
    int status, nres;
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    // A coroutine resumed after an interrupt fired stops too.
    tl_host *h = tl_gethost(L);
    if (h && h->interrupt) tl_interrupt_coroutine(co, h->interrupt);
    int depth = tl_nrunning;
    if (depth < TL_MAX_RUNNING) tl_running[depth] = co;
    tl_nrunning = depth + 1;
    status = lua_resume(co, L, narg, &nres);
    tl_nrunning = depth;
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    } else {
        lua_xmove(co, L, 1);
        return -1;
    }
}

int tl_spec_resume(lua_State *L) {
    lua_State *co = tl_getco(L);
    int r = tl_auxresume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

static int tl_auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = tl_auxresume(L, co, lua_gettop(L));
    if (r < 0) {
        int stat = lua_status(co);
        if (stat != LUA_OK && stat != LUA_YIELD) {
            stat = lua_resetthread(co);
            lua_xmove(co, L, 1);
        }
        if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

int tl_spec_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *NL = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, NL, 1);
    lua_pushcclosure(L, tl_auxwrap, 1);
    return 1;
}

// ---------------------------------------------------------------------------
// Memory cap and file descriptors

void tl_set_limit(lua_State *L, size_t limit) {
    tl_host *h = tl_gethost(L);
    if (h) h->limit = limit;
}

size_t tl_counted_bytes(lua_State *L) {
    tl_host *h = tl_gethost(L);
    return h ? h->used : 0;
}

void tl_clear_over_limit(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (h) h->over_limit = 0;
}

int tl_dup(int fd) { return dup(fd); }
int tl_dup2(int from, int to) { return dup2(from, to); }

// ---------------------------------------------------------------------------
// xpcall whose message handler an interrupt skips
//
// Lua runs a message handler for an error raised inside a debug hook with
// hooks off, so a handler that loops after a --timeout could never be
// stopped. While an interrupt is pending the handler is not called and the
// error goes on as it is; otherwise this is lbaselib.c's xpcall (Lua 5.4.4).

static int tl_xpcall_handler(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (h && h->interrupt) {
        // Under `traitlab test` busted's own handlers (trusted code, which
        // never loops) still run: they turn the interrupt into the test's failure.
        lua_Debug ar;
        lua_pushvalue(L, lua_upvalueindex(1));
        int trusted = tl_ntrusted > 0 && lua_getinfo(L, ">S", &ar) && tl_spec_trusted_code_info(&ar);
        if (!trusted) return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int tl_finishpcall(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

int tl_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, tl_xpcall_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, tl_finishpcall);
    return tl_finishpcall(L, status, 2);
}

// ---------------------------------------------------------------------------
// debug.traceback for busted
//
// busted takes a traceback at every `describe`/`it` it registers (core.lua,
// getTrace), and luaL_traceback names each function on the stack by searching
// every loaded module for it (lauxlib.c, pushglobalfuncname): with busted's
// and luassert's modules loaded that is one walk over ~570 fields per stack
// level, three quarters of the time of a run of small spec files. This is
// ldblib.c's db_traceback (Lua 5.4.4) with the same text: the names of the
// functions on the stack are found in ONE walk over package.loaded, in
// findfield's order (the first match wins, a module's own fields right after
// it), and luaL_traceback then runs against a loaded table holding just
// those names.

#define TL_MAX_TRACE_LEVELS 64

// Stack: ..., wanted (function -> true), names (function -> name). Records
// `name` for the value on top if it is wanted and not named yet. Pops it.
static void tl_trace_note(lua_State *L, int wanted, int names, const char *prefix, int key) {
    if (lua_rawget(L, wanted) == LUA_TNIL) { lua_pop(L, 1); return; }   // pops the value copy
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, names) != LUA_TNIL) { lua_pop(L, 1); return; }
    lua_pop(L, 1);
    lua_pushvalue(L, -1);                      // the value
    if (prefix) lua_pushfstring(L, "%s.%s", prefix, lua_tostring(L, key));
    else lua_pushvalue(L, key);
    lua_rawset(L, names);
}

static int tl_traceback_body(lua_State *L) {
    // 1: thread, 2: message (string or nil), 3: level, 4: the real loaded table
    lua_State *L1 = lua_tothread(L, 1);
    const char *msg = lua_tostring(L, 2);
    int level = (int)lua_tointeger(L, 3);
    lua_settop(L, 4);
    lua_newtable(L);                           // 5: wanted
    lua_newtable(L);                           // 6: names
    lua_Debug ar;
    for (int l = level; l < level + TL_MAX_TRACE_LEVELS && lua_getstack(L1, l, &ar); l++) {
        lua_getinfo(L, "f", &ar);              // as pushglobalfuncname does
        lua_pushboolean(L, 1);
        lua_rawset(L, 5);
    }
    int deep = lua_getstack(L1, level + TL_MAX_TRACE_LEVELS, &ar);
    if (!deep) {
        // One walk in findfield's order (level 2).
        lua_pushnil(L);
        while (lua_next(L, 4)) {
            if (lua_type(L, -2) == LUA_TSTRING) {
                int key = lua_gettop(L) - 1;
                lua_pushvalue(L, -1);
                tl_trace_note(L, 5, 6, NULL, key);
                if (lua_istable(L, -1)) {
                    const char *module = lua_tostring(L, key);
                    int t = lua_gettop(L);
                    lua_pushnil(L);
                    while (lua_next(L, t)) {
                        if (lua_type(L, -2) == LUA_TSTRING) {
                            lua_pushvalue(L, -1);
                            tl_trace_note(L, 5, 6, module, lua_gettop(L) - 2);
                        }
                        lua_pop(L, 1);
                    }
                }
            }
            lua_pop(L, 1);
        }
        // The loaded table luaL_traceback sees: { [name] = function }.
        lua_newtable(L);                       // 7
        lua_pushnil(L);
        while (lua_next(L, 6)) {
            lua_pushvalue(L, -1);              // name
            lua_pushvalue(L, -3);              // function
            lua_rawset(L, 7);
            lua_pop(L, 1);
        }
        lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    }
    // (A stack deeper than the levels collected keeps the real table: rare,
    // and then slow but exact.)
    luaL_traceback(L, L1, msg, level);
    return 1;
}

int tl_traceback(lua_State *L) {
    lua_State *L1 = L;
    int arg = 0;
    if (lua_isthread(L, 1)) { L1 = lua_tothread(L, 1); arg = 1; }
    const char *msg = lua_tostring(L, arg + 1);
    if (msg == NULL && !lua_isnoneornil(L, arg + 1)) {   // non-string message: returned untouched
        lua_pushvalue(L, arg + 1);
        return 1;
    }
    int level = (int)luaL_optinteger(L, arg + 2, (L == L1) ? 1 : 0);
    // The level counts from the caller of debug.traceback: one more inside
    // the protected call made here when L1 is this thread. A level past any
    // stack stays past it; a negative one shows nothing, as before.
    if (L == L1 && level >= 0) level = level < INT_MAX - TL_MAX_TRACE_LEVELS - 1 ? level + 1 : INT_MAX - TL_MAX_TRACE_LEVELS - 1;
    lua_pushcfunction(L, tl_traceback_body);
    if (L == L1) lua_pushthread(L); else lua_pushvalue(L, 1);
    if (msg) lua_pushstring(L, msg); else lua_pushnil(L);
    lua_pushinteger(L, level);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    int loaded = lua_gettop(L);
    lua_pushvalue(L, loaded);
    lua_insert(L, loaded - 4);                 // keep the real table below the call
    int status = lua_pcall(L, 4, 1, 0);
    lua_pushvalue(L, loaded - 4);              // put the real table back, whatever happened
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (status != LUA_OK) return lua_error(L);
    return 1;
}

// Interruptible coroutines and message handlers.
//
// A debug hook belongs to one Lua thread, so the hook that a timeout or
// Ctrl-C sets on the main thread never fires in a loop running inside a
// coroutine. `coroutine.resume` and `coroutine.wrap` are replaced by the two
// functions below, which do what the Lua 5.4 manual (section 6.2) says of
// them and also keep a list of the coroutines being resumed right now; an
// interrupt sets its hook on each of them (tl_interrupt_running, also called
// from the deadline's signal handler).
//
// Lua runs a message handler with hooks off once an error was raised inside a
// hook, so an `xpcall` handler that loops could never be stopped after a
// timeout: while an interrupt is pending, tl_xpcall lets the error pass
// without calling the handler (unless the interrupt policy says the handler
// is trusted code, such as busted's own).
#include "CLuaShim.h"
#include "shim_private.h"

// The coroutines being resumed, innermost last. Read by a signal handler:
// only slots below `tl_resumed_depth` are meaningful.
#define TL_MAX_RESUMED 256
static lua_State *volatile tl_resumed[TL_MAX_RESUMED];
static volatile int tl_resumed_depth;

void tl_interrupt_running(int reason) {
    int depth = tl_resumed_depth;
    if (depth > TL_MAX_RESUMED) depth = TL_MAX_RESUMED;
    for (int i = 0; i < depth; i++) {
        lua_State *co = tl_resumed[i];
        if (co != NULL) tl_interrupt_coroutine(co, reason);
    }
}

// Resumes `co` with the values of L from index `first` to the top, listed as
// running while it runs. Afterwards those values are gone from L and, on top
// of L, are what the coroutine yielded or returned (`*count` of them) or its
// error value (one). Returns lua_resume's status.
static int tl_resume_listed(lua_State *L, lua_State *co, int first, int *count) {
    int given = lua_gettop(L) - first + 1;
    *count = 1;
    if (!lua_checkstack(co, given)) {
        lua_settop(L, first - 1);
        lua_pushliteral(L, "too many arguments to resume");
        return LUA_ERRRUN;
    }
    lua_xmove(L, co, given);
    tl_host *h = tl_gethost(L);
    if (h != NULL && h->interrupt) tl_interrupt_coroutine(co, h->interrupt);   // stopped already: stops at once

    int depth = tl_resumed_depth;
    if (depth < TL_MAX_RESUMED) tl_resumed[depth] = co;
    tl_resumed_depth = depth + 1;
    int produced = 0;
    int status = lua_resume(co, L, given, &produced);
    tl_resumed_depth = depth;

    if (status != LUA_OK && status != LUA_YIELD) {
        lua_xmove(co, L, 1);   // the error value
        return status;
    }
    if (!lua_checkstack(L, produced + 1)) {
        lua_pop(co, produced);
        lua_pushliteral(L, "too many results to resume");
        return LUA_ERRRUN;
    }
    lua_xmove(co, L, produced);
    *count = produced;
    return status;
}

// coroutine.resume(co, ...): true and what the coroutine yielded or
// returned, or false and its error (the manual, coroutine.resume).
int tl_coroutine_resume(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTHREAD);   // "thread expected", as lua5.4 says it
    lua_State *co = lua_tothread(L, 1);
    int count;
    int status = tl_resume_listed(L, co, 2, &count);
    int ok = status == LUA_OK || status == LUA_YIELD;
    lua_pushboolean(L, ok);
    lua_rotate(L, -(count + 1), 1);   // the flag before the values
    return count + 1;
}

// The function coroutine.wrap returns: resumes its coroutine with its
// arguments and returns what it yields; an error ends the coroutine (its
// pending to-be-closed variables are closed) and is raised again in the
// caller, with the caller's position before a message (the manual,
// coroutine.wrap; lua5.4 adds the position).
static int tl_wrapped_resume(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int count;
    int status = tl_resume_listed(L, co, 1, &count);
    if (status == LUA_OK || status == LUA_YIELD) return count;
    int ended = lua_status(co);
    if (ended != LUA_OK && ended != LUA_YIELD) {
        // Closing may replace the error; the value to raise is the one it leaves.
        status = lua_resetthread(co);
        lua_xmove(co, L, 1);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_rotate(L, -2, 1);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

// coroutine.wrap(f).
int tl_coroutine_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);   // the coroutine's body
    lua_pushcclosure(L, tl_wrapped_resume, 1);
    return 1;
}

// ---------------------------------------------------------------------------
// xpcall

// The message handler xpcall runs in place of the script's (its upvalue):
// while an interrupt is pending the error is left as it is, since the
// script's handler would run with hooks off, where nothing could stop it.
static int tl_guarded_handler(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (h != NULL && h->interrupt) {
        lua_Debug ar;
        lua_pushvalue(L, lua_upvalueindex(1));
        if (!(lua_getinfo(L, ">S", &ar) && tl_interrupt_trusts(L, &ar))) return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// Where xpcall ends, directly or as the continuation after a yield inside
// the call: true and the results (everything above `below`), or false and
// the handler's value.
static int tl_xpcall_result(lua_State *L, int status, lua_KContext below) {
    if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L) - (int)below;
    lua_pushboolean(L, 0);
    lua_rotate(L, -2, 1);
    return 2;
}

// xpcall(f, msgh, ...): calls f with the arguments in protected mode, msgh
// handling an error (the manual, xpcall).
int tl_xpcall(lua_State *L) {
    int given = lua_gettop(L) - 2;
    luaL_checktype(L, 2, LUA_TFUNCTION);
    // 1: f, 2: the guarded handler, 3: true, 4: f, then the arguments.
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, tl_guarded_handler, 1);
    lua_copy(L, -1, 2);
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 3);
    lua_pushvalue(L, 1);
    lua_insert(L, 4);
    int status = lua_pcallk(L, given, LUA_MULTRET, 2, 2, tl_xpcall_result);
    return tl_xpcall_result(L, status, 2);
}

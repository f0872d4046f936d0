// How Lua enters Swift (trampolines) and how Swift calls Lua (protected
// calls): every raising path stays in C, after Swift has returned.
#include "CLuaShim.h"
#include "shim_private.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static tl_dispatch_fn tl_dispatch;
tl_release_fn tl_release;

void tl_set_dispatch(tl_dispatch_fn dispatch, tl_release_fn release) {
    tl_dispatch = dispatch;
    tl_release = release;
}

// ---------------------------------------------------------------------------
// Trampolines: the only way Lua enters Swift.

static int tl_raise_status(lua_State *L, int n);



tl_swift_frame tl_enter_swift(lua_State *L, tl_host *h) {
    if (h->refused && !h->in_swift) tl_recover(L);
    tl_swift_frame f = { h->in_swift, h->swift_in_finalizer };
    h->in_swift = 1;
    h->swift_in_finalizer = lua_gc(L, LUA_GCISRUNNING) < 0;
    h->swift_frames++;
    return f;
}

void tl_leave_swift(tl_host *h, tl_swift_frame f) {
    h->swift_frames--;
    h->in_swift = f.in_swift;
    h->swift_in_finalizer = f.in_finalizer;
}

// Raised before Swift runs when the address space is nearly used up (see
// tl_engine_charge): Swift's own allocations would stop the process.
__attribute__((noinline)) static void tl_check_engine_room(lua_State *L, tl_host *h) {
    if (tl_engine_room(0)) { h->unprobed = 0; return; }
    lua_pushliteral(L, "not enough memory");
    lua_error(L);
}

int tl_call_swift(lua_State *L, int fnid) {
    tl_host *h = tl_gethost(L);
    if (h->unprobed >= TL_PROBE_STEP) tl_check_engine_room(L, h);
    tl_swift_frame f = tl_enter_swift(L, h);
    int n = tl_dispatch(L, fnid);
    tl_leave_swift(h, f);
    return tl_after_swift(L, h, n);
}

// After Swift returned n (a result count or a TL_RAISE status): raises what
// Swift could not (its error, memory refused while it ran), else passes n on.
int tl_after_swift(lua_State *L, tl_host *h, int n) {
    if (h->in_swift) return tl_raise_status(L, n);
    if (h->alloc_failed) {
        h->alloc_failed = 0;
        if (!tl_reserve) tl_reserve = malloc(TL_RESERVE_SIZE);
        lua_pushliteral(L, "not enough memory");
        return lua_error(L);
    }
    if (h->limit) {
        if (h->engine_charged >= h->limit / 8 || ++h->engine_calls >= tl_measure_calls(h)) tl_engine_measure(h);
        if (h->over_limit || tl_over_cap(h, 0, 0)) {
            h->over_limit = 0;
            if (tl_engine_settle(L, h, 0)) {
                lua_pushliteral(L, "not enough memory (memory limit exceeded)");
                return lua_error(L);
            }
        }
    }
    return tl_raise_status(L, n);
}

// Raises the error a Swift function returned as its status, or passes its
// result count on.
static int tl_raise_status(lua_State *L, int n) {
    if (n == TL_RAISE_WHERE) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (n == TL_RAISE_VALUE) return lua_error(L);
    return n;
}

static int tl_trampoline(lua_State *L) {
    return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void tl_pushfunction(lua_State *L, int fnid) {
    lua_pushinteger(L, fnid);
    lua_pushcclosure(L, tl_trampoline, 1);
}

static int tl_indexer(lua_State *L) {
    lua_settop(L, 2);
    if (lua_type(L, lua_upvalueindex(2)) != LUA_TTABLE) return luaL_error(L, "corrupt indexer");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TFUNCTION) return 1;
    return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void tl_pushindexer(lua_State *L, int fnid, int table_index) {
    table_index = lua_absindex(L, table_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, table_index);
    lua_pushcclosure(L, tl_indexer, 2);
}

// ---------------------------------------------------------------------------
// Protected calls

// lua.c's msghandler up to its traceback: the text of the error value at 1 (a
// string or number as it is, else its __tostring, else "(error object is a X
// value)"), left on top; *described tells a __tostring's text, which lua.c
// gives without a traceback.
static const char *tl_error_value_text(lua_State *L, int *described) {
    *described = 0;
    const char *msg = lua_tostring(L, 1);
    if (msg != NULL) return msg;
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
        *described = 1;
        return lua_tostring(L, -1);
    }
    return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
}

int tl_msghandler(lua_State *L) {
    int described;
    const char *msg = tl_error_value_text(L, &described);
    if (described) return 1;
    // Memory refused while Swift ran is raised after it returned, as the
    // same message Lua's own memory error has; that one gets no traceback.
    if (strcmp(msg, "not enough memory") == 0 || strcmp(msg, "not enough memory (memory limit exceeded)") == 0) return 1;
    // An error from a callback carries the traceback of the callback's own
    // frames (tl_callback_msghandler): the frames of the code that called
    // ui.update() follow it, under the same header.
    if (strstr(msg, "\nstack traceback:\n") != NULL) {
        luaL_traceback(L, L, NULL, 1);
        const char *frames = strchr(lua_tostring(L, -1), '\n');
        lua_pushstring(L, msg);
        lua_pushstring(L, frames ? frames : "");
        lua_concat(L, 2);
        return 1;
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

// `traitlab test --verbose`: tracebacks keep the frames of TraitLab and
// busted (one host a process, so a process-wide flag).
static int tl_full_tracebacks = 0;
void tl_set_full_tracebacks(int on) { tl_full_tracebacks = on; }

static int tl_trampoline(lua_State *L);
static int tl_indexer(lua_State *L);




// The level of the innermost frame that is TraitLab's way into Swift (a
// library function, an environment's index or newindex): the callback's
// frames are the levels above it. 0 when there is none within the levels a
// traceback lists in full (luaL_traceback shows 21 and skips the rest: the
// traceback is then kept whole). lua_getstack walks from the top, so a
// search of a deep stack (a stack overflow) would be quadratic.
static int tl_host_boundary_level(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; level <= 22 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "f", &ar)) continue;
        lua_CFunction f = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (f == tl_trampoline || f == tl_indexer || f == tl_env_index || f == tl_env_newindex
            || f == tl_collection_index) return level;
    }
    return 0;
}

// luaL_traceback of the callback's frames only: the traceback on top is cut
// before the line of level `boundary` (levels are its lines after the
// header, but for "(...tail calls...)" lines; a traceback that skipped
// levels is kept whole).
static void tl_cut_traceback(lua_State *L, int boundary) {
    const char *text = lua_tostring(L, -1);
    const char *header = strstr(text, "\nstack traceback:");
    if (!header || boundary <= 0) return;
    const char *line = strchr(header + 1, '\n');
    int level = 0;
    while (line) {
        const char *body = line + 1;
        if (strncmp(body, "\t...\t(skipping", 15) == 0) return;
        if (strncmp(body, "\t(...tail calls...)", 20) != 0 && ++level == boundary) {
            lua_pushlstring(L, text, (size_t)(line - text));
            lua_replace(L, -2);
            return;
        }
        line = strchr(body, '\n');
    }
}

void tl_recover(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (!h || !h->limit || !h->refused) return;
    h->refused = 0;
    if (lua_gc(L, LUA_GCCOLLECT) >= 0) tl_engine_measure(h);
}

// The message handler for Lua code Swift calls on a script's behalf
// (callbacks, handlers, mutation functions): a message gets its traceback
// (tl_msghandler); any other error value (a table such as a luassert
// failure, a number, an object with __tostring) is kept as it is, so the
// code that called ui.update() gets the very value raised, as pcall would.
static int tl_callback_msghandler(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING) return 1;
    const char *msg = lua_tostring(L, 1);
    if (strstr(msg, "\nstack traceback:\n") != NULL) return 1;   // from a callback within this one
    luaL_traceback(L, L, msg, 1);
    if (!tl_full_tracebacks) tl_cut_traceback(L, tl_host_boundary_level(L));
    return 1;
}

static int tl_pcall_with(lua_State *L, int nargs, int nresults, lua_CFunction handler) {
    tl_recover(L);
    tl_host *h = tl_gethost(L);
    int base = 0;   // (no message handler)
    if (handler) {
        base = lua_gettop(L) - nargs;
        lua_pushcfunction(L, handler);
        lua_insert(L, base);
    }
    int saved = h->in_swift;
    h->in_swift = 0;
    int status = lua_pcall(L, nargs, nresults, base);
    h->in_swift = saved;
    if (handler) lua_remove(L, base);
    return status;
}

// What lua.c's msghandler makes of an error value, without the traceback:
// the string, its __tostring, or "(error object is a X value)".
static int tl_error_text_body(lua_State *L) {
    int described;
    tl_error_value_text(L, &described);
    return 1;
}

int tl_error_text(lua_State *L) {
    lua_pushcfunction(L, tl_error_text_body);
    lua_insert(L, -2);
    return tl_pcall_with(L, 1, 1, NULL);
}

static int tl_index_body(lua_State *L) {
    lua_gettable(L, 1);
    return 1;
}

int tl_pindex(lua_State *L, int obj) {
    obj = lua_absindex(L, obj);
    lua_pushcfunction(L, tl_index_body);
    lua_pushvalue(L, obj);
    lua_pushvalue(L, -3);
    int status = tl_pcall_with(L, 2, 1, tl_callback_msghandler);
    lua_remove(L, -2);
    return status;
}

int tl_pcall(lua_State *L, int nargs, int nresults) {
    return tl_pcall_with(L, nargs, nresults, tl_msghandler);
}

// lua.c runs every chunk from pmain, a C function, so the last line of its
// tracebacks is that frame's "[C]: in ?"; the interpreter's chunks run from
// this one for the same tracebacks. (Only C between it and the pcall: an
// error unwinds no Swift frame.)
static int tl_call_from_c(lua_State *L) {
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

int tl_pcall_main(lua_State *L, int nargs, int nresults) {
    if (!lua_checkstack(L, 1)) return tl_pcall(L, nargs, nresults);
    lua_pushcfunction(L, tl_call_from_c);
    lua_insert(L, -(nargs + 2));
    return tl_pcall(L, nargs + 1, nresults);
}

int tl_pcall_callback(lua_State *L, int nargs, int nresults) {
    return tl_pcall_with(L, nargs, nresults, tl_callback_msghandler);
}

int tl_env_call(lua_State *L, int objects_ref, void *env, uint32_t slot, int key_ref, lua_Integer handler_id, int previous_ref) {
    if (!lua_checkstack(L, 10)) return TL_ENV_CALL_SLOW;
    int top = lua_gettop(L);
    int handler = top + 1, u = top + 3;
    // [handler, objects, u, ... fn]: what the lookups leave stays below the
    // function until the call returns (fewer stack moves than tidying up).
    lua_pushcfunction(L, tl_callback_msghandler);
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, objects_ref) != LUA_TTABLE || !tl_env_object(L, -1, env, slot)) {
        lua_settop(L, top);
        return TL_ENV_CALL_SLOW;   // no object yet: Swift makes it
    }
    int status = TL_ENV_CALL_NONE;
    if (handler_id == TL_LONE_HANDLER) {
        // (u is the environment's box: tl_env_object checked it.)
        if (tl_env_push_lone_handler_of(L, u)) status = LUA_OK;
    } else if (handler_id > 0) {
        // A function at fields[light userdata id]; else a target-action
        // entry at fields.__handlers[id] (Swift's path), or nothing.
        if (lua_getiuservalue(L, u, 1) == LUA_TTABLE) {
            int fields = lua_gettop(L);
            if (lua_rawgetp(L, fields, (void *)(intptr_t)handler_id) == LUA_TFUNCTION) {
                status = LUA_OK;
            } else if (lua_rawgeti(L, LUA_REGISTRYINDEX, key_ref) == LUA_TSTRING
                       && lua_rawget(L, fields) == LUA_TTABLE) {
                status = lua_rawgeti(L, -1, handler_id) == LUA_TNIL ? TL_ENV_CALL_NONE : TL_ENV_CALL_SLOW;
            }
        }
    } else {
        lua_rawgeti(L, LUA_REGISTRYINDEX, key_ref);
        int t = tl_env_lookup(L, u, lua_gettop(L));
        if (t == LUA_TFUNCTION) status = LUA_OK;
        else if (t != LUA_TNIL) {
            // A callback field that is no function (a class field replaced raw):
            // the caller says so, with the type pushed here.
            const char *type = lua_typename(L, t);
            lua_settop(L, top);
            lua_pushstring(L, type);
            return TL_ENV_CALL_NOT_FUNCTION;
        }
    }
    if (status != LUA_OK) { lua_settop(L, top); return status; }
    lua_pushvalue(L, u);
    int nargs = 1;
    if (previous_ref != LUA_NOREF) { lua_rawgeti(L, LUA_REGISTRYINDEX, previous_ref); nargs = 2; }
    tl_recover(L);
    tl_host *h = tl_gethost(L);
    int saved = h->in_swift;
    h->in_swift = 0;
    status = lua_pcall(L, nargs, 0, handler);
    h->in_swift = saved;
    if (status == LUA_OK) { lua_settop(L, top); return LUA_OK; }
    lua_copy(L, -1, top + 1);      // the message, with its traceback
    lua_settop(L, top + 1);
    return status;
}

int tl_cpcall(lua_State *L, lua_CFunction fn, void *ud) {
    tl_host *h = tl_gethost(L);
    int saved = h->in_swift;
    h->in_swift = 0;
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, ud);
    int status = lua_pcall(L, 1, LUA_MULTRET, 0);
    h->in_swift = saved;
    return status;
}

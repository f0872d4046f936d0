// What `traitlab test` needs below Swift to stop spec code without stopping
// busted: the sources whose functions an interrupt spares (busted's,
// luassert's and their companions'), and the message of a stop (a spec's
// os.exit), given to the shim as its interrupt policy; and a faster
// debug.traceback for busted, which takes one for every block it registers.
#include "CSpecRunner.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------
// The interrupt policy: trusted sources and the stop message

#define TL_MAX_TRUSTED 32
static char *tl_trusted[TL_MAX_TRUSTED];
static int tl_ntrusted;

// Whether the function `ar` describes (filled with "S") is C or trusted Lua:
// a C function is spared too, since raising in its call hook would raise in
// its trusted caller.
static int tl_spec_trusts(const lua_Debug *ar) {
    if (tl_ntrusted == 0) return 0;
    if (ar->what != NULL && ar->what[0] == 'C') return 1;
    const char *source = ar->source != NULL ? ar->source : "";
    for (int i = 0; i < tl_ntrusted; i++) {
        if (strncmp(source, tl_trusted[i], strlen(tl_trusted[i])) == 0) return 1;
    }
    return 0;
}

static char tl_stop_text[512] = "stopped";

static const char *tl_spec_stop_text(void) { return tl_stop_text; }

static const tl_interrupt_policy tl_spec_policy = { tl_spec_trusts, tl_spec_stop_text };

void tl_spec_trust(const char *prefix) {
    tl_set_interrupt_policy(&tl_spec_policy);
    // (A worker's forked process runs the driver again: a prefix it trusts
    // twice is kept once.)
    for (int i = 0; prefix != NULL && i < tl_ntrusted; i++) {
        if (strcmp(tl_trusted[i], prefix) == 0) return;
    }
    if (tl_ntrusted < TL_MAX_TRUSTED && prefix != NULL && *prefix) {
        char *copy = strdup(prefix);
        if (copy != NULL) tl_trusted[tl_ntrusted++] = copy;
    }
}

void tl_spec_stop(lua_State *L, const char *message) {
    tl_set_interrupt_policy(&tl_spec_policy);
    strncpy(tl_stop_text, message != NULL ? message : "stopped", sizeof tl_stop_text - 1);
    tl_stop_text[sizeof tl_stop_text - 1] = 0;
    tl_interrupt(L, 3);
    tl_interrupt_running(3);
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
// it; a field is compared with the stack's few functions by address, and the
// walk stops once each has a name), and luaL_traceback then runs against a
// loaded table holding just those names.

#define TL_MAX_TRACE_LEVELS 64

// The functions on the stack, by identity (lua_topointer gives a closure's
// object or a light C function's address: equal exactly when lua_rawequal
// says two functions are), and which of them have a name yet.
// Looked up by address in a small open-addressing table (every field of
// every module is looked up: a scan of ~30 functions was a third of the walk).
#define TL_WANTED_SLOTS 256   // (a power of two, more than twice the levels)
typedef struct {
    const void *fn[TL_MAX_TRACE_LEVELS];
    char named[TL_MAX_TRACE_LEVELS];
    unsigned char slot[TL_WANTED_SLOTS];   // index + 1 into fn, or 0
    int n, left;
} tl_wanted;

static unsigned tl_wanted_hash(const void *p) {
    return (unsigned)((((uintptr_t)p >> 4) * (uintptr_t)0x9E3779B97F4A7C15u) >> (sizeof(uintptr_t) * 8 - 8));
}

static int tl_wanted_index(const tl_wanted *w, const void *p) {
    for (unsigned h = tl_wanted_hash(p);; h = (h + 1) & (TL_WANTED_SLOTS - 1)) {
        int i = w->slot[h];
        if (i == 0) return -1;
        if (w->fn[i - 1] == p) return i - 1;
    }
}

static void tl_wanted_add(tl_wanted *w, const void *p) {
    unsigned h = tl_wanted_hash(p);
    while (w->slot[h]) h = (h + 1) & (TL_WANTED_SLOTS - 1);
    w->named[w->n] = 0;
    w->fn[w->n] = p;
    w->slot[h] = (unsigned char)(++w->n);
}

// The value on top is the value of a field whose string key is at `key`
// (a module's field when `prefix` is its module's name): if it is a
// function on the stack with no name yet, fake[name] = it. Leaves the
// stack as it was.
static void tl_trace_note(lua_State *L, tl_wanted *w, int fake, const char *prefix, int key) {
    if (lua_type(L, -1) != LUA_TFUNCTION) return;   // (only functions are on a stack)
    int i = tl_wanted_index(w, lua_topointer(L, -1));
    if (i < 0 || w->named[i]) return;
    key = lua_absindex(L, key);
    if (prefix) lua_pushfstring(L, "%s.%s", prefix, lua_tostring(L, key));
    else lua_pushvalue(L, key);
    lua_pushvalue(L, -2);
    lua_rawset(L, fake);
    w->named[i] = 1;
    w->left--;
}

static int tl_traceback_body(lua_State *L) {
    // 1: thread, 2: message (string or nil), 3: level, 4: the real loaded table
    lua_State *L1 = lua_tothread(L, 1);
    const char *msg = lua_tostring(L, 2);
    int level = (int)lua_tointeger(L, 3);
    lua_settop(L, 4);
    luaL_checkstack(L, TL_MAX_TRACE_LEVELS + 16, "traceback");
    tl_wanted w;
    w.n = 0;
    memset(w.slot, 0, sizeof w.slot);
    lua_Debug ar;
    // The functions on the stack (kept on this one while the walk runs, so
    // no address is reused), each once.
    for (int l = level; l < level + TL_MAX_TRACE_LEVELS && lua_getstack(L1, l, &ar); l++) {
        lua_getinfo(L, "f", &ar);              // as pushglobalfuncname does
        const void *p = lua_topointer(L, -1);
        if (tl_wanted_index(&w, p) >= 0) { lua_pop(L, 1); continue; }
        tl_wanted_add(&w, p);
    }
    w.left = w.n;
    int deep = lua_getstack(L1, level + TL_MAX_TRACE_LEVELS, &ar);
    if (!deep) {
        // The loaded table luaL_traceback will see: { [name] = function }.
        lua_newtable(L);
        int fake = lua_gettop(L);
        // One walk in findfield's order (level 2): each entry, then its
        // fields if it is a table; the first name of each function wins,
        // and the walk ends when every function has one.
        lua_pushnil(L);
        while (lua_next(L, 4)) {
            if (lua_type(L, -2) == LUA_TSTRING) {
                tl_trace_note(L, &w, fake, NULL, -2);
                if (w.left > 0 && lua_istable(L, -1)) {
                    const char *module = lua_tostring(L, -2);
                    int t = lua_gettop(L);
                    lua_pushnil(L);
                    while (lua_next(L, t)) {
                        if (lua_type(L, -2) == LUA_TSTRING) tl_trace_note(L, &w, fake, module, -2);
                        lua_pop(L, 1);
                        if (w.left == 0) { lua_pop(L, 1); break; }   // (the inner key)
                    }
                }
            }
            lua_pop(L, 1);
            if (w.left == 0) { lua_pop(L, 1); break; }   // (the outer key)
        }
        lua_pushvalue(L, fake);
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

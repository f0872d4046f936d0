// Boxes: Swift objects inside Lua userdata, released in __gc.
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

// ---------------------------------------------------------------------------
// Boxes

void *tl_newbox(lua_State *L, void *payload, int kind, int nuservalues) {
    tl_box *b = lua_newuserdatauv(L, sizeof *b, nuservalues);
    b->magic = TL_BOX_MAGIC;
    b->payload = payload;
    b->kind = (uint16_t)kind;
    b->slot = 0;
    return b;
}

// tl_checkedbox for a value known to be a full userdata (a lookup said so).
tl_box *tl_checkeduserdata(lua_State *L, int idx) {
    if (lua_rawlen(L, idx) != sizeof(tl_box)) return NULL;
    tl_box *b = lua_touserdata(L, idx);
    return b->magic == TL_BOX_MAGIC ? b : NULL;
}

tl_box *tl_checkedbox(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TUSERDATA) return NULL;
    return tl_checkeduserdata(L, idx);
}

// tl_tobox for a value known to be a full userdata (a lookup said so).
void *tl_userdatabox(lua_State *L, int idx, int *kind) {
    tl_box *b = tl_checkeduserdata(L, idx);
    if (!b || !b->payload) return NULL;
    if (kind) *kind = b->kind;
    return b->payload;
}

void *tl_tobox(lua_State *L, int idx, int *kind) {
    return lua_type(L, idx) == LUA_TUSERDATA ? tl_userdatabox(L, idx, kind) : NULL;
}

int tl_isdeadbox(lua_State *L, int idx) {
    tl_box *b = tl_checkedbox(L, idx);
    return b && !b->payload;
}

void tl_setbox(lua_State *L, int idx, void *payload) {
    tl_box *b = tl_checkedbox(L, idx);
    if (b) {
        b->payload = payload;
        if (!payload) b->slot = 0;   // released: its slot is no longer its own
    }
}

// A free slot (never 0).
static uint32_t tl_env_slot_new(tl_host *h) {
    if (h->free_count > 0) return h->free_slots[--h->free_count];
    // More than four billion live objects would take 300 GB: slots are
    // reused long before (0, never handed out, means "no slot").
    if (h->high_slot == UINT32_MAX) h->high_slot = 0;
    return ++h->high_slot;
}

// tl_env_adopt for box b at u (t and u absolute).
uint32_t tl_slot_adopt(lua_State *L, tl_host *h, int t, int u, tl_box *b) {
    b->slot = tl_env_slot_new(h);
    lua_pushvalue(L, u);
    lua_rawseti(L, t, b->slot);
    return b->slot;
}

uint32_t tl_env_adopt(lua_State *L, int t, int u) {
    t = lua_absindex(L, t);
    u = lua_absindex(L, u);
    tl_box *b = tl_checkedbox(L, u);
    return b ? tl_slot_adopt(L, tl_gethost(L), t, u, b) : 0;
}

// Pushes the object at `slot` of the table at t and returns 1 when it is a
// box of `kind` for `payload` that owns that slot; else pushes nothing, 0.
int tl_slot_box(lua_State *L, int t, void *payload, int kind, uint32_t slot) {
    if (slot == 0 || lua_rawgeti(L, t, slot) != LUA_TUSERDATA) { if (slot) lua_pop(L, 1); return 0; }
    tl_box *b = tl_checkeduserdata(L, -1);
    if (b && b->payload == payload && b->kind == kind && b->slot == slot) return 1;
    lua_pop(L, 1);
    return 0;
}

int tl_env_object(lua_State *L, int t, void *env, uint32_t slot) {
    return tl_slot_box(L, t, env, TL_KIND_ENVIRONMENT, slot);
}

// From a finalizer: the slot goes back to the free list (Lua removed the
// object from the table, weak values, before finalizing it). When the list
// cannot grow the number is not reused, which costs nothing but the number.
static void tl_env_slot_free(tl_host *h, uint32_t slot) {
    if (h->free_count == h->free_capacity) {
        if (h->free_capacity > UINT32_MAX / 2) return;
        uint32_t capacity = h->free_capacity ? h->free_capacity * 2 : 256;
        uint32_t *list = realloc(h->free_slots, (size_t)capacity * sizeof *list);
        if (!list) return;
        h->free_slots = list;
        h->free_capacity = capacity;
    }
    h->free_slots[h->free_count++] = slot;
}

int tl_box_gc(lua_State *L) {
    tl_box *b = tl_checkedbox(L, 1);
    if (!b || !b->payload) return 0;
    void *payload = b->payload;
    uint32_t slot = b->slot;
    b->payload = NULL;
    b->slot = 0;
    tl_host *h = tl_gethost(L);
    int saved = h->in_swift, saved_fin = h->swift_in_finalizer;
    h->in_swift = 1;
    h->swift_in_finalizer = 1;   // a finalizer: its allocations must not fail either
    if (slot && h) tl_env_slot_free(h, slot);
    tl_release(payload, h->swift_frames > 0);
    h->in_swift = saved;
    h->swift_in_finalizer = saved_fin;
    return 0;
}

void tl_pushboxgc(lua_State *L) {
    lua_pushcfunction(L, tl_box_gc);
}

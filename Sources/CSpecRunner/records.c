// What a worker of `traitlab test` sends its parent: busted's events as
// data, never as code. A record is a length-prefixed payload, so a worker
// that dies in the middle of a write leaves a short tail the parent drops;
// the payload is one tagged value:
//
//   's' u32 length, bytes      a string
//   'i' i64                    an integer
//   'd' f64                    a float
//   'T' / 'F'                  true / false
//   't' u32 count, pairs       a table: count keys, each followed by its value
//
// (numbers little-endian). Tables nest at most TL_RECORD_DEPTH deep; in a
// table only string and number keys are kept, and values that are strings,
// numbers, booleans or tables (a table already on the path, or past the
// depth, is left out, as is the key `env`): what busted's elements and
// events hold, without the functions. The parent decodes the stream as
// untrusted input: every length and count is checked against the bytes
// left, so a forged or torn record is where reading stops.
#include "CSpecRunner.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TL_RECORD_DEPTH 6

// ---------------------------------------------------------------------------
// Encoding: two passes over the value, the first to size the string, the
// second to fill it (no buffer to grow, nothing to free if Lua raises).

typedef struct {
    char *out;              // NULL in the sizing pass
    size_t size;
    lua_Integer budget;     // bytes strings may still take in full (-1: no cap)
    const void *path[TL_RECORD_DEPTH + 1];
    int depth;
} tl_encoder;

static void tl_put(tl_encoder *e, const void *bytes, size_t n) {
    if (e->out) memcpy(e->out + e->size, bytes, n);
    e->size += n;
}

static void tl_put_u32(tl_encoder *e, uint32_t v) {
    unsigned char b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff };
    tl_put(e, b, 4);
}

static void tl_put_u64(tl_encoder *e, uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; i++) b[i] = (v >> (8 * i)) & 0xff;
    tl_put(e, b, 8);
}

// A string, cut as the worker's budget says: under --memory-limit a string
// past 2 KB keeps its first 2 KB and says its length; once the budget is
// spent, past 80 bytes. (The budget is spent in the same order in both passes.)
static void tl_put_string(tl_encoder *e, const char *s, size_t n) {
    char note[48];
    size_t noteLength = 0;
    if (e->budget >= 0) {
        size_t keep = e->budget > 0 ? 2048 : 80;
        if (n > keep) {
            noteLength = (size_t)snprintf(note, sizeof note, "... (%zu bytes)", n);
            n = keep;
        }
        lua_Integer left = e->budget - (lua_Integer)(n + noteLength);
        e->budget = left > 0 ? left : 0;
    }
    tl_put(e, "s", 1);
    tl_put_u32(e, (uint32_t)(n + noteLength));
    tl_put(e, s, n);
    tl_put(e, note, noteLength);
}

static int tl_on_path(tl_encoder *e, const void *p) {
    for (int i = 0; i < e->depth; i++) if (e->path[i] == p) return 1;
    return 0;
}

// Whether the value at `index` is written inside a table at this depth.
static int tl_keeps_value(lua_State *L, tl_encoder *e, int index) {
    switch (lua_type(L, index)) {
    case LUA_TSTRING: case LUA_TNUMBER: case LUA_TBOOLEAN: return 1;
    case LUA_TTABLE: return e->depth + 1 < TL_RECORD_DEPTH && !tl_on_path(e, lua_topointer(L, index));
    default: return 0;
    }
}

static int tl_keeps_key(lua_State *L, int index) {
    int t = lua_type(L, index);
    if (t == LUA_TNUMBER) return 1;
    if (t != LUA_TSTRING) return 0;
    size_t n;
    const char *s = lua_tolstring(L, index, &n);
    return !(n == 3 && memcmp(s, "env", 3) == 0);
}

static void tl_put_value(lua_State *L, tl_encoder *e, int index);

static void tl_put_table(lua_State *L, tl_encoder *e, int index) {
    e->path[e->depth++] = lua_topointer(L, index);
    uint32_t count = 0;
    lua_pushnil(L);
    while (lua_next(L, index)) {
        if (tl_keeps_key(L, -2) && tl_keeps_value(L, e, -1)) count++;
        lua_pop(L, 1);
    }
    tl_put(e, "t", 1);
    tl_put_u32(e, count);
    lua_pushnil(L);
    while (lua_next(L, index)) {
        if (tl_keeps_key(L, -2) && tl_keeps_value(L, e, -1)) {
            tl_put_value(L, e, lua_gettop(L) - 1);
            tl_put_value(L, e, lua_gettop(L));
        }
        lua_pop(L, 1);
    }
    e->depth--;
}

static void tl_put_value(lua_State *L, tl_encoder *e, int index) {
    switch (lua_type(L, index)) {
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, index, &n);
        tl_put_string(e, s, n);
        break;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) {
            tl_put(e, "i", 1);
            tl_put_u64(e, (uint64_t)lua_tointeger(L, index));
        } else {
            double d = (double)lua_tonumber(L, index);
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            tl_put(e, "d", 1);
            tl_put_u64(e, bits);
        }
        break;
    case LUA_TBOOLEAN:
        tl_put(e, lua_toboolean(L, index) ? "T" : "F", 1);
        break;
    case LUA_TTABLE:
        tl_put_table(L, e, index);
        break;
    default:   // (only at the top: tables leave such values out)
        tl_put(e, "F", 1);
    }
}

// encode(value [, budget]) -> record, budget left (nil when none was given)
int tl_record_encode(lua_State *L) {
    lua_settop(L, 2);
    luaL_checkstack(L, 3 * TL_RECORD_DEPTH + 8, "record too deep");
    lua_Integer budget = lua_isinteger(L, 2) ? lua_tointeger(L, 2) : -1;
    if (budget < -1) budget = 0;
    tl_encoder e = { NULL, 0, budget, { 0 }, 0 };
    tl_put_value(L, &e, 1);
    size_t payload = e.size;
    if (payload > UINT32_MAX) { lua_pushnil(L); lua_pushinteger(L, budget); return 2; }
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, payload + 4);
    tl_encoder fill = { out, 0, budget, { 0 }, 0 };
    tl_put_u32(&fill, (uint32_t)payload);
    tl_put_value(L, &fill, 1);
    luaL_pushresultsize(&b, fill.size);
    if (budget < 0) lua_pushnil(L); else lua_pushinteger(L, fill.budget);
    return 2;
}

// ---------------------------------------------------------------------------
// Decoding, every read checked against the end of its record.

typedef struct {
    const unsigned char *p, *end;
} tl_decoder;

static int tl_get_u32(tl_decoder *d, uint32_t *v) {
    if (d->end - d->p < 4) return 0;
    *v = (uint32_t)d->p[0] | ((uint32_t)d->p[1] << 8) | ((uint32_t)d->p[2] << 16) | ((uint32_t)d->p[3] << 24);
    d->p += 4;
    return 1;
}

static int tl_get_u64(tl_decoder *d, uint64_t *v) {
    if (d->end - d->p < 8) return 0;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | d->p[i];
    d->p += 8;
    *v = x;
    return 1;
}

// Pushes the value at d->p (returns 1), or pushes nothing (returns 0).
static int tl_get_value(lua_State *L, tl_decoder *d, int depth) {
    if (d->p >= d->end) return 0;
    unsigned char tag = *d->p++;
    uint32_t n;
    uint64_t bits;
    switch (tag) {
    case 's':
        if (!tl_get_u32(d, &n) || (size_t)(d->end - d->p) < n) return 0;
        lua_pushlstring(L, (const char *)d->p, n);
        d->p += n;
        return 1;
    case 'i':
        if (!tl_get_u64(d, &bits)) return 0;
        lua_pushinteger(L, (lua_Integer)bits);
        return 1;
    case 'd': {
        if (!tl_get_u64(d, &bits)) return 0;
        double x;
        memcpy(&x, &bits, sizeof x);
        lua_pushnumber(L, (lua_Number)x);
        return 1;
    }
    case 'T': lua_pushboolean(L, 1); return 1;
    case 'F': lua_pushboolean(L, 0); return 1;
    case 't': {
        // Each pair takes at least two bytes: no count claims more than the rest holds.
        if (depth >= TL_RECORD_DEPTH || !tl_get_u32(d, &n) || n > (size_t)(d->end - d->p) / 2) return 0;
        lua_createtable(L, 0, (int)(n < 64 ? n : 64));
        for (uint32_t i = 0; i < n; i++) {
            if (!tl_get_value(L, d, depth + 1)) { lua_pop(L, 1); return 0; }
            if (!tl_get_value(L, d, depth + 1)) { lua_pop(L, 2); return 0; }
            int kt = lua_type(L, -2);
            int usable = kt == LUA_TSTRING || (kt == LUA_TNUMBER && lua_tonumber(L, -2) == lua_tonumber(L, -2));
            if (usable) lua_rawset(L, -3); else lua_pop(L, 2);
        }
        return 1;
    }
    default:
        return 0;
    }
}

// decode(stream) -> { record, ... }: the records that parse, in order, up to
// the first that does not (or is not a table).
int tl_record_decode(lua_State *L) {
    luaL_checkstack(L, 3 * TL_RECORD_DEPTH + 8, "record too deep");
    size_t size;
    const char *s = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &size) : NULL;
    lua_newtable(L);
    if (s == NULL) return 1;
    const unsigned char *p = (const unsigned char *)s, *end = p + size;
    lua_Integer count = 0;
    while (end - p >= 4) {
        tl_decoder frame = { p, end };
        uint32_t n;
        tl_get_u32(&frame, &n);
        if ((size_t)(end - frame.p) < n) break;
        tl_decoder d = { frame.p, frame.p + n };
        if (!tl_get_value(L, &d, 0)) break;
        if (d.p != d.end || !lua_istable(L, -1)) { lua_pop(L, 1); break; }
        lua_rawseti(L, -2, ++count);
        p = frame.p + n;
    }
    return 1;
}

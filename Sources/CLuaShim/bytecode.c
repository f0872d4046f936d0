// Whether bytecode compiled when TraitLab was built (the EmbedLua plugin's
// embed-lua dumps each embedded Lua file) suits the Lua running now. A
// binary chunk is only valid for the Lua version and build that made it
// (Lua 5.4 manual, §4.6 lua_load and lua_dump; lundump.c checks the same
// header): its header (signature, version, format, LUAC_DATA, the sizes of
// Instruction, lua_Integer and lua_Number, and a sample integer and float)
// must be byte for byte the header this Lua writes.
#include "CLuaShim.h"

#include <string.h>

#define TL_HEADER_SIZE (4 + 1 + 1 + 6 + 3 + sizeof(lua_Integer) + sizeof(lua_Number))

static unsigned char tl_header[TL_HEADER_SIZE];
static size_t tl_header_length;   // 0: not taken yet

static int tl_header_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    (void)ud;
    size_t room = TL_HEADER_SIZE - tl_header_length;
    size_t n = size < room ? size : room;
    memcpy(tl_header + tl_header_length, p, n);
    tl_header_length += n;
    return 0;
}

int tl_bytecode_fits(lua_State *L, const unsigned char *chunk, size_t size) {
    if (tl_header_length < TL_HEADER_SIZE) {
        tl_header_length = 0;
        if (luaL_loadstring(L, "") != LUA_OK) { lua_pop(L, 1); return 0; }
        lua_dump(L, tl_header_writer, NULL, 0);
        lua_pop(L, 1);
        if (tl_header_length < TL_HEADER_SIZE) { tl_header_length = 0; return 0; }
    }
    return size > TL_HEADER_SIZE && memcmp(chunk, tl_header, TL_HEADER_SIZE) == 0;
}

// Embedded bytecode is kept in a Swift string literal whose characters are
// its bytes (U+0000 to U+00FF, so bytes from 0x80 take two UTF-8 bytes):
// this reader decodes it for lua_load a block at a time, with no copy of the
// whole chunk.
typedef struct {
    const unsigned char *p, *end;
    unsigned char block[4096];
} tl_text_reader;

static const char *tl_read_text(lua_State *L, void *ud, size_t *size) {
    (void)L;
    tl_text_reader *r = ud;
    const unsigned char *p = r->p, *end = r->end;
    unsigned char *out = r->block, *full = r->block + sizeof r->block;
    // (Stops one byte early, so that a two-byte sequence is always whole.)
    while (p + 1 < end && out < full) {
        unsigned char b = *p;
        if (b < 0x80) { *out++ = b; p += 1; }
        else { *out++ = (unsigned char)(((b & 0x03) << 6) | (p[1] & 0x3f)); p += 2; }
    }
    if (p + 1 == end && out < full) {
        if (*p < 0x80) *out++ = *p;   // (a torn sequence is dropped: lua_load reports a truncated chunk)
        p = end;
    }
    r->p = p;
    *size = (size_t)(out - r->block);
    return *size ? (const char *)r->block : NULL;
}

int tl_load_embedded_bytecode(lua_State *L, const unsigned char *text, size_t length, const char *chunkname) {
    // The header first, decoded on its own for the check.
    unsigned char header[TL_HEADER_SIZE + 1];
    tl_text_reader probe = { text, text + length, { 0 } };
    size_t n = 0;
    while (n < sizeof header) {
        size_t got;
        const char *block = tl_read_text(L, &probe, &got);
        if (!block) break;
        size_t take = got < sizeof header - n ? got : sizeof header - n;
        memcpy(header + n, block, take);
        n += take;
    }
    if (!tl_bytecode_fits(L, header, n)) return 0;
    tl_text_reader reader = { text, text + length, { 0 } };
    if (lua_load(L, tl_read_text, &reader, chunkname, "b") != LUA_OK) { lua_pop(L, 1); return 0; }
    return 1;
}

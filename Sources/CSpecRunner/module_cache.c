// busted's modules (Debian's lua-busted, luassert, say, penlight and their
// companions: the files under the folders the driver trusts) compiled once
// and kept as bytecode, so that `traitlab test` does not compile ~75 files
// at every start.
//
// The cache is one file, $XDG_CACHE_HOME/traitlab/busted-modules (or
// ~/.cache/traitlab/...; the XDG Base Directory Specification), holding for
// each module file its path, what identifies that file's contents (device,
// inode, size, modification and change times: a package upgrade replaces
// the file, which changes them), a checksum and the bytecode. A cache is
// input like any other, and bytecode is not checked by Lua (a malformed
// chunk can crash it), so it is only read when nobody but this user could
// have written it: the folder and the file owned by this user and writable
// by nobody else, the file a regular file reached without a symbolic link;
// each entry's checksum must match and its bytecode must carry this Lua's
// header. Anything else is ignored and the module compiled from its source.
// Only TraitLab writes the file (atomically: a new file renamed over the old
// one); spec code never reaches these functions.
#include "CSpecRunner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TL_CACHE_MAGIC "traitlab busted modules 1\n"
#define TL_CACHE_MAX_BYTES (64u << 20)
#define TL_CACHE_MAX_ENTRIES 4096

typedef struct {
    char *path;
    int64_t key[7];          // dev, ino, size, mtime s, mtime ns, ctime s, ctime ns
    unsigned char *code;     // in the mapped file (checked when first used), or owned
    size_t size;
    uint64_t sum;
    int owned, checked;
} tl_cache_entry;

static tl_cache_entry *tl_entries;
static size_t tl_nentries, tl_capacity;
static int tl_cache_read, tl_cache_dirty;
static char tl_cache_dir[4096];

// A checksum against a torn or damaged entry (not against someone who may
// write the file: the modes keep them out): FNV-1a's constants, 64 bits, taken
// a little-endian word at a time (then the last bytes one by one), each
// product folded with its high bits.
static uint64_t tl_checksum(const unsigned char *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--) w = (w << 8) | p[i + k];
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < n; i++) { h ^= p[i]; h *= 1099511628211ull; }
    return h;
}

// The cache's folder, or 0 when neither XDG_CACHE_HOME (absolute, as the
// specification requires) nor HOME says where.
static int tl_find_dir(void) {
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') n = snprintf(tl_cache_dir, sizeof tl_cache_dir, "%s/traitlab", xdg);
    else if (home && home[0] == '/') n = snprintf(tl_cache_dir, sizeof tl_cache_dir, "%s/.cache/traitlab", home);
    else return 0;
    return n > 0 && (size_t)n < sizeof tl_cache_dir - 32;
}

// Whether `st` is something only this user (or root) could have written.
static int tl_private(const struct stat *st) {
    return st->st_uid == geteuid() && (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

static int tl_key_of(const char *path, int64_t key[7]) {
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    key[0] = (int64_t)st.st_dev; key[1] = (int64_t)st.st_ino; key[2] = (int64_t)st.st_size;
    key[3] = (int64_t)st.st_mtim.tv_sec; key[4] = (int64_t)st.st_mtim.tv_nsec;
    key[5] = (int64_t)st.st_ctim.tv_sec; key[6] = (int64_t)st.st_ctim.tv_nsec;
    return 1;
}

static void tl_drop_code(tl_cache_entry *e) {
    if (e->owned) free(e->code);
    e->code = NULL;
    e->size = 0;
    e->owned = 0;
}

static tl_cache_entry *tl_find(const char *path) {
    for (size_t i = 0; i < tl_nentries; i++) if (strcmp(tl_entries[i].path, path) == 0) return &tl_entries[i];
    return NULL;
}

static tl_cache_entry *tl_add(const char *path) {
    tl_cache_entry *e = tl_find(path);
    if (e) return e;
    if (tl_nentries >= TL_CACHE_MAX_ENTRIES) return NULL;
    if (tl_nentries == tl_capacity) {
        size_t capacity = tl_capacity ? tl_capacity * 2 : 128;
        tl_cache_entry *grown = realloc(tl_entries, capacity * sizeof *grown);
        if (!grown) return NULL;
        tl_entries = grown;
        tl_capacity = capacity;
    }
    char *copy = strdup(path);
    if (!copy) return NULL;
    e = &tl_entries[tl_nentries++];
    memset(e, 0, sizeof *e);
    e->path = copy;
    return e;
}

// Reads little-endian fields from [*p, end); 0 when past the end.
static int tl_take(const unsigned char **p, const unsigned char *end, void *out, size_t n) {
    if ((size_t)(end - *p) < n) return 0;
    memcpy(out, *p, n);
    *p += n;
    return 1;
}

// Maps the cache file once per process (a file that is not private, or
// malformed, is ignored from there on); entries point into the mapping and
// their checksums are checked when first used.
static void tl_read_cache(void) {
    tl_cache_read = 1;
    if (!tl_find_dir()) return;
    struct stat st;
    if (lstat(tl_cache_dir, &st) != 0 || !S_ISDIR(st.st_mode) || !tl_private(&st)) return;
    char file[4200];
    snprintf(file, sizeof file, "%s/busted-modules", tl_cache_dir);
    int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && tl_private(&st) && st.st_size > 0
        && (uint64_t)st.st_size <= TL_CACHE_MAX_BYTES) {
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    }
    close(fd);
    if (map == MAP_FAILED) return;
    // (The mapping stays for the life of the process: entries point into it.)
    const unsigned char *p = map, *end = p + st.st_size;
    size_t magic = strlen(TL_CACHE_MAGIC);
    if ((size_t)st.st_size < magic || memcmp(p, TL_CACHE_MAGIC, magic) != 0) return;
    p += magic;
    while (p < end) {
        uint32_t pathLength, codeLength;
        int64_t key[7];
        uint64_t sum;
        if (!tl_take(&p, end, &pathLength, 4) || pathLength == 0 || pathLength > 4096
            || (size_t)(end - p) < pathLength) break;
        const unsigned char *path = p;
        p += pathLength;
        if (!tl_take(&p, end, key, sizeof key) || !tl_take(&p, end, &sum, 8)
            || !tl_take(&p, end, &codeLength, 4) || (size_t)(end - p) < codeLength) break;
        unsigned char *code = (unsigned char *)p;
        p += codeLength;
        if (memchr(path, 0, pathLength) || codeLength == 0) continue;
        char name[4097];
        memcpy(name, path, pathLength);
        name[pathLength] = 0;
        tl_cache_entry *e = tl_add(name);
        if (!e) break;
        tl_drop_code(e);
        e->code = code;
        e->size = codeLength;
        e->sum = sum;
        e->checked = 0;
        memcpy(e->key, key, sizeof key);
    }
}

static int tl_dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    tl_cache_entry *e = ud;   // (its code is owned: tl_module_cache_chunk dropped any other)
    unsigned char *grown = realloc(e->code, e->size + size);
    if (!grown) return 1;
    memcpy(grown + e->size, p, size);
    e->code = grown;
    e->size += size;
    return 0;
}

// cached_chunk(path) -> the module file at `path` compiled (from the cache
// when its entry still matches the file), or nil, message when it does not
// compile (the caller's searcher then reports as Lua's own would).
int tl_module_cache_chunk(lua_State *L) {
    const char *path = lua_tostring(L, 1);
    if (path == NULL) { lua_pushnil(L); lua_pushliteral(L, "no path"); return 2; }
    if (!tl_cache_read) tl_read_cache();
    int64_t key[7];
    int known = tl_key_of(path, key);
    tl_cache_entry *e = known ? tl_find(path) : NULL;
    lua_pushfstring(L, "@%s", path);
    const char *chunkname = lua_tostring(L, -1);
    if (e && e->code && memcmp(e->key, key, sizeof key) == 0) {
        if (!e->checked) {
            e->checked = 1;
            if (tl_checksum(e->code, e->size) != e->sum) tl_drop_code(e);
        }
        if (e->code && tl_bytecode_fits(L, e->code, e->size)) {
            if (luaL_loadbufferx(L, (const char *)e->code, e->size, chunkname, "b") == LUA_OK) return 1;
            lua_pop(L, 1);   // (its message: the source is compiled instead)
            tl_drop_code(e);
        }
    }
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (known && (e = tl_add(path)) != NULL) {
        tl_drop_code(e);
        e->owned = 1;
        if (lua_dump(L, tl_dump_writer, e, 0) == 0 && e->size > 0) {
            memcpy(e->key, key, sizeof key);
            e->checked = 1;
            tl_cache_dirty = 1;
        } else {
            tl_drop_code(e);
        }
    }
    return 1;
}

static int tl_write_all(int fd, const void *p, size_t n) {
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w < 0) { if (errno == EINTR) continue; return 0; }
        b += w;
        n -= (size_t)w;
    }
    return 1;
}

// save_module_cache(): writes the cache if this process compiled a module
// it lacked (into a new private file renamed over the old one; the folder
// made private if missing). Failing to write only means compiling again.
int tl_module_cache_save(lua_State *L) {
    (void)L;
    if (!tl_cache_dirty || !tl_find_dir()) return 0;
    tl_cache_dirty = 0;
    // The folder and its parent (~/.cache), as the specification asks: 0700.
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", tl_cache_dir);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) { *slash = 0; mkdir(parent, 0700); }
    mkdir(tl_cache_dir, 0700);
    struct stat st;
    if (lstat(tl_cache_dir, &st) != 0 || !S_ISDIR(st.st_mode) || !tl_private(&st)) return 0;
    char temp[4200], file[4200];
    snprintf(temp, sizeof temp, "%s/busted-modules.XXXXXX", tl_cache_dir);
    snprintf(file, sizeof file, "%s/busted-modules", tl_cache_dir);
    int fd = mkstemp(temp);
    if (fd < 0) return 0;
    int ok = tl_write_all(fd, TL_CACHE_MAGIC, strlen(TL_CACHE_MAGIC));
    size_t total = strlen(TL_CACHE_MAGIC);
    for (size_t i = 0; ok && i < tl_nentries; i++) {
        tl_cache_entry *e = &tl_entries[i];
        uint32_t pathLength = (uint32_t)strlen(e->path), codeLength = (uint32_t)e->size;
        if (!e->code || e->size == 0 || e->size > UINT32_MAX) continue;
        total += 4 + pathLength + sizeof e->key + 8 + 4 + e->size;
        if (total > TL_CACHE_MAX_BYTES) break;
        uint64_t sum = e->checked ? tl_checksum(e->code, e->size) : e->sum;
        ok = tl_write_all(fd, &pathLength, 4) && tl_write_all(fd, e->path, pathLength)
             && tl_write_all(fd, e->key, sizeof e->key) && tl_write_all(fd, &sum, 8)
             && tl_write_all(fd, &codeLength, 4) && tl_write_all(fd, e->code, e->size);
    }
    if (close(fd) != 0) ok = 0;
    if (!ok || rename(temp, file) != 0) unlink(temp);
    return 0;
}

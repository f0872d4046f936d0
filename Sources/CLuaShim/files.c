// Files that sandboxed code may reach only through TraitLab's checks: the
// real location of a module `require` would read (symbolic links resolved),
// and snapshot files, read and written only when they are regular files
// (a planted link is never followed: O_NOFOLLOW, then fstat).
//
// These are Lua C functions with no Swift frame below them, so raising here
// (a memory error) is safe; each one acquires a descriptor only after its
// last allocation that can raise, or releases it before the next one.
#include "CLuaShim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// realpath(path): the canonical absolute path, or nil when it does not exist.
int tl_lua_realpath(lua_State *L) {
    const char *path = lua_tostring(L, 1);
    char resolved[PATH_MAX];
    if (path == NULL || realpath(path, resolved) == NULL) return 0;
    lua_pushstring(L, resolved);
    return 1;
}

// file_kind(path): "file", "directory", "link", "other", or nil when nothing
// is there. A link is reported as a link, never as what it points to.
int tl_lua_file_kind(lua_State *L) {
    const char *path = lua_tostring(L, 1);
    struct stat st;
    if (path == NULL || lstat(path, &st) != 0) return 0;
    if (S_ISLNK(st.st_mode)) lua_pushliteral(L, "link");
    else if (S_ISREG(st.st_mode)) lua_pushliteral(L, "file");
    else if (S_ISDIR(st.st_mode)) lua_pushliteral(L, "directory");
    else lua_pushliteral(L, "other");
    return 1;
}

// read_regular(path): the text of a regular file; nil and the reason when
// there is none, or when the path is a link or not a regular file (then
// nothing of it is read).
int tl_lua_read_regular(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    struct stat st;
    if (lstat(path, &st) != 0) { lua_pushnil(L); lua_pushliteral(L, "missing"); return 2; }
    if (!S_ISREG(st.st_mode)) {
        lua_pushnil(L);
        if (S_ISLNK(st.st_mode)) lua_pushliteral(L, "a symbolic link");
        else lua_pushliteral(L, "not a regular file");
        return 2;
    }
    // The buffer first (it may raise), then the descriptor.
    size_t size = (size_t)st.st_size;
    char *buffer = lua_newuserdatauv(L, size ? size : 1, 0);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { lua_pushnil(L); lua_pushstring(L, strerror(errno)); return 2; }
    struct stat now;
    if (fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != st.st_ino || (size_t)now.st_size != size) {
        close(fd);
        lua_pushnil(L);
        lua_pushliteral(L, "changed while it was read");
        return 2;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buffer + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    lua_pushlstring(L, buffer, got);
    return 1;
}

// write_regular(path, text): writes text to path as a regular file. A link
// there is removed first (replaced, never followed); any other kind of file
// is refused. Returns true, or nil and the reason.
int tl_lua_write_regular(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    size_t len;
    const char *text = luaL_checklstring(L, 2, &len);
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            if (unlink(path) != 0) { lua_pushnil(L); lua_pushstring(L, strerror(errno)); return 2; }
        } else if (!S_ISREG(st.st_mode)) {
            lua_pushnil(L);
            lua_pushliteral(L, "not a regular file");
            return 2;
        }
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) { lua_pushnil(L); lua_pushstring(L, strerror(errno)); return 2; }
    size_t done = 0;
    int failed = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { failed = errno ? errno : EIO; break; }
        done += (size_t)n;
    }
    if (close(fd) != 0 && !failed) failed = errno;
    if (failed) { lua_pushnil(L); lua_pushstring(L, strerror(failed)); return 2; }
    lua_pushboolean(L, 1);
    return 1;
}

// make_folder(path): a real folder at path (mkdir; one that is there is kept).
// A link or a file in its place is refused. Returns true, or nil and the reason.
int tl_lua_make_folder(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) { lua_pushboolean(L, 1); return 1; }
        lua_pushnil(L);
        lua_pushstring(L, S_ISLNK(st.st_mode) ? "a symbolic link (not followed)" : "not a folder");
        return 2;
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST) { lua_pushnil(L); lua_pushstring(L, strerror(errno)); return 2; }
    lua_pushboolean(L, 1);
    return 1;
}

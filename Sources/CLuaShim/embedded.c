// Lua sources compiled into the binary, so TraitLab needs no files at run time.
#include "CLuaShim.h"
#include <string.h>

#pragma clang diagnostic ignored "-Wc23-extensions"

static const char busted_lua[] = {
#embed "lua/busted.lua"
    , 0};

static const char sandbox_lua[] = {
#embed "lua/sandbox.lua"
    , 0};

static const char observable_lua[] = {
#embed "lua/observable.lua"
    , 0};

static const struct { const char *name; const char *source; size_t size; } tl_sources[] = {
    {"busted", busted_lua, sizeof busted_lua - 1},
    {"sandbox", sandbox_lua, sizeof sandbox_lua - 1},
    {"observable", observable_lua, sizeof observable_lua - 1},
};

const char *tl_embedded_source(const char *name, size_t *len) {
    for (size_t i = 0; i < sizeof tl_sources / sizeof tl_sources[0]; i++) {
        if (strcmp(tl_sources[i].name, name) == 0) {
            if (len) *len = tl_sources[i].size;
            return tl_sources[i].source;
        }
    }
    return NULL;
}

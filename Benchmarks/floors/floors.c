#include "CBenchFloors.h"
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <time.h>

static double tlf_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int tlf_msghandler(lua_State *L) { return 1; }

double tlf_protected_call(int calls, int rounds) {
    lua_State *L = luaL_newstate();
    if (!L) return -1;
    luaL_openlibs(L);
    if (luaL_dostring(L, "local calls = 0\n"
                         "return function(self, previous) calls = calls + 1 end, {}, {}")) {
        lua_close(L);
        return -1;
    }
    int fn = lua_gettop(L) - 2, self = fn + 1, previous = fn + 2;
    double best = -1;
    for (int r = 0; r < rounds; r++) {
        double start = tlf_now();
        for (int i = 0; i < calls; i++) {
            lua_pushcfunction(L, tlf_msghandler);
            lua_pushvalue(L, fn);
            lua_pushvalue(L, self);
            lua_pushvalue(L, previous);
            if (lua_pcall(L, 2, 0, -4) != LUA_OK) { lua_close(L); return -1; }
            lua_pop(L, 1);
        }
        double s = (tlf_now() - start) / calls;
        if (best < 0 || s < best) best = s;
    }
    lua_close(L);
    return best;
}

// A collection's __index: any key's value (the upvalue).
static int tlf_collection_index(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}

static int tlf_collection_gc(lua_State *L) { return 0; }

// A view's __index: a new collection object for any key.
static int tlf_view_index(lua_State *L) {
    lua_newuserdatauv(L, 32, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setmetatable(L, -2);
    return 1;
}

static int tlf_fresh_body(lua_State *L) {
    int count = (int)lua_tointeger(L, 1), rounds = (int)lua_tointeger(L, 2);
    double *out = lua_touserdata(L, 3);
    lua_createtable(L, 0, 2);                        // the collections' metatable
    lua_pushliteral(L, "bold");
    lua_pushcclosure(L, tlf_collection_index, 1);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, tlf_collection_gc);
    lua_setfield(L, -2, "__gc");
    lua_createtable(L, 0, 1);                        // the views' metatable
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, tlf_view_index, 1);
    lua_setfield(L, -2, "__index");
    lua_newuserdatauv(L, 8, 0);                      // a view
    lua_insert(L, -2);
    lua_setmetatable(L, -2);
    luaL_loadstring(L,
        "local view, n, rounds = ...\n"
        "local clock = os.clock\n"
        "local views, nodes = {}, {}\n"
        "for i = 1, n do views[i] = view end\n"
        "local best_object, best_table = math.huge, math.huge\n"
        "for r = 1, rounds do\n"
        "  for i = 1, n do nodes[i] = { tc = setmetatable({ benchTheme = 'bold', benchDensity = i, benchStyle = 'plain' }, {}) } end\n"
        "  local x\n"
        "  local t0 = clock()\n"
        "  for i = 1, n do x = views[i].traitCollection.benchTheme end\n"
        "  local t1 = clock()\n"
        "  for i = 1, n do x = nodes[i].tc.benchTheme end\n"
        "  local t2 = clock()\n"
        "  best_object = math.min(best_object, (t1 - t0) / n)\n"
        "  best_table = math.min(best_table, (t2 - t1) / n)\n"
        "end\n"
        "return best_object, best_table\n");
    lua_insert(L, -2);
    lua_pushinteger(L, count);
    lua_pushinteger(L, rounds);
    lua_call(L, 3, 2);
    out[0] = lua_tonumber(L, -2);
    out[1] = lua_tonumber(L, -1);
    return 0;
}

int tlf_fresh_object_read(int count, int rounds, double *out) {
    lua_State *L = luaL_newstate();
    if (!L) return -1;
    luaL_openlibs(L);
    lua_pushcfunction(L, tlf_fresh_body);
    lua_pushinteger(L, count);
    lua_pushinteger(L, rounds);
    lua_pushlightuserdata(L, out);
    int status = lua_pcall(L, 3, 0, 0);
    lua_close(L);
    return status == LUA_OK ? 0 : -1;
}

// The order busted's --shuffle and randomize() give under Debian's `busted`
// command, which runs on Lua 5.1 (its `#!/usr/bin/env lua` finds lua5.1, the
// `lua` alternative of highest priority). busted's shuffle
// (busted/utils.lua) seeds with math.randomseed(seed) and draws
// math.random(n); in Lua 5.1 those are the C library's srand and rand
// (lmathlib.c of Lua 5.1: math_randomseed, math_random). Lua 5.4's
// math.random is another generator (xoshiro256**), so the same seed gives
// another order there. These two functions draw what Lua 5.1 draws, from
// glibc's own generator (random_r, the generator rand uses) with a state of
// their own, so nothing else in the process is disturbed.
#define _DEFAULT_SOURCE
#include "CSpecRunner.h"

#include <math.h>
#include <stdlib.h>

static struct random_data tl_r51_data;
static char tl_r51_state[128];   // glibc's default state size: rand's own generator (TYPE_3)
static int tl_r51_ready;

static void tl_r51_seed(unsigned int seed) {
    if (!tl_r51_ready) {
        initstate_r(seed, tl_r51_state, sizeof tl_r51_state, &tl_r51_data);
        tl_r51_ready = 1;
    }
    srandom_r(seed, &tl_r51_data);
}

// lua51_randomseed(x): srand(luaL_checkint(x)) as Lua 5.1 does it: the
// number truncated to an integer, then to an int.
int tl_lua51_randomseed(lua_State *L) {
    lua_Number n = lua_tonumber(L, 1);
    long long whole = (n != n || n >= 9.2e18 || n <= -9.2e18) ? 0 : (long long)n;
    tl_r51_seed((unsigned int)(int)whole);
    return 0;
}

// lua51_random(u): Lua 5.1's math.random(u), floor(r*u)+1 with r =
// (rand()%RAND_MAX)/RAND_MAX; nil for an empty interval (never raises).
int tl_lua51_random(lua_State *L) {
    if (!tl_r51_ready) tl_r51_seed(1);   // rand() before any srand() is seeded with 1
    lua_Number n = lua_tonumber(L, 1);
    int u = (n != n || n >= 2147483647.0 || n <= -2147483648.0) ? 0 : (int)n;
    if (u < 1) return 0;
    int32_t v;
    random_r(&tl_r51_data, &v);
    double r = (double)(v % RAND_MAX) / (double)RAND_MAX;
    lua_pushinteger(L, (lua_Integer)floor(r * u) + 1);
    return 1;
}

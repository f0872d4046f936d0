#include "fuzz_hooks.h"

#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>

#include "CLuaShim.h"

// Instructions between two calls of the count hook: rare enough that the
// budget costs nothing measurable, often enough to stop within the budget.
#define FUZZ_HOOK_STEP 1000

// One input runs at a time, so one counter serves every state.
static long fuzz_remaining;

static void fuzz_count_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    fuzz_remaining -= FUZZ_HOOK_STEP;
    if (fuzz_remaining > 0) return;
    // From now on the host's interrupt hook raises at every instruction of
    // this thread; the error below ends the current one.
    tl_interrupt(L, 1);
    luaL_error(L, "fuzz: instruction budget exhausted");
}

void fuzz_limit_instructions(lua_State *L, long instructions) {
    fuzz_remaining = instructions;
    lua_sethook(L, fuzz_count_hook, LUA_MASKCOUNT, FUZZ_HOOK_STEP);
}

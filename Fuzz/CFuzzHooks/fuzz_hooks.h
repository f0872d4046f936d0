// The fuzzer's instruction budget, kept in C because the hook raises a Lua
// error (a longjmp), which must never cross a Swift frame.
#ifndef FUZZ_HOOKS_H
#define FUZZ_HOOKS_H

typedef struct lua_State lua_State;

// Arms a count hook on L (and the coroutines it creates later): once about
// `instructions` VM instructions have run, every further instruction raises,
// as TraitLab's --timeout does, so a pcall in the input cannot loop for ever.
void fuzz_limit_instructions(lua_State *L, long instructions);

#endif

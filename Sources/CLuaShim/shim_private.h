// What the shim's C files share and nothing outside the shim sees. The shim
// is one job per file: memory.c (the allocator, the page pool, the memory
// cap), calls.c (trampolines into Swift, protected calls out of it),
// boxes.c (Swift objects in userdata), interrupts.c (hooks, finalizers under
// an interrupt, deadlines), coroutines.c (interruptible coroutines, xpcall),
// objects.c (the fast paths of environments and collections), files.c (what
// the sandbox reads and writes through checks).
#ifndef CLUASHIM_PRIVATE_H
#define CLUASHIM_PRIVATE_H

#include "CLuaShim.h"

// The first two bytes of a box. Its low four bits are not zero, so the only
// other 16-byte userdata Lua's libraries make, a file handle (a FILE *, which
// malloc aligns to 16 bytes, then a function pointer), never passes for a box.
#define TL_BOX_MAGIC 0x4C54u  // "TL"

// 16 bytes, so that a box with one user value is a 72-byte block (the pool's
// size classes are 8 bytes apart): every environment and collection object.
typedef struct tl_box {
    uint16_t magic;
    uint16_t kind;
    uint32_t slot;      // an environment's slot in the table of objects, or 0
    void *payload;
} tl_box;


// What a call into Swift saves of the host's flags.
typedef struct tl_swift_frame { int in_swift, in_finalizer; } tl_swift_frame;

// Whether the function `ar` describes (filled with "S") may go on while an
// interrupt is pending: the registered policy decides (tl_set_interrupt_policy);
// with none, nothing may.
int tl_interrupt_trusts(lua_State *L, const lua_Debug *ar);

// The memory kept in reserve for reporting that memory ran out, and how
// many bytes asked for between two probes of the address space (memory.c).
#define TL_RESERVE_SIZE (4u << 20)
#define TL_PROBE_STEP (1u << 20)

// Pushes an environment's lone handler (objects.c).
int tl_env_push_lone_handler_of(lua_State *L, int idx);

// Shared between the files above (each defined where its section is).
int tl_after_swift(lua_State *L, tl_host *h, int n);
int tl_call_swift(lua_State *L, int fnid);
tl_box *tl_checkedbox(lua_State *L, int idx);
tl_box *tl_checkeduserdata(lua_State *L, int idx);
int tl_collection_index(lua_State *L);
void tl_engine_measure(tl_host *h);
int tl_engine_room(size_t bytes);
int tl_engine_settle(lua_State *L, tl_host *h, size_t more);
tl_swift_frame tl_enter_swift(lua_State *L, tl_host *h);
int tl_env_index(lua_State *L);
int tl_env_lookup(lua_State *L, int u, int key);
void tl_env_make_fields(lua_State *L, int idx);
int tl_env_newindex(lua_State *L);
void *tl_interrupting_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
int tl_is_environment(lua_State *L, int idx);
void tl_leave_swift(tl_host *h, tl_swift_frame f);
int tl_may_fail(tl_host *h);
unsigned tl_measure_calls(const tl_host *h);
int tl_over_cap(const tl_host *h, size_t more, size_t slack);
extern tl_release_fn tl_release;
extern void *tl_reserve;
uint32_t tl_slot_adopt(lua_State *L, tl_host *h, int t, int u, tl_box *b);
int tl_slot_box(lua_State *L, int t, void *payload, int kind, uint32_t slot);
void *tl_userdatabox(lua_State *L, int idx, int *kind);

#endif

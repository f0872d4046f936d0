// The only place where TraitLab touches the Lua C API below Swift.
//
// Two jobs: re-declare Lua's macros as functions Swift can call, and keep every
// raising path (lua_error, memory errors, interrupts) in C, so that a Lua error
// never longjmps through a Swift frame. Swift functions called from Lua return a
// status to `tl_trampoline`, which raises only after Swift has returned.
#ifndef CLUASHIM_H
#define CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>

// ---- Status codes a Swift function returns to the trampoline ----
// >= 0: number of results on the stack.
#define TL_RAISE_WHERE (-1)   // error message on top; prefix "chunk:line:" and raise
#define TL_RAISE_VALUE (-2)   // error value on top; raise it unchanged

// Swift installs one dispatcher for every function it exposes; `fnid` selects it.
typedef int (*tl_dispatch_fn)(lua_State *L, int fnid);
// Swift's finalizer for boxed objects: called from __gc with the box's payload.
typedef void (*tl_release_fn)(void *payload, int deferred);
void tl_set_dispatch(tl_dispatch_fn dispatch, tl_release_fn release);

// ---- Per-state host record (lives in lua_getextraspace) ----
typedef struct tl_host {
    void *swift_host;          // the owning Swift object (unretained)
    size_t limit;              // allocation cap in bytes, 0 = none
    size_t used;               // bytes currently allocated, counted when capped
    int in_swift;              // innermost frame is Swift: allocations must not fail
    int swift_frames;          // Swift frames anywhere on the C stack
    int over_limit;            // an allocation in Swift went past the cap
    int alloc_failed;          // the system refused an allocation made in Swift
    int swift_in_finalizer;    // the innermost Swift frame began inside a finalizer
    volatile int interrupt;    // 0 none, 1 timeout, 2 user interrupt (Ctrl-C), 3 stop (CSpecRunner)
    // While an interrupt is pending the state's allocator is tl_interrupting_alloc
    // (interrupts.c), which stops finalizers; the allocator it stands in for:
    lua_Alloc interrupted_alloc;
    volatile int finalizer_refused;  // it refused a finalizer's allocation (for the warning's text)
    lua_Alloc base_alloc;      // allocator we wrap (realloc/free or the interpreter's)
    void *base_ud;
    lua_State *saved_hook_thread;  // the program's own debug hook, put back
    lua_Hook saved_hook;           // when an interrupt is cleared
    int saved_hook_mask;
    int saved_hook_count;
    lua_State *L;              // the main thread (for lua_gc from the allocator)
    size_t blocks;             // Lua's live blocks, counted when capped
    size_t engine;             // bytes the engine holds beyond Lua's heap (last measured)
    size_t engine_base;        // malloc's heap, not Lua's, when the state was set up
    size_t engine_charged;     // estimated engine growth since the last measurement
    unsigned engine_calls;     // Swift calls since the last measurement
    int refused;               // the cap refused an allocation since the last tl_recover
    // `object.traitCollection` served from C (tl_env_index): the environment's
    // current collection, whose object is looked up by slot in the table of
    // objects (env_objects_ref), or by address in the table of collection
    // objects or of tracking objects; made in C when missing.
    // *tracked is set when a tracked callback must see the read: the object
    // is then the collection's tracking object (another table, never cached).
    // *key is the collection's host key (TraitCollection.hostKey): this
    // host's id in its high 32 bits and the slot of its object in the table
    // of objects in the low ones, or another host's, or 0 (see host_id).
    void *(*env_collection)(void *swift_host, void *environment, int *tracked, uint64_t *key);
    // Sets a collection's host key (an object made in C took a slot).
    void (*set_collection_key)(void *collection, uint64_t key);
    // Tells this host's collection keys from other hosts' (a collection may
    // be shared by every world in the process: TraitCollection.empty): a
    // collection keyed by another host has its object in the table of
    // collection objects by address (collection_objects_ref) instead. Never 0.
    uint32_t host_id;
    // Notes that the environment's field table caches its collection's object
    // (read a second time), which the host drops when the collection changes.
    void (*env_caches_collection)(void *environment);
    int collection_objects_ref;   // by address: collections another host keys (see host_id)
    int tracking_objects_ref;
    // Environment objects by slot (weak values; see tl_env_adopt): the
    // slots finalizers gave back, and the highest slot handed out.
    int env_objects_ref;
    uint32_t *free_slots;
    uint32_t free_count, free_capacity, high_slot;
    lua_Integer trait_collection_property;
    // A trait read from a collection object served without the dispatcher
    // (tl_collection_index): the definition is found in C (registry table
    // definitions_by_property_ref: property name -> definition box, or a
    // definition box as the key); Swift pushes the value onto L and returns 1,
    // or returns 0 with nothing pushed for what the general path handles
    // (table values). *cacheable tells whether the object may keep the value.
    // Called with the state's Swift flags set as for any call into Swift.
    int (*collection_value)(void *swift_host, lua_State *L, void *collection, void *definition, int *cacheable);
    // A tracking object's read served from its cache in C: Swift records it
    // as a read of the collection (automatic trait tracking). Touches no Lua.
    void (*record_read)(void *swift_host, void *collection, void *definition);
    // Takes a reference to a collection (a box made in C holds one; its
    // finalizer gives it back through Swift's release).
    void (*retain_collection)(void *collection);
    int tracking_meta_ref;          // the tracking objects' shared metatable
    // The tracking object served last by tl_env_index, kept in the registry
    // slot recent_tracking_ref, and its collection (views share one).
    void *recent_tracking;
    int recent_tracking_ref;
    int definitions_by_property_ref;
    // Lua's small blocks without a cap: free lists per 16-byte size class,
    // carved from pages of their own (see tl_pool_alloc in memory.c).
    void *pool_free[65];   // free lists per 8-byte size class, 8..512 bytes
    char *pool_next, *pool_end;
    void *pool_pages;
    int collection_meta_ref;        // the shared metatable (template of promoted ones)
    int collection_cache_meta_ref;  // the caches' shared metatable
    // Keys the C lookups use, kept as registry references (0: not set, then
    // they are pushed from literals): a rawgeti is a fraction of interning a
    // literal again on every lookup. trait_collection_key is the text of the
    // interned string "traitCollection" (short strings are interned, so a
    // key is that string exactly when lua_tostring gives this pointer).
    int index_key_ref;
    int metatable_key_ref;
    const char *trait_collection_key;
    // Address space the engine or Lua may have taken since it was last
    // probed (see tl_engine_charge): charges, and Lua's blocks from malloc.
    size_t unprobed;
} tl_host;

// Creates a state with TraitLab's allocator and host record. Returns NULL on failure.
lua_State *tl_newstate(size_t limit);
// Attaches a host record to an existing state (the lua5.4 module case); idempotent.
tl_host *tl_attach(lua_State *L);
tl_host *tl_gethost(lua_State *L);
// After the cap refused an allocation: a full collection, which runs the
// finalizers that give dead objects' engine memory back (the emergency
// collection Lua makes when an allocation fails runs none), then a fresh
// measurement of the engine. Call where Lua code may run (not in a finalizer);
// tl_pcall does. Allocates nothing and never raises.
void tl_recover(lua_State *L);
// Frees the host record after lua_close (tl_newstate only).
void tl_close(lua_State *L);

// ---- Engine memory under the cap (--memory-limit) ----
// Records the process's heap outside Lua as the baseline (after setting up).
void tl_engine_baseline(lua_State *L);
// Asks, before the engine allocates about `bytes` for the script (text and
// data it keeps, output it builds), whether it may: TL_CHARGE_OK, or
// TL_CHARGE_OVER_CAP when that would pass --memory-limit, or
// TL_CHARGE_NO_MEMORY when the system could not give it (the address space,
// ulimit -v, is nearly used up: Swift would stop the process). Refused work
// is not done; the trampoline raises "not enough memory" after Swift returns.
// With or without a cap; never raises.
#define TL_CHARGE_OK 1
#define TL_CHARGE_OVER_CAP 0
#define TL_CHARGE_NO_MEMORY (-1)
int tl_engine_charge(lua_State *L, size_t bytes);
// Whether Lua can be given `bytes` more from Swift (a string or table Swift
// pushes): while Swift runs, Lua's allocations cannot fail, and past the
// reserve kept for them the process would end. When there is no room (as
// tl_engine_charge judges it, address space), notes it so that the
// trampoline raises "not enough memory" once Swift returned, and returns 0:
// the caller pushes something small instead. Never raises.
int tl_lua_room(lua_State *L, size_t bytes);
// Bytes the engine holds for the script now (measured); 0 without a cap.
size_t tl_engine_bytes(lua_State *L);

// ---- Collection objects kept by slot ----
// Whether a collection with this host key has its object in this host's
// table of objects by slot: this host keys it, or no host does yet.
static inline int tl_collection_keyed_here(const tl_host *h, uint64_t key) {
    return key == 0 || (uint32_t)(key >> 32) == h->host_id;
}
// The host key of a collection whose object this host keeps at `slot`.
static inline uint64_t tl_collection_host_key(const tl_host *h, uint32_t slot) {
    return ((uint64_t)h->host_id << 32) | slot;
}
// Pushes collection c's object from the table of objects at t, or nil, and
// returns whether it is there: by address (by_slot 0), or at the slot in its
// host key (see tl_host.host_id), where only a box of c that has that slot
// counts. A box takes a slot with tl_env_adopt.
int tl_collection_object(lua_State *L, int t, void *c, int by_slot, uint64_t key);

// ---- Calling into Swift ----
void tl_pushfunction(lua_State *L, int fnid);
// A closure that first looks `key` (arg 2) up in `table_index`'s table: a function
// there is returned as is; otherwise Swift gets (obj, key, found-value-or-nil).
void tl_pushindexer(lua_State *L, int fnid, int table_index);

// ---- Boxed Swift objects ----
// A full userdata holding an opaque payload pointer (a retained Swift object),
// with a magic tag so foreign userdata is never mistaken for ours.
void *tl_newbox(lua_State *L, void *payload, int kind, int nuservalues);
void *tl_tobox(lua_State *L, int idx, int *kind);   // payload or NULL
void tl_setbox(lua_State *L, int idx, void *payload); // replace payload (NULL on release)
// What using a dead box says (tl_isdeadbox), from C and from Swift.
#define TL_DEAD_OBJECT_MESSAGE "this object is no longer valid: it belongs to an earlier engine world (each spec file starts with a fresh one), or its finalizer was called"
int tl_isdeadbox(lua_State *L, int idx);              // one of ours whose object was released
// Environment objects live in the table registry[env_objects_ref] at a slot
// number (its array part: 16 bytes an object, where a table keyed by the
// environment's address costs a 24-byte node), with weak values. The engine
// keeps the number (TraitEnvironment.hostSlot); the box keeps it too, and its
// finalizer gives it back to a free list in the host record (a finalizer may
// run while a traversal of the table is under way: it never writes the
// table). Slot numbers are only hints: an object is taken from a slot only
// when it is a box of this environment.
// Puts the box at `u` (an environment's, or a collection's kept by slot) in a
// free slot of the table at t (a new one, also when its object had one: that
// box may still await its finalizer, which frees its own) and returns the
// slot (never 0), which the box then owns; 0 when `u` is no box.
uint32_t tl_env_adopt(lua_State *L, int t, int u);
// Pushes the object at `slot` of the table at t and returns 1 when it is the
// box of `env`; otherwise pushes nothing and returns 0.
int tl_env_object(lua_State *L, int t, void *env, uint32_t slot);
// The __gc metamethod for boxes: calls the Swift release, deferring it when Swift
// frames are on the stack (a finalizer must not re-enter the engine mid-operation).
int tl_box_gc(lua_State *L);
void tl_pushboxgc(lua_State *L);

// ---- Protected calls from Swift ----
// lua_pcall with a traceback-appending message handler, lifting the "innermost
// frame is Swift" flag while Lua code runs.
int tl_pcall(lua_State *L, int nargs, int nresults);
// tl_pcall from a C function, as lua.c's pmain runs chunks: a traceback ends
// with that frame ("[C]: in ?") as lua5.4's does. For the interpreter's chunks.
int tl_pcall_main(lua_State *L, int nargs, int nresults);
// The same for Lua code Swift calls on a script's behalf (callbacks, handlers,
// mutation functions): only a string error gets the traceback; any other
// error value is left as it is, for the caller to raise again unchanged.
int tl_pcall_callback(lua_State *L, int nargs, int nresults);
// Replaces the error value on top with the text lua.c would print for it (its
// __tostring, run protected), without a traceback. Returns a Lua status; on
// failure the new error is on top instead.
int tl_error_text(lua_State *L);
// Replaces the key on top with obj[key] as Lua code gets it (__index
// functions included), in protected mode. Returns a Lua status; on failure
// the error value (a message with its traceback, or the value raised) is there instead.
int tl_pindex(lua_State *L, int obj);
// From an update: calls the Lua function an exposed environment has for
// an engine callback, with no Swift work on the stack. The object is found
// at `slot` of registry[objects_ref] (tl_env_object). With handler_id > 0 the
// function is fields[(void *)handler_id], a light userdata key (a
// registration's function; a target-action entry, at
// fields[registry[key_ref]][handler_id], is the caller's to call); else
// the callback named registry[key_ref], looked up as tl_rawlookup_at does.
// It gets the object and, unless previous_ref is LUA_NOREF, the value in
// registry[previous_ref]. Returns LUA_OK after the call, a Lua error status
// with the error value on top (a message with its traceback, or any other
// value as raised), TL_ENV_CALL_NONE when there is no
// such function, or TL_ENV_CALL_SLOW when the caller must take its general
// path (no object yet, a target-action entry, no stack): nothing is pushed then.
// With handler_id TL_LONE_HANDLER the function is the environment's lone
// handler (tl_env_set_lone_handler).
#define TL_ENV_CALL_NONE (-100)
#define TL_ENV_CALL_SLOW (-101)
// The callback named registry[key_ref] is there but is no function: its type
// name is pushed (a string), for the caller's error.
#define TL_ENV_CALL_NOT_FUNCTION (-102)
#define TL_LONE_HANDLER (-1)
int tl_env_call(lua_State *L, int objects_ref, void *env, uint32_t slot, int key_ref, lua_Integer handler_id, int previous_ref);
// Runs `fn(L, ud)` in protected mode (for raising APIs such as lua_next on foreign
// tables, luaL_loadbuffer, metamethod-triggering gets). Returns a Lua status.
int tl_cpcall(lua_State *L, lua_CFunction fn, void *ud);
int tl_msghandler(lua_State *L);

// ---- Interrupts (timeouts, Ctrl-C) ----
// Safe from another thread or a signal handler: arms a count hook that raises.
void tl_interrupt(lua_State *L, int reason);
// The same for a coroutine (its own debug hook is not kept).
void tl_interrupt_coroutine(lua_State *L, int reason);
// Clears the hook once the chunk has unwound.
void tl_clear_interrupt(lua_State *L);
// Message used when an interrupt fires ("timed out" / "interrupted").
void tl_set_timeout_message(const char *msg);
// A piece of a warning, as Lua's warning function receives it, with Lua's
// memory error replaced by the pending interrupt's message when the
// interrupt is what ended the finalizer ("error in __gc (timed out ...)").
// `continuing`: the piece continues a warning. Warning functions call it.
const char *tl_warning_piece(lua_State *L, const char *piece, int continuing);

// ---- Interrupt policy ----
// A host that runs trusted Lua code beside code it may stop (`traitlab test`:
// busted's own modules beside spec code) registers what an interrupt spares,
// and the message of a stop (reason 3). With none registered (the
// interpreter), every Lua function is stopped.
typedef struct tl_interrupt_policy {
    // Whether the function `ar` describes (filled with "S") may go on.
    int (*trusts)(const lua_Debug *ar);
    // The message a stop raises.
    const char *(*stop_message)(void);
} tl_interrupt_policy;
void tl_set_interrupt_policy(const tl_interrupt_policy *policy);

// ---- Interruptible coroutines and xpcall (coroutines.c) ----
// coroutine.resume and coroutine.wrap as the Lua manual describes them, also
// keeping the list of coroutines being resumed, which an interrupt reaches
// (a debug hook belongs to one thread).
int tl_coroutine_resume(lua_State *L);
int tl_coroutine_wrap(lua_State *L);
// Sets the interrupt's hook on every coroutine being resumed (the deadline's
// signal handler calls it too).
void tl_interrupt_running(int reason);
// xpcall whose message handler is skipped while an interrupt is pending
// (unless the policy trusts the handler).
int tl_xpcall(lua_State *L);

// ---- Memory cap and descriptors ----
// The allocation cap of a state made with a limit (0 lifts it), and the bytes counted.
void tl_set_limit(lua_State *L, size_t limit);
size_t tl_counted_bytes(lua_State *L);
void tl_clear_over_limit(lua_State *L);
// Duplicates file descriptors (stdout to stderr for machine formats).
int tl_dup(int fd);
int tl_dup2(int from, int to);

// ---- Files sandboxed code reaches only through checks (files.c) ----
// Lua C functions: realpath(path) -> canonical path or nil; file_kind(path)
// -> "file" | "directory" | "link" | "other" | nil (lstat: a link is a link);
// read_regular(path) -> text, or nil and why (never through a link);
// write_regular(path, text) -> true, or nil and why (a link there is replaced);
// make_folder(path) -> true, or nil and why (a link in its place is refused).
int tl_lua_realpath(lua_State *L);
int tl_lua_file_kind(lua_State *L);
int tl_lua_read_regular(lua_State *L);
int tl_lua_write_regular(lua_State *L);
int tl_lua_make_folder(lua_State *L);

// ---- Deadlines (--timeout) ----
// One process-wide deadline on the monotonic clock, kept by a POSIX timer whose
// SIGALRM handler calls tl_interrupt(L, 1). No thread: a second thread would
// make every malloc in the process take a lock (glibc), slowing pure-Lua code
// by 10%. With `grace` > 0, the handler ends the process (exit 1, printing
// `hard_stop_message`) when the deadline passed and `grace` seconds later the
// deadline has not been disarmed. Arming again restarts the count. Returns 0
// when the timer cannot be set up.
int tl_deadline_arm(lua_State *L, double seconds, double grace, const char *hard_stop_message);
// Stops the count; returns whether the deadline passed since it was armed.
int tl_deadline_disarm(void);
// Text the hard stop writes to `fd` after its message, before it ends the
// process with `exit_status` (`traitlab test`'s closing line, which must stay
// last; a worker's status that tells its parent). NULL for no text; the text
// must outlive the deadline.
void tl_deadline_set_epilogue(int fd, const char *text, int exit_status);
int tl_deadline_passed(void);
// Stops the count if it is aimed at L, and forgets L (tl_close calls it as the
// state's memory goes, after its last finalizer ran under the deadline).
void tl_deadline_forget(lua_State *L);

// A process that works for another (a `traitlab test` worker, the process a
// worker forks per group) ends when that one does: the kernel kills it
// (SIGKILL) as its parent exits, however the parent ended (Linux's
// PR_SET_PDEATHSIG). Returns 0, or -1 when `parent` is no longer this
// process's parent (it ended first), or the kernel refused.
int tl_end_with_parent(pid_t parent);

// ---- Table helpers that never raise or trigger metamethods ----
// Looks `key` (string) up on the object at idx: its metatable's fields when the
// metatable is its own __index chain, then each __index table in turn. Pushes the
// value (or nil) and returns its type. Never calls a function.
int tl_rawlookup(lua_State *L, int idx, const char *key);

// ---- Environment objects ----
// An environment is a box of kind TL_KIND_ENVIRONMENT with one user value, its
// field table (nil until something is stored), and its class's shared,
// protected instance metatable. User fields live under any key but "__"
// names, which hold the host's bookkeeping and are never served to scripts.
#define TL_KIND_ENVIRONMENT 1
#define TL_KIND_DEFINITION 2
#define TL_KIND_COLLECTION 4
#define TL_KIND_COLOR 7
// __index for the instance metatable: user fields, then the class chain (raw,
// methods), then the property table; a known property calls Swift with
// (object, key, property id). Checks that its object is an environment.
// A collection is a box of kind TL_KIND_COLLECTION (retaining the Swift
// collection) with the shared, protected collection metatable, whose __index
// is the C function below: methods (raw), then Swift (fnid) with (object,
// key). Made in one allocation; most collections are read once, after an
// update. The user value notes the first read (false); the second promotes
// the object (tl_collection_promote): a cache table of values read, and a
// metatable of its own (a copy of the shared one) whose __index is that
// table, so further reads never leave the VM; a miss reaches the same C
// function through the cache's shared metatable. Tracking objects (whose
// reads must be recorded, `tracking` set) are never promoted: they have two
// user values, caches of the values read (key -> value) and of the
// definitions the keys named (key -> definition box), which the C indexer
// reads first, recording each read through record_read, so a tracked read
// of a trait read before stays in C.
void tl_push_collection_indexer(lua_State *L, int fnid, int methods_index, int tracking);
// Promotes the collection object at `box` (see above); `template_index` is the
// shared metatable, `cache_meta_index` the caches' shared metatable. Leaves
// nothing on the stack.
void tl_collection_promote(lua_State *L, int box, int template_index, int cache_meta_index);
// Keeps the value at `value`, read from the collection object at `box` under
// `key`: the first read only notes itself in the user value, the second
// promotes the object (above), later ones add to its cache. Leaves the
// stack as it was.
void tl_collection_keep(lua_State *L, int box, int key, int value);
// Forgets the values a collection object cached (definitions changed).
void tl_collection_clear_cache(lua_State *L, int box);
// __index of a class's instances: the object's own fields, traitCollection,
// the class's built-in methods (the table at builtins_index), properties
// (Swift's getter), then the class chain from class_index, raw.
void tl_push_env_indexer(lua_State *L, int fnid, int class_index, int props_index, int builtins_index);
// Keeps the built-in methods table at builtins_index in the instance
// metatable at meta_index (for tl_is_builtin).
void tl_set_builtins(lua_State *L, int meta_index, int builtins_index);
// Whether the key at `key` names a built-in method of the object at idx (by its
// metatable's built-ins). Leaves the stack as it was; cannot raise.
int tl_is_builtin(lua_State *L, int idx, int key);
// __newindex: a known property calls Swift's setter with (object, key, value,
// property id); other keys go to the field table (made on first use), except
// reserved "__" names and built-in methods (tl_is_builtin), which are refused.
void tl_push_env_newindexer(lua_State *L, int fnid, int props_index);
// Pushes the field table of the environment at idx (making it when `create`),
// or nil when there is none or idx is no environment. Returns 1 for a table.
// A table made here takes in the environment's lone handler.
int tl_pushfields(lua_State *L, int idx, int create);
// A registration's function kept without a field table: the function at fn
// becomes the environment's user value when it has neither a field table nor
// a lone handler (returns 1; else 0, and nothing changes). The field table
// made later takes it in. Allocates nothing, so it cannot raise.
int tl_env_set_lone_handler(lua_State *L, int idx, int fn);
// Pushes the lone handler of the environment at idx (returns 1), or nil (0).
int tl_env_push_lone_handler(lua_State *L, int idx);
// Drops the lone handler of the environment at idx, wherever it is kept.
void tl_env_drop_lone_handler(lua_State *L, int idx);
// Like tl_rawlookup with the key at stack index `key`.
int tl_rawlookup_at(lua_State *L, int idx, int key);
// luaL_openlibs in protected mode. Returns a Lua status.
int tl_openlibs(lua_State *L);

// Whether a callback's traceback keeps the frames below it (TraitLab's and
// busted's): `traitlab test --verbose`.
void tl_set_full_tracebacks(int on);

// ---- Macro wrappers ----
static inline int tl_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int tl_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void tl_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void tl_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *tl_tostring(lua_State *L, int i, size_t *len) { return lua_tolstring(L, i, len); }
static inline lua_Number tl_tonumber(lua_State *L, int i, int *isnum) { return lua_tonumberx(L, i, isnum); }
static inline lua_Integer tl_tointeger(lua_State *L, int i, int *isnum) { return lua_tointegerx(L, i, isnum); }
static inline int tl_isnoneornil(lua_State *L, int i) { return lua_type(L, i) <= 0; }
static inline void tl_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void tl_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void tl_replace(lua_State *L, int i) { lua_replace(L, i); }
// Bytes the state has allocated (lua_gc is variadic, which Swift cannot call);
// 0 inside a finalizer, where lua_gc refuses to answer.
static inline size_t tl_memory_in_use(lua_State *L) {
    int kb = lua_gc(L, LUA_GCCOUNT), bytes = lua_gc(L, LUA_GCCOUNTB);
    return kb < 0 || bytes < 0 ? 0 : (size_t)kb * 1024 + (size_t)bytes;
}
static inline void *tl_newuserdata(lua_State *L, size_t sz) { return lua_newuserdatauv(L, sz, 1); }
static inline int tl_getuservalue(lua_State *L, int i) { return lua_getiuservalue(L, i, 1); }
static inline int tl_setuservalue(lua_State *L, int i) { return lua_setiuservalue(L, i, 1); }
static inline void tl_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int tl_isinteger(lua_State *L, int i) { return lua_isinteger(L, i); }
static inline void tl_pushlightuserdata(lua_State *L, const void *p) { lua_pushlightuserdata(L, (void *)p); }
static inline int tl_rawgetp(lua_State *L, int i, const void *p) { return lua_rawgetp(L, i, p); }
static inline void tl_rawsetp(lua_State *L, int i, const void *p) { lua_rawsetp(L, i, p); }
static inline int tl_version(void) { return LUA_VERSION_NUM; }
static inline const char *tl_release_string(void) { return LUA_RELEASE; }
static inline const char *tl_copyright(void) { return LUA_COPYRIGHT; }

// Whether `chunk` (bytecode made when TraitLab was built) has the header
// the running Lua writes, so lua_load may take it (bytecode.c).
int tl_bytecode_fits(lua_State *L, const unsigned char *chunk, size_t size);
// Loads bytecode kept as text whose characters are its bytes (each byte
// from 0x80 as two UTF-8 bytes), if its header fits: 1 with the chunk
// pushed, or 0 with nothing pushed.
int tl_load_embedded_bytecode(lua_State *L, const unsigned char *text, size_t length, const char *chunkname);

#endif

// The C side of TraitLab's Lua binding: trampolines, the allocator, boxes, and
// interrupts. Everything that can longjmp stays here; see CLuaShim.h.
#include "CLuaShim.h"
#include "shim_private.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static tl_dispatch_fn tl_dispatch;
static tl_release_fn tl_release;

void tl_set_dispatch(tl_dispatch_fn dispatch, tl_release_fn release) {
    tl_dispatch = dispatch;
    tl_release = release;
}

// ---------------------------------------------------------------------------
// Host record and allocator

tl_host *tl_gethost(lua_State *L) {
    return *(tl_host **)lua_getextraspace(L);
}

// Whether an allocation may fail right now, raising Lua's memory error.
// Always while Lua code is the innermost frame. While Swift runs, only inside a
// finalizer that began after the innermost Swift frame (Lua runs finalizers
// from its allocation paths, under their own protected call, so that call
// catches the error before it reaches Swift). Lua marks a running finalizer by
// refusing lua_gc, which reads a flag and allocates nothing.
static int tl_may_fail(tl_host *h) {
    if (!h->in_swift) return 1;
    return !h->swift_in_finalizer && h->L != NULL && lua_gc(h->L, LUA_GCISRUNNING) < 0;
}

// Small allocations the engine makes while Swift runs must not fail: when the
// system refuses one, a reserve block kept for that moment is given back and
// the allocation tried again; the trampoline then raises "not enough memory"
// once Swift has returned. Without the reserve the process ends.
#define TL_RESERVE_SIZE (4u << 20)
static void *tl_reserve;

__attribute__((noinline)) static void *tl_retry_in_swift(tl_host *h, void *ptr, size_t nsize) {
    if (tl_may_fail(h)) return NULL;
    if (tl_reserve) {
        free(tl_reserve);
        tl_reserve = NULL;
        h->alloc_failed = 1;
        void *p = realloc(ptr, nsize);
        if (p) return p;
    }
    fputs("traitlab: out of memory while the engine was running\n", stderr);
    abort();
}

// Allocations may fail (and Lua then raises "not enough memory") only when
// tl_may_fail says so. Otherwise the cap is noted and the trampoline raises
// after Swift returns. The cap covers Lua's heap and what the engine holds
// (h->engine, measured, and h->engine_charged, asked for since; see
// tl_engine_measure and tl_engine_charge).
static void tl_engine_measure(tl_host *h);

static void *tl_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    tl_host *h = (tl_host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        h->base_alloc(h->base_ud, ptr, osize, 0);
        h->used -= old;
        if (ptr) h->blocks--;
        return NULL;
    }
    int growing = nsize > old;
    // After a refusal, until the next collection that runs finalizers
    // (tl_recover), an eighth of the cap more: the code handling the error
    // can run and reach that point, where dead objects give their engine
    // memory back (Lua's emergency collection runs no finalizers).
    size_t cap = h->limit + (h->refused ? h->limit / 8 : 0);
    if (h->limit && growing && h->used - old + nsize + h->engine + h->engine_charged > cap) {
        if (tl_may_fail(h)) {
            // The engine's figure may be stale (finalizers freed Swift objects
            // since it was measured): measure again before refusing (a
            // refusal raises an error, so this is rare).
            tl_engine_measure(h);
            if (h->used - old + nsize + h->engine <= cap) goto allowed;
            h->refused = 1;
            return NULL;
        }
        h->over_limit = 1;
    }
allowed:;
    void *p = h->base_alloc(h->base_ud, ptr, osize, nsize);
    if (p == NULL && h->in_swift) p = tl_retry_in_swift(h, ptr, nsize);
    if (p == NULL) return NULL;
    h->used = h->used - old + nsize;
    if (growing) h->unprobed += nsize - old;
    if (!ptr) h->blocks++;
    return p;
}

// While Swift runs, a failed allocation goes through tl_retry_in_swift. Not
// inlined, so that tl_uncapped_alloc's calls stay tail calls.
__attribute__((noinline)) static void *tl_realloc_in_swift(tl_host *h, void *ptr, size_t nsize) {
    void *p = realloc(ptr, nsize);
    return p ? p : tl_retry_in_swift(h, ptr, nsize);
}

static void *tl_plain_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud; (void)osize;
    if (nsize == 0) { free(ptr); return NULL; }
    return realloc(ptr, nsize);
}

// The allocator of a state of our own without a cap (no --memory-limit):
// lua.c's l_alloc, with no counting (Lua counts its own bytes, see
// tl_memory_in_use). Pure-Lua code allocates constantly, so the path it takes
// is as short as lua5.4's (docs/performance.md: pure-Lua work within 5% of lua5.4;
// counting as tl_alloc does cost 5% more instructions).
static void *tl_uncapped_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    if (((tl_host *)ud)->in_swift) return tl_realloc_in_swift((tl_host *)ud, ptr, nsize);
    return realloc(ptr, nsize);
}

// Lua's small blocks, for a state of our own without a cap. Lua tells the
// size of every block it frees or resizes (osize), so blocks of up to 512
// bytes live in free lists per 8-byte class (Lua aligns nothing beyond 8
// bytes: LUAI_MAXALIGN is a double, a pointer, a lua_Integer and a long, and
// a box holds two ints and a pointer), carved from 256 KB pages kept
// apart from the engine's objects: no per-block header, a few instructions
// per allocation instead of malloc's, and a tree built from Lua keeps its
// Swift objects next to each other (an update walks them; the Lua objects
// built with them no longer sit in between). The pages are mapped, not
// malloc's: blocks below malloc's mapping threshold (128 KB, raised as mapped
// blocks are freed) come from the heap the engine's objects come from, and
// a tree of 10^5 views built from Lua spread its views over 246 bytes of
// address space each instead of 112 (one Lua page between every few hundred
// views). Pages go back at tl_close.
//
// The engine's allocations cannot fail (Swift stops the process), so Lua's
// must fail first: a page is taken only while TL_POOL_HEADROOM more could
// still be mapped after it (probed with a mapping that reserves no memory, and
// given back at once). Under an address-space limit (ulimit -v) Lua then runs
// out while malloc still has room, as it did when the pages were malloc's own
// (and malloc falls back to mapping 1 MB when the heap cannot grow).
#define TL_POOL_MAX 512
#define TL_POOL_PAGE (256u << 10)
#define TL_POOL_HEADROOM TL_RESERVE_SIZE

// Whether `bytes` and TL_POOL_HEADROOM more could be mapped now.
static int tl_address_room(size_t bytes) {
    size_t want = bytes + TL_POOL_HEADROOM;
    if (want < bytes) return 0;
    void *probe = mmap(NULL, want, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (probe == MAP_FAILED) return 0;
    munmap(probe, want);
    return 1;
}

__attribute__((noinline)) static int tl_pool_page(tl_host *h) {
    void *mapped = mmap(NULL, TL_POOL_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return 0;
    if (!tl_address_room(0)) { munmap(mapped, TL_POOL_PAGE); return 0; }
    h->unprobed = 0;
    char *page = mapped;
    // What is left of the current page goes to its free list.
    size_t rest = (size_t)(h->pool_end - h->pool_next);
    if (rest >= 8) {
        size_t c = rest >> 3;
        if (c > TL_POOL_MAX / 8) c = TL_POOL_MAX / 8;
        *(void **)h->pool_next = h->pool_free[c];
        h->pool_free[c] = h->pool_next;
    }
    *(void **)page = h->pool_pages;   // the first 16 bytes link the pages
    h->pool_pages = page;
    h->pool_next = page + 16;
    h->pool_end = page + TL_POOL_PAGE;
    return 1;
}

static inline void *tl_pool_get(tl_host *h, size_t n) {
    size_t c = (n + 7) >> 3;
    void *p = h->pool_free[c];
    if (p) { h->pool_free[c] = *(void **)p; return p; }
    size_t size = c << 3;
    if ((size_t)(h->pool_end - h->pool_next) < size && !tl_pool_page(h)) return NULL;
    p = h->pool_next;
    h->pool_next += size;
    return p;
}

static inline void tl_pool_put(tl_host *h, void *p, size_t n) {
    size_t c = (n + 7) >> 3;
    *(void **)p = h->pool_free[c];
    h->pool_free[c] = p;
}

static void tl_pool_release(tl_host *h) {
    void *page = h->pool_pages;
    while (page) { void *next = *(void **)page; munmap(page, TL_POOL_PAGE); page = next; }
    h->pool_pages = NULL;
    h->pool_next = h->pool_end = NULL;
    memset(h->pool_free, 0, sizeof h->pool_free);
}

// A block for Swift's side, which must not fail (see tl_retry_in_swift).
__attribute__((noinline)) static void *tl_pool_get_in_swift(tl_host *h, size_t n) {
    return tl_retry_in_swift(h, NULL, n < 16 ? 16 : ((n + 15) & ~(size_t)15));
}

// A block past TL_POOL_MAX, from malloc. Not inlined: the path of the
// small blocks stays as short as it was without this one's counting.
__attribute__((noinline)) static void *tl_pool_large(tl_host *h, void *ptr, size_t osize, size_t nsize) {
    h->unprobed += nsize;   // (see tl_engine_charge)
    if (ptr && osize <= TL_POOL_MAX) {
        void *p = malloc(nsize);
        if (!p && h->in_swift) p = tl_retry_in_swift(h, NULL, nsize);
        if (!p) return NULL;
        memcpy(p, ptr, osize);
        tl_pool_put(h, ptr, osize);
        return p;
    }
    void *p = realloc(ptr, nsize);
    if (!p && h->in_swift) p = tl_retry_in_swift(h, ptr, nsize);
    return p;
}

static void *tl_pool_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    tl_host *h = (tl_host *)ud;
    if (ptr == NULL) osize = 0;   // (then osize tells the kind of object)
    if (nsize == 0) {
        if (ptr == NULL) return NULL;
        if (osize <= TL_POOL_MAX) tl_pool_put(h, ptr, osize);
        else free(ptr);
        return NULL;
    }
    if (nsize <= TL_POOL_MAX) {
        if (ptr && osize <= TL_POOL_MAX && ((osize + 7) >> 3) == ((nsize + 7) >> 3)) return ptr;
        void *p = tl_pool_get(h, nsize);
        if (!p) {
            if (!h->in_swift) return NULL;
            p = tl_pool_get_in_swift(h, nsize);
            if (!p) return NULL;
        }
        if (ptr) {
            memcpy(p, ptr, osize < nsize ? osize : nsize);
            if (osize <= TL_POOL_MAX) tl_pool_put(h, ptr, osize); else free(ptr);
        }
        return p;
    }
    return tl_pool_large(h, ptr, osize, nsize);
}

// Under AddressSanitizer every Lua block stays a malloc block of its own, so
// that the sanitizer sees each one's bounds and lifetime (scripts/test-asan.sh).
#if defined(__SANITIZE_ADDRESS__)
#define TL_UNCAPPED_ALLOC tl_uncapped_alloc
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_UNCAPPED_ALLOC tl_uncapped_alloc
#endif
#endif
#ifndef TL_UNCAPPED_ALLOC
#define TL_UNCAPPED_ALLOC tl_pool_alloc
#endif

static int tl_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "traitlab: unprotected Lua error: %s\n", msg ? msg : "(error object is not a string)");
    return 0;  // lua_atpanic: returning aborts the process
}

// Warnings are off until "@on", as in lua5.4; "@off" turns them off again.
static void tl_warn(void *ud, const char *msg, int tocont) {
    static int continuing = 0, enabled = 0;
    if (!continuing && !tocont && *msg == '@') {
        if (strcmp(msg, "@on") == 0) enabled = 1;
        else if (strcmp(msg, "@off") == 0) enabled = 0;
        return;
    }
    if (ud) msg = tl_warning_piece((lua_State *)ud, msg, continuing);
    if (enabled) {
        if (!continuing) fputs("Lua warning: ", stderr);
        fputs(msg, stderr);
        if (!tocont) fputc('\n', stderr);
    }
    continuing = tocont;
}

// A new host record's id (see tl_host.host_id).
static uint32_t tl_new_host_id(void) {
    static uint32_t last;
    if (++last == 0) last = 1;
    return last;
}

lua_State *tl_newstate(size_t limit) {
    tl_host *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->host_id = tl_new_host_id();
    h->limit = limit;
    h->base_alloc = tl_plain_alloc;
    lua_State *L = lua_newstate(limit ? tl_alloc : TL_UNCAPPED_ALLOC, h);
    if (!L) { free(h); return NULL; }
    // Generational collection, as lua.c sets up its state: scripts see the
    // collector lua5.4 gives them, and allocation-heavy code runs as fast.
    lua_gc(L, LUA_GCGEN, 0, 0);
    *(tl_host **)lua_getextraspace(L) = h;
    h->L = L;
    if (!tl_reserve) tl_reserve = malloc(TL_RESERVE_SIZE);
    lua_atpanic(L, tl_panic);
    lua_setwarnf(L, tl_warn, L);
    return L;
}

tl_host *tl_attach(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (h) return h;
    h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->host_id = tl_new_host_id();
    h->base_alloc = lua_getallocf(L, &h->base_ud);
    lua_setallocf(L, tl_alloc, h);
    *(tl_host **)lua_getextraspace(L) = h;
    h->L = L;
    return h;
}

// Closing runs the remaining finalizers, which a --timeout deadline aimed at
// this state may have to stop; but its signal handler must not touch the state
// once it is freed. The last block lua_close frees is the main one (lstate.c,
// close_state), which starts at the extra space: freeing it forgets the state.
static lua_Alloc tl_closing_base;
static void *tl_closing_block;
static lua_State *tl_closing_state;

static void *tl_closing_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    if (nsize == 0 && ptr != NULL && ptr == tl_closing_block) tl_deadline_forget(tl_closing_state);
    return tl_closing_base(ud, ptr, osize, nsize);
}

static void *tl_interrupting_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

void tl_close(lua_State *L) {
    tl_host *h = tl_gethost(L);
    void *ud;
    // (Under a pending interrupt tl_interrupting_alloc stays on top of the
    // closing allocator; no interrupt may install it half-way through this.)
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);
    lua_Alloc current = lua_getallocf(L, &ud);
    tl_closing_block = lua_getextraspace(L);
    tl_closing_state = L;
    if (current == tl_interrupting_alloc) {
        tl_closing_base = h->interrupted_alloc;
        h->interrupted_alloc = tl_closing_alloc;
    } else {
        tl_closing_base = current;
        lua_setallocf(L, tl_closing_alloc, ud);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    lua_close(L);
    tl_deadline_forget(L);
    tl_closing_block = NULL;
    tl_closing_state = NULL;
    tl_pool_release(h);
    free(h->free_slots);
    free(h);
}

// ---------------------------------------------------------------------------
// What the engine holds (--memory-limit)
//
// Lua's heap is counted exactly by tl_alloc. Memory the engine allocates for a
// script (Swift objects, copied trait values, names, trees, dumps) comes from
// malloc directly, so it is measured: the process's malloc heap minus Lua's
// heap minus what the process held when the state was set up. Measuring walks
// malloc's bins (milliseconds on a fragmented heap), so it happens only when
// what the engine asked for since the last measurement (tl_engine_charge)
// passes an eighth of the cap, every TL_MEASURE_CALLS Swift calls (at most:
// fewer under a small cap), and when over the cap. Until measured, what was
// asked for counts in full (h->engine_charged): the engine asks before it
// allocates, so the cap refuses work before it is done.
#define TL_MEASURE_CALLS 16384u

// Swift calls between two measurements: the engine's small allocations that
// ask for nothing (a view's place in its superview's list) stay within an
// eighth of the cap in between, counting 128 bytes a call.
static inline unsigned tl_measure_calls(const tl_host *h) {
    size_t n = h->limit >> 10;
    return n >= TL_MEASURE_CALLS ? TL_MEASURE_CALLS : n < 64 ? 64u : (unsigned)n;
}

static size_t tl_heap_in_use(void) {
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

// Lua's heap as malloc sees it: each block also costs malloc's header and rounding.
static size_t tl_lua_footprint(tl_host *h) {
    return h->used + h->blocks * 16;
}

static void tl_engine_measure(tl_host *h) {
    size_t total = tl_heap_in_use(), lua = tl_lua_footprint(h);
    h->engine = total > h->engine_base + lua ? total - h->engine_base - lua : 0;
    h->engine_charged = 0;
    h->engine_calls = 0;
}

void tl_engine_baseline(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (!h || !h->limit) return;
    size_t total = tl_heap_in_use(), lua = tl_lua_footprint(h);
    h->engine_base = total > lua ? total - lua : 0;
    h->engine = 0;
}

// Whether Lua's heap, the engine and `more` bytes exceed the cap, after
// measuring and, when allowed (`collect` and not inside a finalizer), after a
// full collection, which also frees the Swift objects of dead boxes.
static int tl_engine_settle(lua_State *L, tl_host *h, size_t more) {
    tl_engine_measure(h);
    if (h->used + h->engine + more <= h->limit) return 0;
    if (lua_gc(L, LUA_GCCOLLECT) < 0) return 1;
    tl_engine_measure(h);
    return h->used + h->engine + more > h->limit;
}

// Address space (ulimit -v): the engine's allocations cannot fail (Swift
// stops the process), so the engine takes memory for a script only while
// that and TL_POOL_HEADROOM more could still be had: mapped (a probe, a
// mapping that reserves nothing, given back at once; about a microsecond),
// or else from what malloc holds free (once the limit was reached, memory
// freed stays in malloc's heap, mapped: the probe alone would refuse
// everything from then on). A probe covers the next TL_PROBE_STEP bytes asked
// for or taken by Lua from malloc (h->unprobed), which leaves the engine's
// small unasked allocations 3 MB in between.
#define TL_PROBE_STEP (1u << 20)

static int tl_engine_room(size_t bytes) {
    if (tl_address_room(bytes)) return 1;
    struct mallinfo2 mi = mallinfo2();
    // (Chunks in fastbins serve only their own small sizes.)
    size_t free_bytes = mi.fordblks > mi.fsmblks ? mi.fordblks - mi.fsmblks : 0;
    return bytes < free_bytes && free_bytes - bytes >= TL_POOL_HEADROOM;
}

// Whether Lua's heap, the engine, what was asked for since it was measured
// and `more` pass the cap by more than `slack`.
static int tl_over_cap(const tl_host *h, size_t more, size_t slack) {
    return h->used + h->engine + h->engine_charged + more > h->limit + slack;
}

int tl_engine_charge(lua_State *L, size_t bytes) {
    tl_host *h = tl_gethost(L);
    if (!h) return TL_CHARGE_OK;
    if (h->unprobed + bytes >= TL_PROBE_STEP) {
        if (!tl_engine_room(bytes)) {
            h->unprobed = TL_PROBE_STEP;   // (probe again next time)
            return TL_CHARGE_NO_MEMORY;
        }
        h->unprobed = 0;
    } else {
        h->unprobed += bytes;
    }
    if (!h->limit) return TL_CHARGE_OK;
    if (h->engine_charged + bytes >= h->limit / 8) tl_engine_measure(h);
    if (tl_over_cap(h, bytes, 0)) {
        // What was asked for before may be freed by now: measure before refusing.
        if (h->engine_charged) tl_engine_measure(h);
        if (tl_over_cap(h, bytes, 0)) {
            // Dead objects still holding engine memory go only at a collection
            // that runs finalizers, which cannot free it while Swift runs:
            // an eighth of the cap more is let through, and the trampoline
            // collects once Swift returned, raising if that was not enough
            // (tl_after_swift). Past that the work is refused and, as after a
            // refused allocation, the code handling the error gets an eighth
            // more until such a collection (tl_recover).
            if (tl_over_cap(h, bytes, h->limit / 8)) {
                h->refused = 1;
                return TL_CHARGE_OVER_CAP;
            }
            h->over_limit = 1;
        }
    }
    h->engine_charged += bytes;
    return TL_CHARGE_OK;
}

int tl_lua_room(lua_State *L, size_t bytes) {
    tl_host *h = tl_gethost(L);
    if (!h || tl_engine_room(bytes)) return 1;
    h->alloc_failed = 1;
    return 0;
}

size_t tl_engine_bytes(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (!h || !h->limit) return 0;
    tl_engine_measure(h);
    return h->engine;
}

// ---------------------------------------------------------------------------
// Trampolines: the only way Lua enters Swift.

static int tl_raise_status(lua_State *L, int n);
static int tl_after_swift(lua_State *L, tl_host *h, int n);

// What a call into Swift saves of the host's flags.
typedef struct tl_swift_frame { int in_swift, in_finalizer; } tl_swift_frame;

static inline tl_swift_frame tl_enter_swift(lua_State *L, tl_host *h) {
    if (h->refused && !h->in_swift) tl_recover(L);
    tl_swift_frame f = { h->in_swift, h->swift_in_finalizer };
    h->in_swift = 1;
    h->swift_in_finalizer = lua_gc(L, LUA_GCISRUNNING) < 0;
    h->swift_frames++;
    return f;
}

static inline void tl_leave_swift(tl_host *h, tl_swift_frame f) {
    h->swift_frames--;
    h->in_swift = f.in_swift;
    h->swift_in_finalizer = f.in_finalizer;
}

// Raised before Swift runs when the address space is nearly used up (see
// tl_engine_charge): Swift's own allocations would stop the process.
__attribute__((noinline)) static void tl_check_engine_room(lua_State *L, tl_host *h) {
    if (tl_engine_room(0)) { h->unprobed = 0; return; }
    lua_pushliteral(L, "not enough memory");
    lua_error(L);
}

static int tl_call_swift(lua_State *L, int fnid) {
    tl_host *h = tl_gethost(L);
    if (h->unprobed >= TL_PROBE_STEP) tl_check_engine_room(L, h);
    tl_swift_frame f = tl_enter_swift(L, h);
    int n = tl_dispatch(L, fnid);
    tl_leave_swift(h, f);
    return tl_after_swift(L, h, n);
}

// After Swift returned n (a result count or a TL_RAISE status): raises what
// Swift could not (its error, memory refused while it ran), else passes n on.
static int tl_after_swift(lua_State *L, tl_host *h, int n) {
    if (h->in_swift) return tl_raise_status(L, n);
    if (h->alloc_failed) {
        h->alloc_failed = 0;
        if (!tl_reserve) tl_reserve = malloc(TL_RESERVE_SIZE);
        lua_pushliteral(L, "not enough memory");
        return lua_error(L);
    }
    if (h->limit) {
        if (h->engine_charged >= h->limit / 8 || ++h->engine_calls >= tl_measure_calls(h)) tl_engine_measure(h);
        if (h->over_limit || tl_over_cap(h, 0, 0)) {
            h->over_limit = 0;
            if (tl_engine_settle(L, h, 0)) {
                lua_pushliteral(L, "not enough memory (memory limit exceeded)");
                return lua_error(L);
            }
        }
    }
    return tl_raise_status(L, n);
}

// Raises the error a Swift function returned as its status, or passes its
// result count on.
static int tl_raise_status(lua_State *L, int n) {
    if (n == TL_RAISE_WHERE) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (n == TL_RAISE_VALUE) return lua_error(L);
    return n;
}

static int tl_trampoline(lua_State *L) {
    return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void tl_pushfunction(lua_State *L, int fnid) {
    lua_pushinteger(L, fnid);
    lua_pushcclosure(L, tl_trampoline, 1);
}

static int tl_indexer(lua_State *L) {
    lua_settop(L, 2);
    if (lua_type(L, lua_upvalueindex(2)) != LUA_TTABLE) return luaL_error(L, "corrupt indexer");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TFUNCTION) return 1;
    return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void tl_pushindexer(lua_State *L, int fnid, int table_index) {
    table_index = lua_absindex(L, table_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, table_index);
    lua_pushcclosure(L, tl_indexer, 2);
}

// ---------------------------------------------------------------------------
// Boxes

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

void *tl_newbox(lua_State *L, void *payload, int kind, int nuservalues) {
    tl_box *b = lua_newuserdatauv(L, sizeof *b, nuservalues);
    b->magic = TL_BOX_MAGIC;
    b->payload = payload;
    b->kind = (uint16_t)kind;
    b->slot = 0;
    return b;
}

// tl_checkedbox for a value known to be a full userdata (a lookup said so).
static inline tl_box *tl_checkeduserdata(lua_State *L, int idx) {
    if (lua_rawlen(L, idx) != sizeof(tl_box)) return NULL;
    tl_box *b = lua_touserdata(L, idx);
    return b->magic == TL_BOX_MAGIC ? b : NULL;
}

static tl_box *tl_checkedbox(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TUSERDATA) return NULL;
    return tl_checkeduserdata(L, idx);
}

// tl_tobox for a value known to be a full userdata (a lookup said so).
static inline void *tl_userdatabox(lua_State *L, int idx, int *kind) {
    tl_box *b = tl_checkeduserdata(L, idx);
    if (!b || !b->payload) return NULL;
    if (kind) *kind = b->kind;
    return b->payload;
}

void *tl_tobox(lua_State *L, int idx, int *kind) {
    return lua_type(L, idx) == LUA_TUSERDATA ? tl_userdatabox(L, idx, kind) : NULL;
}

int tl_isdeadbox(lua_State *L, int idx) {
    tl_box *b = tl_checkedbox(L, idx);
    return b && !b->payload;
}

void tl_setbox(lua_State *L, int idx, void *payload) {
    tl_box *b = tl_checkedbox(L, idx);
    if (b) {
        b->payload = payload;
        if (!payload) b->slot = 0;   // released: its slot is no longer its own
    }
}

// A free slot (never 0).
static uint32_t tl_env_slot_new(tl_host *h) {
    if (h->free_count > 0) return h->free_slots[--h->free_count];
    // More than four billion live objects would take 300 GB: slots are
    // reused long before (0, never handed out, means "no slot").
    if (h->high_slot == UINT32_MAX) h->high_slot = 0;
    return ++h->high_slot;
}

// tl_env_adopt for box b at u (t and u absolute).
static uint32_t tl_slot_adopt(lua_State *L, tl_host *h, int t, int u, tl_box *b) {
    b->slot = tl_env_slot_new(h);
    lua_pushvalue(L, u);
    lua_rawseti(L, t, b->slot);
    return b->slot;
}

uint32_t tl_env_adopt(lua_State *L, int t, int u) {
    t = lua_absindex(L, t);
    u = lua_absindex(L, u);
    tl_box *b = tl_checkedbox(L, u);
    return b ? tl_slot_adopt(L, tl_gethost(L), t, u, b) : 0;
}

// Pushes the object at `slot` of the table at t and returns 1 when it is a
// box of `kind` for `payload` that owns that slot; else pushes nothing, 0.
static int tl_slot_box(lua_State *L, int t, void *payload, int kind, uint32_t slot) {
    if (slot == 0 || lua_rawgeti(L, t, slot) != LUA_TUSERDATA) { if (slot) lua_pop(L, 1); return 0; }
    tl_box *b = tl_checkeduserdata(L, -1);
    if (b && b->payload == payload && b->kind == kind && b->slot == slot) return 1;
    lua_pop(L, 1);
    return 0;
}

int tl_env_object(lua_State *L, int t, void *env, uint32_t slot) {
    return tl_slot_box(L, t, env, TL_KIND_ENVIRONMENT, slot);
}

// From a finalizer: the slot goes back to the free list (Lua removed the
// object from the table, weak values, before finalizing it). When the list
// cannot grow the number is not reused, which costs nothing but the number.
static void tl_env_slot_free(tl_host *h, uint32_t slot) {
    if (h->free_count == h->free_capacity) {
        if (h->free_capacity > UINT32_MAX / 2) return;
        uint32_t capacity = h->free_capacity ? h->free_capacity * 2 : 256;
        uint32_t *list = realloc(h->free_slots, (size_t)capacity * sizeof *list);
        if (!list) return;
        h->free_slots = list;
        h->free_capacity = capacity;
    }
    h->free_slots[h->free_count++] = slot;
}

int tl_box_gc(lua_State *L) {
    tl_box *b = tl_checkedbox(L, 1);
    if (!b || !b->payload) return 0;
    void *payload = b->payload;
    uint32_t slot = b->slot;
    b->payload = NULL;
    b->slot = 0;
    tl_host *h = tl_gethost(L);
    int saved = h->in_swift, saved_fin = h->swift_in_finalizer;
    h->in_swift = 1;
    h->swift_in_finalizer = 1;   // a finalizer: its allocations must not fail either
    if (slot && h) tl_env_slot_free(h, slot);
    tl_release(payload, h->swift_frames > 0);
    h->in_swift = saved;
    h->swift_in_finalizer = saved_fin;
    return 0;
}

void tl_pushboxgc(lua_State *L) {
    lua_pushcfunction(L, tl_box_gc);
}

// ---------------------------------------------------------------------------
// Protected calls

// lua.c's msghandler up to its traceback: the text of the error value at 1 (a
// string or number as it is, else its __tostring, else "(error object is a X
// value)"), left on top; *described tells a __tostring's text, which lua.c
// gives without a traceback.
static const char *tl_error_value_text(lua_State *L, int *described) {
    *described = 0;
    const char *msg = lua_tostring(L, 1);
    if (msg != NULL) return msg;
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
        *described = 1;
        return lua_tostring(L, -1);
    }
    return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
}

int tl_msghandler(lua_State *L) {
    int described;
    const char *msg = tl_error_value_text(L, &described);
    if (described) return 1;
    // Memory refused while Swift ran is raised after it returned, as the
    // same message Lua's own memory error has; that one gets no traceback.
    if (strcmp(msg, "not enough memory") == 0 || strcmp(msg, "not enough memory (memory limit exceeded)") == 0) return 1;
    // An error from a callback carries the traceback of the callback's own
    // frames (tl_callback_msghandler): the frames of the code that called
    // ui.update() follow it, under the same header.
    if (strstr(msg, "\nstack traceback:\n") != NULL) {
        luaL_traceback(L, L, NULL, 1);
        const char *frames = strchr(lua_tostring(L, -1), '\n');
        lua_pushstring(L, msg);
        lua_pushstring(L, frames ? frames : "");
        lua_concat(L, 2);
        return 1;
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

// `traitlab test --verbose`: tracebacks keep the frames of TraitLab and
// busted (one host a process, so a process-wide flag).
static int tl_full_tracebacks = 0;
void tl_set_full_tracebacks(int on) { tl_full_tracebacks = on; }

static int tl_trampoline(lua_State *L);
static int tl_indexer(lua_State *L);
static int tl_env_index(lua_State *L);
static int tl_env_newindex(lua_State *L);
static int tl_collection_index(lua_State *L);

// The level of the innermost frame that is TraitLab's way into Swift (a
// library function, an environment's index or newindex): the callback's
// frames are the levels above it. 0 when there is none within the levels a
// traceback lists in full (luaL_traceback shows 21 and skips the rest: the
// traceback is then kept whole). lua_getstack walks from the top, so a
// search of a deep stack (a stack overflow) would be quadratic.
static int tl_host_boundary_level(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; level <= 22 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "f", &ar)) continue;
        lua_CFunction f = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (f == tl_trampoline || f == tl_indexer || f == tl_env_index || f == tl_env_newindex
            || f == tl_collection_index) return level;
    }
    return 0;
}

// luaL_traceback of the callback's frames only: the traceback on top is cut
// before the line of level `boundary` (levels are its lines after the
// header, but for "(...tail calls...)" lines; a traceback that skipped
// levels is kept whole).
static void tl_cut_traceback(lua_State *L, int boundary) {
    const char *text = lua_tostring(L, -1);
    const char *header = strstr(text, "\nstack traceback:");
    if (!header || boundary <= 0) return;
    const char *line = strchr(header + 1, '\n');
    int level = 0;
    while (line) {
        const char *body = line + 1;
        if (strncmp(body, "\t...\t(skipping", 15) == 0) return;
        if (strncmp(body, "\t(...tail calls...)", 20) != 0 && ++level == boundary) {
            lua_pushlstring(L, text, (size_t)(line - text));
            lua_replace(L, -2);
            return;
        }
        line = strchr(body, '\n');
    }
}

void tl_recover(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (!h || !h->limit || !h->refused) return;
    h->refused = 0;
    if (lua_gc(L, LUA_GCCOLLECT) >= 0) tl_engine_measure(h);
}

// The message handler for Lua code Swift calls on a script's behalf
// (callbacks, handlers, mutation functions): a message gets its traceback
// (tl_msghandler); any other error value (a table such as a luassert
// failure, a number, an object with __tostring) is kept as it is, so the
// code that called ui.update() gets the very value raised, as pcall would.
static int tl_callback_msghandler(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING) return 1;
    const char *msg = lua_tostring(L, 1);
    if (strstr(msg, "\nstack traceback:\n") != NULL) return 1;   // from a callback within this one
    luaL_traceback(L, L, msg, 1);
    if (!tl_full_tracebacks) tl_cut_traceback(L, tl_host_boundary_level(L));
    return 1;
}

static int tl_pcall_with(lua_State *L, int nargs, int nresults, lua_CFunction handler) {
    tl_recover(L);
    tl_host *h = tl_gethost(L);
    int base = 0;   // (no message handler)
    if (handler) {
        base = lua_gettop(L) - nargs;
        lua_pushcfunction(L, handler);
        lua_insert(L, base);
    }
    int saved = h->in_swift;
    h->in_swift = 0;
    int status = lua_pcall(L, nargs, nresults, base);
    h->in_swift = saved;
    if (handler) lua_remove(L, base);
    return status;
}

// What lua.c's msghandler makes of an error value, without the traceback:
// the string, its __tostring, or "(error object is a X value)".
static int tl_error_text_body(lua_State *L) {
    int described;
    tl_error_value_text(L, &described);
    return 1;
}

int tl_error_text(lua_State *L) {
    lua_pushcfunction(L, tl_error_text_body);
    lua_insert(L, -2);
    return tl_pcall_with(L, 1, 1, NULL);
}

static int tl_index_body(lua_State *L) {
    lua_gettable(L, 1);
    return 1;
}

int tl_pindex(lua_State *L, int obj) {
    obj = lua_absindex(L, obj);
    lua_pushcfunction(L, tl_index_body);
    lua_pushvalue(L, obj);
    lua_pushvalue(L, -3);
    int status = tl_pcall_with(L, 2, 1, tl_callback_msghandler);
    lua_remove(L, -2);
    return status;
}

int tl_pcall(lua_State *L, int nargs, int nresults) {
    return tl_pcall_with(L, nargs, nresults, tl_msghandler);
}

int tl_pcall_callback(lua_State *L, int nargs, int nresults) {
    return tl_pcall_with(L, nargs, nresults, tl_callback_msghandler);
}

// Pushes one of the keys the lookups use: from its registry reference when
// the host made one, else from the literal.
static inline void tl_push_key(lua_State *L, int ref, const char *literal) {
    if (ref > 0) {
        if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TSTRING) return;
        lua_pop(L, 1);
    }
    lua_pushstring(L, literal);
}

// Lua's lookup rule without calling a function, from the value on top
// (replaced by the result): a raw get while it is a table, then its
// metatable's __index while that is a table, at most 64 links. `key` is
// absolute. Returns the type of what it left.
__attribute__((always_inline)) static inline int tl_chain_lookup(lua_State *L, int key) {
    int link = lua_gettop(L);
    tl_host *h = tl_gethost(L);
    int index_ref = h ? h->index_key_ref : 0;
    for (int depth = 0; depth < 64; depth++) {
        if (lua_type(L, link) == LUA_TTABLE) {
            lua_pushvalue(L, key);
            int t = lua_rawget(L, link);
            if (t != LUA_TNIL) { lua_copy(L, -1, link); lua_settop(L, link); return t; }
            lua_pop(L, 1);
        }
        if (!lua_getmetatable(L, link)) break;
        tl_push_key(L, index_ref, "__index");
        lua_rawget(L, -2);
        lua_copy(L, -1, link);
        lua_settop(L, link);
        if (lua_type(L, link) != LUA_TTABLE) break;
    }
    lua_pushnil(L);
    lua_copy(L, -1, link);
    lua_settop(L, link);
    return LUA_TNIL;
}

// tl_rawlookup_at for an environment object known to be one (at `u`) and a
// key that is no "__" name (at `key`): its own field, then its class chain.
// Pushes the value (or nil) and returns its type.
static int tl_env_lookup(lua_State *L, int u, int key) {   // (u and key absolute)
    if (lua_getiuservalue(L, u, 1) == LUA_TTABLE) {
        lua_pushvalue(L, key);
        int t = lua_rawget(L, -2);
        if (t != LUA_TNIL) { lua_copy(L, -1, -2); lua_pop(L, 1); return t; }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (!lua_getmetatable(L, u)) { lua_pushnil(L); return LUA_TNIL; }
    tl_host *h = tl_gethost(L);
    tl_push_key(L, h ? h->metatable_key_ref : 0, "__metatable");
    int t = lua_rawget(L, -2);     // the class table, in the metatable's place
    lua_copy(L, -1, -2);
    lua_pop(L, 1);
    if (t != LUA_TTABLE) { lua_pop(L, 1); lua_pushnil(L); return LUA_TNIL; }
    return tl_chain_lookup(L, key);
}

// An environment's lone handler: a registration's function kept as the
// box's user value itself while the environment has no field table (most
// registered views: no table for one function). The table made for the
// first field takes it in, under a key no script can make.
static char tl_lone_handler_key;

static int tl_is_environment(lua_State *L, int idx);

// Pushes the field table of the environment box at idx, making it (and
// moving a lone handler into it) when there is none.
static void tl_env_make_fields(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int t = lua_getiuservalue(L, idx, 1);
    if (t == LUA_TTABLE) return;
    lua_createtable(L, 0, 1);
    if (t == LUA_TFUNCTION) {
        lua_pushvalue(L, -2);
        lua_rawsetp(L, -2, &tl_lone_handler_key);
    }
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, idx, 1);
}

int tl_env_set_lone_handler(lua_State *L, int idx, int fn) {
    idx = lua_absindex(L, idx);
    fn = lua_absindex(L, fn);
    if (!tl_is_environment(L, idx) || lua_type(L, fn) != LUA_TFUNCTION) return 0;
    int t = lua_getiuservalue(L, idx, 1);
    lua_pop(L, 1);
    if (t != LUA_TNIL) return 0;
    lua_pushvalue(L, fn);
    lua_setiuservalue(L, idx, 1);
    return 1;
}

// tl_env_push_lone_handler for a box known to be an environment's.
static int tl_env_push_lone_handler_of(lua_State *L, int idx) {
    int t = lua_getiuservalue(L, idx, 1);
    if (t == LUA_TFUNCTION) return 1;
    if (t == LUA_TTABLE && lua_rawgetp(L, -1, &tl_lone_handler_key) == LUA_TFUNCTION) {
        lua_remove(L, -2);
        return 1;
    }
    lua_settop(L, lua_gettop(L) - (t == LUA_TTABLE ? 2 : 1));
    lua_pushnil(L);
    return 0;
}

int tl_env_push_lone_handler(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (!tl_is_environment(L, idx)) { lua_pushnil(L); return 0; }
    return tl_env_push_lone_handler_of(L, idx);
}

void tl_env_drop_lone_handler(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (!tl_is_environment(L, idx)) return;
    int t = lua_getiuservalue(L, idx, 1);
    if (t == LUA_TFUNCTION) {
        lua_pushnil(L);
        lua_setiuservalue(L, idx, 1);
    } else if (t == LUA_TTABLE) {
        lua_pushnil(L);
        lua_rawsetp(L, -2, &tl_lone_handler_key);   // (nil: never a new key, no allocation)
    }
    lua_pop(L, 1);
}

int tl_env_call(lua_State *L, int objects_ref, void *env, uint32_t slot, int key_ref, lua_Integer handler_id, int previous_ref) {
    if (!lua_checkstack(L, 10)) return TL_ENV_CALL_SLOW;
    int top = lua_gettop(L);
    int handler = top + 1, u = top + 3;
    // [handler, objects, u, ... fn]: what the lookups leave stays below the
    // function until the call returns (fewer stack moves than tidying up).
    lua_pushcfunction(L, tl_callback_msghandler);
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, objects_ref) != LUA_TTABLE || !tl_env_object(L, -1, env, slot)) {
        lua_settop(L, top);
        return TL_ENV_CALL_SLOW;   // no object yet: Swift makes it
    }
    int status = TL_ENV_CALL_NONE;
    if (handler_id == TL_LONE_HANDLER) {
        // (u is the environment's box: tl_env_object checked it.)
        if (tl_env_push_lone_handler_of(L, u)) status = LUA_OK;
    } else if (handler_id > 0) {
        // A function at fields[light userdata id]; else a target-action
        // entry at fields.__handlers[id] (Swift's path), or nothing.
        if (lua_getiuservalue(L, u, 1) == LUA_TTABLE) {
            int fields = lua_gettop(L);
            if (lua_rawgetp(L, fields, (void *)(intptr_t)handler_id) == LUA_TFUNCTION) {
                status = LUA_OK;
            } else if (lua_rawgeti(L, LUA_REGISTRYINDEX, key_ref) == LUA_TSTRING
                       && lua_rawget(L, fields) == LUA_TTABLE) {
                status = lua_rawgeti(L, -1, handler_id) == LUA_TNIL ? TL_ENV_CALL_NONE : TL_ENV_CALL_SLOW;
            }
        }
    } else {
        lua_rawgeti(L, LUA_REGISTRYINDEX, key_ref);
        int t = tl_env_lookup(L, u, lua_gettop(L));
        if (t == LUA_TFUNCTION) status = LUA_OK;
        else if (t != LUA_TNIL) {
            // A callback field that is no function (a class field replaced raw):
            // the caller says so, with the type pushed here.
            const char *type = lua_typename(L, t);
            lua_settop(L, top);
            lua_pushstring(L, type);
            return TL_ENV_CALL_NOT_FUNCTION;
        }
    }
    if (status != LUA_OK) { lua_settop(L, top); return status; }
    lua_pushvalue(L, u);
    int nargs = 1;
    if (previous_ref != LUA_NOREF) { lua_rawgeti(L, LUA_REGISTRYINDEX, previous_ref); nargs = 2; }
    tl_recover(L);
    tl_host *h = tl_gethost(L);
    int saved = h->in_swift;
    h->in_swift = 0;
    status = lua_pcall(L, nargs, 0, handler);
    h->in_swift = saved;
    if (status == LUA_OK) { lua_settop(L, top); return LUA_OK; }
    lua_copy(L, -1, top + 1);      // the message, with its traceback
    lua_settop(L, top + 1);
    return status;
}

int tl_cpcall(lua_State *L, lua_CFunction fn, void *ud) {
    tl_host *h = tl_gethost(L);
    int saved = h->in_swift;
    h->in_swift = 0;
    lua_pushcfunction(L, fn);
    lua_pushlightuserdata(L, ud);
    int status = lua_pcall(L, 1, LUA_MULTRET, 0);
    h->in_swift = saved;
    return status;
}

// ---------------------------------------------------------------------------
// Interrupts: a count hook armed only when needed, so normal runs pay nothing.

static const char *tl_timeout_message = "timed out";

void tl_set_timeout_message(const char *msg) {
    tl_timeout_message = msg;
}

static void tl_restore_hook(lua_State *L);

// The interrupt policy a host registered (`traitlab test`: busted's code goes
// on, a stop has its own message), or NULL.
static const tl_interrupt_policy *tl_policy;

void tl_set_interrupt_policy(const tl_interrupt_policy *policy) { tl_policy = policy; }

int tl_interrupt_trusts(lua_State *L, const lua_Debug *ar) {
    (void)L;
    return tl_policy != NULL && tl_policy->trusts != NULL && tl_policy->trusts(ar);
}

// What the interrupt raises.
static const char *tl_interrupt_text(int reason) {
    if (reason == 3) return tl_policy && tl_policy->stop_message ? tl_policy->stop_message() : "stopped";
    return reason == 1 ? tl_timeout_message : "interrupted!";
}

// ---------------------------------------------------------------------------
// Finalizers under an interrupt
//
// Lua runs a `__gc` metamethod with debug hooks off on the thread that
// collected (Lua 5.4.4, lgc.c, GCTM: "stop debug hooks during GC
// metamethod"), so the interrupt's count hook never fires inside one, and a
// script must see its finalizers as lua5.4 runs them: its own function in the
// metatable, run on that thread, named "__gc" by debug.getinfo (ldebug.c,
// funcnamefromcall: CIST_FIN). What a finalizer still does is allocate, and
// the allocator is ours. While an interrupt is pending the state's allocator
// is this one, which refuses every growing allocation made while a finalizer
// runs, exactly then: GCTM stops the collector with GCSTPGC around the call,
// and lua_gc answers -1 while that bit is set (lapi.c, "internal stop?").
// Lua raises its memory error, GCTM's protected call catches it, and the
// finalizer ends as one that failed (the warning "error in __gc (...)", with
// the interrupt's message: tl_warning_piece); the code around it then meets
// the hook. Swift frames are never refused (tl_may_fail).
//
// tl_interrupt installs it (also from a signal handler: lua_setallocf writes
// the global state's function pointer; the user data, the host record, stays
// the same), and on its first call after the interrupt is cleared it puts the
// state's own allocator back: a run without an interrupt pays nothing.
//
// A finalizer that loops without allocating cannot be reached (Lua makes no
// call out of a running finalizer but to the allocator and to hooks); the
// watchdog's grace period ends the process then (Watchdog.swift).

static void *tl_interrupting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    tl_host *h = (tl_host *)ud;
    lua_Alloc base = h->interrupted_alloc;
    if (!h->interrupt) {
        // Cleared: the state's allocator again, and this one back at once if
        // an interrupt came in between.
        lua_setallocf(h->L, base, ud);
        if (h->interrupt) lua_setallocf(h->L, tl_interrupting_alloc, ud);
    } else if (nsize > (ptr ? osize : 0) && tl_may_fail(h) && lua_gc(h->L, LUA_GCISRUNNING) < 0) {
        h->finalizer_refused = 1;
        return NULL;
    }
    return base(ud, ptr, osize, nsize);
}

// Signal-safe: reads and writes two pointers.
static void tl_interrupt_finalizers(lua_State *L, tl_host *h) {
    void *ud;
    lua_Alloc current = lua_getallocf(L, &ud);
    if (current != tl_interrupting_alloc && ud == h && h->L) {
        h->interrupted_alloc = current;
        lua_setallocf(L, tl_interrupting_alloc, ud);
    }
}

const char *tl_warning_piece(lua_State *L, const char *piece, int continuing) {
    tl_host *h = L ? tl_gethost(L) : NULL;
    if (h && continuing && h->finalizer_refused && h->interrupt && strcmp(piece, "not enough memory") == 0) {
        h->finalizer_refused = 0;
        return tl_interrupt_text(h->interrupt);
    }
    return piece;
}

static void tl_interrupt_hook(lua_State *L, lua_Debug *ar) {
    tl_host *h = tl_gethost(L);
    int reason = h ? h->interrupt : 0;
    if (reason == 0) { tl_restore_hook(L); return; }
    // Under `traitlab test` busted's own code is never interrupted (it must
    // go on to report the test): only Lua functions from other sources raise.
    if (tl_policy != NULL && lua_getinfo(L, "S", ar) && tl_interrupt_trusts(L, ar)) return;
    if (reason == 2) {
        // Ctrl-C, as lua.c's lstop: one error, which a pcall may catch.
        h->interrupt = 0;
        tl_restore_hook(L);
        luaL_error(L, "interrupted!");
    }
    // Stays armed: a pcall in the script cannot swallow it for good.
    luaL_error(L, "%s", tl_interrupt_text(reason));
}

void tl_interrupt(lua_State *L, int reason) {
    tl_host *h = tl_gethost(L);
    if (h) {
        h->interrupt = reason;
        // A hook the program set (luacov's, say) comes back once the
        // interrupt is cleared, as lua.c's laction leaves it.
        lua_Hook current = lua_gethook(L);
        if (current != tl_interrupt_hook) {
            h->saved_hook_thread = current ? L : NULL;
            h->saved_hook = current;
            h->saved_hook_mask = lua_gethookmask(L);
            h->saved_hook_count = lua_gethookcount(L);
        }
        tl_interrupt_finalizers(L, h);
    }
    lua_sethook(L, tl_interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

// tl_interrupt for a coroutine: its own hook is not saved (one saved hook,
// the main thread's, per state); it has none once the interrupt is cleared.
void tl_interrupt_coroutine(lua_State *L, int reason) {
    tl_host *h = tl_gethost(L);
    if (h) {
        h->interrupt = reason;
        tl_interrupt_finalizers(L, h);
    }
    lua_sethook(L, tl_interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

// Puts back the hook tl_interrupt replaced on this thread, or none.
static void tl_restore_hook(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (lua_gethook(L) != tl_interrupt_hook) return;
    if (h && h->saved_hook_thread == L && h->saved_hook) {
        lua_sethook(L, h->saved_hook, h->saved_hook_mask, h->saved_hook_count);
    } else {
        lua_sethook(L, NULL, 0, 0);
    }
}

void tl_clear_interrupt(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (h) h->interrupt = 0;
    tl_restore_hook(L);
}

// The cap of a state made with a limit (0 lifts it), and what it counted.
void tl_set_limit(lua_State *L, size_t limit) {
    tl_host *h = tl_gethost(L);
    if (h) h->limit = limit;
}

size_t tl_counted_bytes(lua_State *L) {
    tl_host *h = tl_gethost(L);
    return h ? h->used : 0;
}

void tl_clear_over_limit(lua_State *L) {
    tl_host *h = tl_gethost(L);
    if (h) h->over_limit = 0;
}

int tl_dup(int fd) { return dup(fd); }
int tl_dup2(int from, int to) { return dup2(from, to); }

// ---------------------------------------------------------------------------
// Deadlines: a POSIX timer and its SIGALRM handler. The handler only calls
// what is safe there: tl_interrupt (lua_sethook), timer_settime, write, _exit.

static timer_t tl_deadline_timer;
static int tl_deadline_ready;
static lua_State *volatile tl_deadline_target;
static volatile sig_atomic_t tl_deadline_fired;
static double tl_deadline_grace;
static const char *tl_deadline_hard_stop;
static const char *volatile tl_deadline_epilogue;
static volatile int tl_deadline_epilogue_fd = -1;
static volatile int tl_deadline_exit_status = 1;

void tl_deadline_set_epilogue(int fd, const char *text, int exit_status) {
    tl_deadline_epilogue = NULL;
    tl_deadline_epilogue_fd = fd;
    tl_deadline_exit_status = exit_status;
    tl_deadline_epilogue = text;
}

static void tl_deadline_set(double seconds) {
    struct itimerspec t;
    memset(&t, 0, sizeof t);
    if (seconds > 0) {
        if (seconds > 1e9) seconds = 1e9;   // 31 years: as good as never, and fits time_t
        t.it_value.tv_sec = (time_t)seconds;
        t.it_value.tv_nsec = (long)((seconds - (double)t.it_value.tv_sec) * 1e9);
        if (t.it_value.tv_sec == 0 && t.it_value.tv_nsec == 0) t.it_value.tv_nsec = 1;
    }
    timer_settime(tl_deadline_timer, 0, &t, NULL);
}

static void tl_deadline_expired(int sig) {
    (void)sig;
    int saved = errno;
    if (tl_deadline_fired) {
        // The grace period passed too: the code is where no hook runs.
        const char *msg = tl_deadline_hard_stop;
        if (msg) { ssize_t n = write(2, msg, strlen(msg)); (void)n; }
        const char *last = tl_deadline_epilogue;
        if (last) { ssize_t n = write(tl_deadline_epilogue_fd, last, strlen(last)); (void)n; }
        _exit(tl_deadline_exit_status);
    }
    tl_deadline_fired = 1;
    lua_State *L = tl_deadline_target;
    if (L) tl_interrupt(L, 1);
    tl_interrupt_running(1);
    if (tl_deadline_grace > 0) tl_deadline_set(tl_deadline_grace);
    errno = saved;
}

int tl_deadline_arm(lua_State *L, double seconds, double grace, const char *hard_stop_message) {
    if (!tl_deadline_ready) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = tl_deadline_expired;
        sa.sa_flags = SA_RESTART;   // a blocking read goes on; the hook fires after it
        sigemptyset(&sa.sa_mask);
        if (timer_create(CLOCK_MONOTONIC, NULL, &tl_deadline_timer) != 0) return 0;
        if (sigaction(SIGALRM, &sa, NULL) != 0) { timer_delete(tl_deadline_timer); return 0; }
        tl_deadline_ready = 1;
    }
    tl_deadline_set(0);   // no signal while the target changes
    tl_deadline_target = L;
    tl_deadline_grace = grace;
    tl_deadline_hard_stop = hard_stop_message;
    tl_deadline_fired = 0;
    tl_deadline_set(seconds);
    return 1;
}

void tl_deadline_forget(lua_State *L) {
    if (tl_deadline_ready && tl_deadline_target == L) {
        tl_deadline_set(0);
        tl_deadline_target = NULL;
    }
}

int tl_deadline_disarm(void) {
    if (tl_deadline_ready) tl_deadline_set(0);
    return tl_deadline_fired;
}

int tl_deadline_passed(void) {
    return tl_deadline_fired;
}

// ---------------------------------------------------------------------------
// Raw method lookup along a metatable/__index chain.

// "__" names belong to the host: an environment's field table keeps its
// bookkeeping under them, and no lookup on behalf of a script returns one.
static inline int tl_is_reserved_text(const char *k) {
    return k && k[0] == '_' && k[1] == '_';
}

static int tl_is_reserved_key(lua_State *L, int key) {
    return lua_type(L, key) == LUA_TSTRING && tl_is_reserved_text(lua_tostring(L, key));
}

// The environment box at idx (any box of kind TL_KIND_ENVIRONMENT), or NULL.
static int tl_is_environment(lua_State *L, int idx) {
    int kind = 0;
    return tl_tobox(L, idx, &kind) != NULL && kind == TL_KIND_ENVIRONMENT;
}

int tl_rawlookup_at(lua_State *L, int idx, int key) {
    // Follows Lua's own rule (raw get on tables, then the metatable's __index
    // while it is a table) but never calls a function, so it cannot raise.
    // An environment is a userdata: its user fields (user value 1), then its
    // class chain (its metatable's __metatable), skipping host "__" names.
    key = lua_absindex(L, key);
    idx = lua_absindex(L, idx);
    if (tl_is_environment(L, idx)) {
        if (tl_is_reserved_key(L, key)) { lua_pushnil(L); return LUA_TNIL; }
        return tl_env_lookup(L, idx, key);
    }
    lua_pushvalue(L, idx);
    return tl_chain_lookup(L, key);
}

int tl_rawlookup(lua_State *L, int idx, const char *key) {
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = tl_rawlookup_at(L, idx, -1);
    lua_remove(L, -2);
    return t;
}

// ---------------------------------------------------------------------------
// Environment objects
//
// An environment is a box with one user value: its field table, made on the
// first user field (most objects never get one). The metatable is shared by
// every instance of a class and protected; scripts reach neither it nor the
// field table, only what these two functions serve.

// Keeps the tracking object on top (of collection c) in the host's slot:
// the slot keeps it, and so c, alive.
static void tl_note_recent_tracking(lua_State *L, tl_host *h, void *c) {
    if (!h->recent_tracking_ref) return;
    lua_pushvalue(L, -1);
    lua_rawseti(L, LUA_REGISTRYINDEX, h->recent_tracking_ref);
    h->recent_tracking = c;
}

// Pushes collection c's object from the table of objects at t, or nil, and
// returns whether it is there: by address, or (by_slot) at the slot in its
// host key, where only a box of c that has that slot counts.
int tl_collection_object(lua_State *L, int t, void *c, int by_slot, uint64_t key) {
    t = lua_absindex(L, t);
    if (!by_slot) return lua_rawgetp(L, t, c) != LUA_TNIL;
    if (tl_slot_box(L, t, c, TL_KIND_COLLECTION, (uint32_t)key)) return 1;
    lua_pushnil(L);
    return 0;
}

static int tl_env_index(lua_State *L) {
    lua_settop(L, 2);
    int kind = 0;
    void *env = tl_tobox(L, 1, &kind);
    if (!env || kind != TL_KIND_ENVIRONMENT) {
        if (tl_isdeadbox(L, 1))
            return luaL_error(L, "%s", TL_DEAD_OBJECT_MESSAGE);
        return luaL_error(L, "bad self to an environment's __index (%s)", luaL_typename(L, 1));
    }
    if (lua_type(L, lua_upvalueindex(3)) != LUA_TTABLE) return luaL_error(L, "corrupt environment indexer");
    // (The key's text, read once: it stays valid while the key is on the stack.)
    const char *key_text = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (tl_is_reserved_text(key_text)) { lua_pushnil(L); return 1; }
    if (lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    }
    lua_settop(L, 2);
    if (!key_text) { lua_pushnil(L); return 1; }
    // traitCollection before the class chain (no class may define it:
    // setClassField, subclass): from C when its object exists already, that
    // is, from the second read of a collection on; the object is then kept in
    // the field table (checked first, above) until the collection changes.
    tl_host *h = tl_gethost(L);
    if (h && h->env_collection) {
        // (The interned key itself, or else whatever the table of properties says.)
        int is_collection = h->trait_collection_key && key_text == h->trait_collection_key;
        if (is_collection) lua_pushinteger(L, h->trait_collection_property);   // (as the table gives it)
        else {
            lua_pushvalue(L, 2);
            is_collection = lua_rawget(L, lua_upvalueindex(3)) == LUA_TNUMBER && lua_tointeger(L, 3) == h->trait_collection_property;
        }
        if (is_collection) {
            int tracked = 0;
            uint64_t key = 0;
            void *c = h->env_collection(h->swift_host, env, &tracked, &key);
            if (tracked && c && c == h->recent_tracking) {
                // The tracking object served last (views without overrides share it).
                if (lua_rawgeti(L, LUA_REGISTRYINDEX, h->recent_tracking_ref) == LUA_TUSERDATA) {
                    tl_box *b = tl_checkeduserdata(L, -1);
                    if (b && b->payload == c && b->kind == TL_KIND_COLLECTION) return 1;
                }
                lua_pop(L, 1);
            }
            // Where its object is kept: by slot in the table of objects when
            // this host keys the collection (or nobody does yet), else by address.
            int by_slot = !tracked && h->set_collection_key && tl_collection_keyed_here(h, key);
            int objects = tracked ? h->tracking_objects_ref : by_slot ? h->env_objects_ref : h->collection_objects_ref;
            if (c && h->retain_collection && lua_rawgeti(L, LUA_REGISTRYINDEX, objects) == LUA_TTABLE
                  && !tl_collection_object(L, -1, c, by_slot, key)) {
                // The collection's first object, made here: a box with the
                // shared metatable, kept in the weak table of objects. The
                // allocation may collect garbage and run finalizers, which may
                // run an update or make the object: ask again after it (nothing
                // runs between that answer and the reference taken).
                int table = lua_gettop(L) - 1;
                lua_pop(L, 1);
                tl_box *b = tl_newbox(L, NULL, TL_KIND_COLLECTION, tracked ? 2 : 1);
                int kind = 0, again = 0;
                uint64_t key_now = 0;
                void *now_env = tl_tobox(L, 1, &kind);
                void *now = now_env == env ? h->env_collection(h->swift_host, env, &again, &key_now) : NULL;
                if (now == c && again == tracked && key_now == key && !tl_collection_object(L, table, c, by_slot, key)) {
                    lua_pop(L, 1);
                    h->retain_collection(c);
                    b->payload = c;
                    if (lua_rawgeti(L, LUA_REGISTRYINDEX, tracked ? h->tracking_meta_ref : h->collection_meta_ref) == LUA_TTABLE)
                        lua_setmetatable(L, -2);
                    else
                        lua_pop(L, 1);   // (then no finalizer: the reference is never given back)
                    if (by_slot) {
                        uint32_t slot = tl_slot_adopt(L, h, table, lua_gettop(L), b);
                        h->set_collection_key(c, tl_collection_host_key(h, slot));
                    } else {
                        lua_pushvalue(L, -1);
                        lua_rawsetp(L, table, c);
                    }
                    if (tracked) tl_note_recent_tracking(L, h, c);
                    return 1;
                }
                lua_settop(L, 3);
                return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
            }
            if (c && lua_type(L, -1) == LUA_TUSERDATA) {
                // (debug.getregistry reaches the table: check what it holds.
                // A box a script finalized is replaced by Swift.)
                tl_box *b = tl_checkeduserdata(L, -1);
                if (b && b->payload && b->kind == TL_KIND_COLLECTION) {
                    int object = lua_gettop(L);
                    if (h->env_caches_collection && !tracked) {
                        tl_env_make_fields(L, 1);
                        lua_pushvalue(L, 2);
                        lua_pushvalue(L, object);
                        lua_rawset(L, -3);
                        h->env_caches_collection(env);
                        lua_settop(L, object);
                    }
                    if (tracked) tl_note_recent_tracking(L, h, c);
                    return 1;
                }
            }
            lua_settop(L, 3);
            return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
        }
        lua_settop(L, 2);
    }
    // Built-in methods, from the class's own copy (no script reaches it), and
    // properties: both before the class chain, which a script can write raw
    // (rawset(Class, ...)) and so must not hide either.
    if (lua_type(L, lua_upvalueindex(4)) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, lua_upvalueindex(4)) != LUA_TNIL) return 1;
        lua_settop(L, 2);
    }
    // Properties: Swift gets (object, key, property id).
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(3)) == LUA_TNUMBER)
        return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
    lua_settop(L, 2);
    // Methods of the script's classes: the class chain, raw.
    lua_pushvalue(L, lua_upvalueindex(2));
    if (lua_type(L, -1) == LUA_TTABLE && tl_chain_lookup(L, 2) != LUA_TNIL) return 1;
    lua_pushnil(L);
    return 1;
}

// ---------------------------------------------------------------------------
// Collection objects (see CLuaShim.h)

// In a promoted object's cache table, the key of its box (a light userdata
// no script can make: the table itself is reachable only through the
// protected metatable).
static char tl_cache_box_key;

// The definition a key names for a collection read: a definition box, or a
// property name found in the registry table Swift fills (names not seen yet
// take the general path, which adds them). Pushes what the key names (the
// box, or whatever else it is) and returns the definition, or NULL.
static void *tl_push_definition_for_key(lua_State *L, tl_host *h, int key) {
    int t = lua_type(L, key);
    if (t == LUA_TSTRING) {
        t = lua_rawgeti(L, LUA_REGISTRYINDEX, h->definitions_by_property_ref);
        if (t == LUA_TTABLE) {
            lua_pushvalue(L, key);
            t = lua_rawget(L, -2);
            lua_remove(L, -2);
        }
    } else {
        lua_pushvalue(L, key);
    }
    int kind = 0;
    void *def = t == LUA_TUSERDATA ? tl_userdatabox(L, -1, &kind) : NULL;
    return def && kind == TL_KIND_DEFINITION ? def : NULL;
}

void tl_collection_keep(lua_State *L, int box, int key, int value) {
    tl_host *h = tl_gethost(L);
    box = lua_absindex(L, box);
    key = lua_absindex(L, key);
    value = lua_absindex(L, value);
    int t = lua_getiuservalue(L, box, 1);
    if (t == LUA_TBOOLEAN) {
        lua_pop(L, 1);
        int template_type = lua_rawgeti(L, LUA_REGISTRYINDEX, h->collection_meta_ref);
        int cache_meta_type = lua_rawgeti(L, LUA_REGISTRYINDEX, h->collection_cache_meta_ref);
        if (template_type == LUA_TTABLE && cache_meta_type == LUA_TTABLE) tl_collection_promote(L, box, -2, -1);
        lua_pop(L, 2);
        t = lua_getiuservalue(L, box, 1);
    } else if (t == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushboolean(L, 0);
        lua_setiuservalue(L, box, 1);
        return;
    }
    if (t == LUA_TTABLE) {
        lua_pushvalue(L, key);
        lua_pushvalue(L, value);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
}

// Keeps a value a tracking object read: user value 1 maps the key to the
// value, user value 2 the key to the definition's box (both made on first
// use), so a later read of it is recorded and served here.
static void tl_tracking_cache(lua_State *L, int box, int key, int value, int def_box) {
    for (int uv = 1; uv <= 2; uv++) {
        int t = lua_getiuservalue(L, box, uv);
        if (t == LUA_TNIL) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 2);
            lua_pushvalue(L, -1);
            if (!lua_setiuservalue(L, box, uv)) { lua_pop(L, 1); return; }
            t = LUA_TTABLE;
        }
        if (t != LUA_TTABLE) { lua_pop(L, 1); return; }
        lua_pushvalue(L, key);
        lua_pushvalue(L, uv == 1 ? value : def_box);
        lua_rawset(L, -3);
        lua_pop(L, 1);
    }
}

static int tl_collection_index(lua_State *L) {
    lua_settop(L, 2);
    if (lua_toboolean(L, lua_upvalueindex(3))) {
        // A tracking object's read of a trait read before: recorded, and
        // served from its caches (see tl_tracking_cache).
        tl_box *b = tl_checkedbox(L, 1);
        if (b && b->payload && b->kind == TL_KIND_COLLECTION && lua_getiuservalue(L, 1, 2) == LUA_TTABLE) {
            lua_pushvalue(L, 2);
            int kind = 0;
            void *def = lua_rawget(L, -2) == LUA_TUSERDATA ? tl_userdatabox(L, -1, &kind) : NULL;
            if (def && kind == TL_KIND_DEFINITION && lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {
                lua_pushvalue(L, 2);
                lua_rawget(L, -2);
                tl_host *h = tl_gethost(L);
                if (h && h->record_read) h->record_read(h->swift_host, b->payload, def);
                return 1;
            }
        }
        lua_settop(L, 2);
    }
    if (lua_type(L, 1) == LUA_TTABLE) {
        // A promoted object's cache missed: continue with its box.
        if (lua_rawgetp(L, 1, &tl_cache_box_key) != LUA_TUSERDATA)
            return luaL_error(L, "bad self to a trait collection's __index (table)");
        lua_replace(L, 1);
    }
    int kind = 0;
    if (!tl_tobox(L, 1, &kind) || kind != TL_KIND_COLLECTION) {
        if (tl_isdeadbox(L, 1)) return luaL_error(L, "this trait collection is no longer valid");
        return luaL_error(L, "bad self to a trait collection's __index (%s)", luaL_typename(L, 1));
    }
    if (lua_type(L, lua_upvalueindex(2)) != LUA_TTABLE) return luaL_error(L, "corrupt collection indexer");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TFUNCTION) return 1;
    lua_settop(L, 2);
    tl_host *h = tl_gethost(L);
    // [object, key, definition box]
    void *def = h && h->collection_value ? tl_push_definition_for_key(L, h, 2) : NULL;
    if (def) {
        void *collection = tl_tobox(L, 1, NULL);
        // A trait: Swift pushes its value, with no dispatcher in between.
        int cacheable = 0;
        tl_swift_frame f = tl_enter_swift(L, h);
        int n = h->collection_value(h->swift_host, L, collection, def, &cacheable);
        tl_leave_swift(h, f);
        if (n == 1 && lua_gettop(L) == 4) {
            n = tl_after_swift(L, h, 1);
            if (lua_toboolean(L, lua_upvalueindex(3))) tl_tracking_cache(L, 1, 2, 4, 3);
            else if (cacheable) tl_collection_keep(L, 1, 2, 4);
            return n;
        }
    }
    lua_settop(L, 2);
    return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void tl_collection_promote(lua_State *L, int box, int template_index, int cache_meta_index) {
    box = lua_absindex(L, box);
    template_index = lua_absindex(L, template_index);
    cache_meta_index = lua_absindex(L, cache_meta_index);
    lua_createtable(L, 0, 4);                  // the cache
    int cache = lua_gettop(L);
    lua_pushvalue(L, box);
    lua_rawsetp(L, cache, &tl_cache_box_key);
    lua_pushvalue(L, cache_meta_index);
    lua_setmetatable(L, cache);
    lua_createtable(L, 0, 10);                 // the object's own metatable
    int meta = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, template_index)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, meta);
    }
    lua_pushliteral(L, "__index");
    lua_pushvalue(L, cache);
    lua_rawset(L, meta);
    lua_setmetatable(L, box);
    lua_setiuservalue(L, box, 1);               // pops the cache
}

void tl_collection_clear_cache(lua_State *L, int box) {
    box = lua_absindex(L, box);
    // A tracking object's definitions (its second user value, if any) go too.
    lua_pushnil(L);
    (void)lua_setiuservalue(L, box, 2);   // (pops; fails on a collection object's single user value)
    if (lua_getiuservalue(L, box, 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_setiuservalue(L, box, 1);
        return;
    }
    int cache = lua_gettop(L);
    for (;;) {   // remove every key but the box's (restart after each removal)
        lua_pushnil(L);
        int found = 0;
        while (lua_next(L, cache)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == &tl_cache_box_key) continue;
            lua_pushnil(L);
            lua_rawset(L, cache);
            found = 1;
            break;
        }
        if (!found) break;
    }
    lua_pop(L, 1);
}

void tl_push_collection_indexer(lua_State *L, int fnid, int methods_index, int tracking) {
    methods_index = lua_absindex(L, methods_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, methods_index);
    lua_pushboolean(L, tracking);
    lua_pushcclosure(L, tl_collection_index, 3);
}

void tl_push_env_indexer(lua_State *L, int fnid, int class_index, int props_index, int builtins_index) {
    class_index = lua_absindex(L, class_index);
    props_index = lua_absindex(L, props_index);
    builtins_index = lua_absindex(L, builtins_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, class_index);
    lua_pushvalue(L, props_index);
    lua_pushvalue(L, builtins_index);
    lua_pushcclosure(L, tl_env_index, 4);
}

// Where an instance metatable keeps its class's built-in methods (a light
// userdata key no script can make; the metatable itself is protected).
static char tl_builtins_key;

void tl_set_builtins(lua_State *L, int meta_index, int builtins_index) {
    meta_index = lua_absindex(L, meta_index);
    lua_pushvalue(L, builtins_index);
    lua_rawsetp(L, meta_index, &tl_builtins_key);
}

int tl_is_builtin(lua_State *L, int idx, int key) {
    idx = lua_absindex(L, idx);
    key = lua_absindex(L, key);
    int top = lua_gettop(L);
    int found = 0;
    if (lua_getmetatable(L, idx) && lua_rawgetp(L, -1, &tl_builtins_key) == LUA_TTABLE) {
        lua_pushvalue(L, key);
        found = lua_rawget(L, -2) != LUA_TNIL;
    }
    lua_settop(L, top);
    return found;
}

static int tl_env_newindex(lua_State *L) {
    lua_settop(L, 3);
    if (!tl_is_environment(L, 1)) {
        if (tl_isdeadbox(L, 1))
            return luaL_error(L, "%s", TL_DEAD_OBJECT_MESSAGE);
        return luaL_error(L, "bad self to an environment's __newindex (%s)", luaL_typename(L, 1));
    }
    if (lua_type(L, lua_upvalueindex(2)) != LUA_TTABLE) return luaL_error(L, "corrupt environment indexer");
    if (lua_type(L, 2) == LUA_TSTRING) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL)
            return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
        lua_pop(L, 1);
        const char *k = lua_tostring(L, 2);
        if (tl_is_reserved_key(L, 2)) {
            // (The name as the message quotes it: cut, as Swift's messages are.)
            char shown[104];
            size_t len = strlen(k);
            snprintf(shown, sizeof shown, "%.96s%s", k, len > 96 ? "..." : "");
            return luaL_error(L, "cannot set field '%s' on %s: names starting with '__' are reserved", shown, luaL_typename(L, 1));
        }
        if (tl_is_builtin(L, 1, 2))
            return luaL_error(L, "cannot replace built-in method '%s'", k);
    } else if (lua_type(L, 2) == LUA_TLIGHTUSERDATA) {
        return luaL_error(L, "cannot use a light userdata as a field name");
    }
    if (lua_getiuservalue(L, 1, 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        if (lua_isnil(L, 3)) return 0;   // clearing a field that was never set
        tl_env_make_fields(L, 1);
    }
    lua_insert(L, 2);
    lua_rawset(L, 2);
    return 0;
}

void tl_push_env_newindexer(lua_State *L, int fnid, int props_index) {
    props_index = lua_absindex(L, props_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, props_index);
    lua_pushcclosure(L, tl_env_newindex, 2);
}

int tl_pushfields(lua_State *L, int idx, int create) {
    idx = lua_absindex(L, idx);
    if (!tl_is_environment(L, idx)) { lua_pushnil(L); return 0; }
    if (lua_getiuservalue(L, idx, 1) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    if (!create) { lua_pushnil(L); return 0; }
    tl_env_make_fields(L, idx);
    return 1;
}

static int tl_openlibs_body(lua_State *L) {
    luaL_openlibs(L);
    return 0;
}

int tl_openlibs(lua_State *L) {
    return tl_cpcall(L, tl_openlibs_body, NULL);
}

// The host record of each state and its allocator: the page pool, the
// memory cap (--memory-limit) and what the engine holds under it.
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
int tl_may_fail(tl_host *h) {
    if (!h->in_swift) return 1;
    return !h->swift_in_finalizer && h->L != NULL && lua_gc(h->L, LUA_GCISRUNNING) < 0;
}

// Small allocations the engine makes while Swift runs must not fail: when the
// system refuses one, a reserve block kept for that moment is given back and
// the allocation tried again; the trampoline then raises "not enough memory"
// once Swift has returned. Without the reserve the process ends.
void *tl_reserve;

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
unsigned tl_measure_calls(const tl_host *h) {
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

void tl_engine_measure(tl_host *h) {
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
int tl_engine_settle(lua_State *L, tl_host *h, size_t more) {
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

int tl_engine_room(size_t bytes) {
    if (tl_address_room(bytes)) return 1;
    struct mallinfo2 mi = mallinfo2();
    // (Chunks in fastbins serve only their own small sizes.)
    size_t free_bytes = mi.fordblks > mi.fsmblks ? mi.fordblks - mi.fsmblks : 0;
    return bytes < free_bytes && free_bytes - bytes >= TL_POOL_HEADROOM;
}

// Whether Lua's heap, the engine, what was asked for since it was measured
// and `more` pass the cap by more than `slack`.
int tl_over_cap(const tl_host *h, size_t more, size_t slack) {
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

// Interrupts (--timeout, Ctrl-C, a spec's stop): a count hook armed only
// when needed, finalizers stopped through the allocator, and the deadline's
// timer.
#include "CLuaShim.h"
#include "shim_private.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

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

void *tl_interrupting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
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
// A worker ends with its parent (prctl(2), PR_SET_PDEATHSIG: the signal is
// sent when the parent's thread that made this process exits; the parent is
// checked after, since it may have ended before the call).
int tl_end_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : -1;
}

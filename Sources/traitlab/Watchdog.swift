#if canImport(Glibc)
import Glibc
#endif
import CLuaShim

/// `--timeout`: a thread that sleeps until the deadline and then interrupts
/// the Lua state.
///
/// Nothing is armed while code runs normally (a Lua hook slows every
/// instruction), so a run within its time costs nothing. At the deadline the
/// thread calls `tl_interrupt`, which sets a count hook, as lua.c does from
/// its SIGINT handler. The shim's hook stays armed until `tl_clear_interrupt`,
/// so a `pcall` in the script cannot swallow the timeout; the interpreter
/// clears it once the chunk has unwound.
final class Watchdog {
    let seconds: Double
    /// The state (or coroutine) the deadline interrupts; guarded by mutex.
    private var state: OpaquePointer
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wakeup = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var deadline: timespec?       // armed while set; guarded by mutex
    private var didFire = false           // guarded by mutex
    private var threadStarted = false

    init(state: OpaquePointer, seconds: Double) {
        self.state = state
        self.seconds = seconds
        pthread_mutex_init(mutex, nil)
        // Deadlines are on the monotonic clock: changing the date must not
        // end a run early or make it run forever.
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(wakeup, &attr)
        pthread_condattr_destroy(&attr)
        // The shim keeps the pointer, so the text lives as long as the process.
        tl_set_timeout_message(strdup("timed out after \(Watchdog.describe(seconds))"))
    }

    /// "1 second", "2.5 seconds".
    static func describe(_ seconds: Double) -> String {
        let whole = seconds == seconds.rounded() && seconds < 1e15
        let number = whole ? String(Int(seconds)) : String(seconds)
        return number + (seconds == 1 ? " second" : " seconds")
    }

    /// Starts counting `seconds` from now, to interrupt `target` (the state
    /// given at creation when nil; `traitlab test` passes each test's coroutine).
    func arm(_ target: OpaquePointer? = nil) {
        pthread_mutex_lock(mutex)
        if let target { state = target }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = Int(seconds)
        var d = timespec(tv_sec: now.tv_sec + whole, tv_nsec: now.tv_nsec + Int((seconds - Double(whole)) * 1e9))
        if d.tv_nsec >= 1_000_000_000 { d.tv_sec += 1; d.tv_nsec -= 1_000_000_000 }
        deadline = d
        didFire = false
        if !threadStarted {
            threadStarted = startThread()
            if !threadStarted { message("cannot start the --timeout watchdog thread; running without a time limit") }
        }
        pthread_cond_signal(wakeup)
        pthread_mutex_unlock(mutex)
    }

    /// Stops counting. Returns whether the deadline had passed.
    @discardableResult
    func disarm() -> Bool {
        pthread_mutex_lock(mutex)
        deadline = nil
        let fired = didFire
        pthread_cond_signal(wakeup)
        pthread_mutex_unlock(mutex)
        return fired
    }

    /// Whether the deadline has passed since the last `arm()`.
    var hasFired: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return didFire
    }

    private func startThread() -> Bool {
        var thread = pthread_t()
        let me = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { arg in
            guard let arg else { return nil }
            Unmanaged<Watchdog>.fromOpaque(arg).takeUnretainedValue().watch()
            return nil
        }, me)
        guard rc == 0 else {
            Unmanaged<Watchdog>.fromOpaque(me).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The thread's loop: sleep until armed, then until the deadline or a
    /// change of plan. It lives as long as the process.
    private func watch() {
        pthread_mutex_lock(mutex)
        while true {
            guard var d = deadline else {
                pthread_cond_wait(wakeup, mutex)
                continue
            }
            if pthread_cond_timedwait(wakeup, mutex, &d) == ETIMEDOUT, let current = deadline,
               current.tv_sec == d.tv_sec, current.tv_nsec == d.tv_nsec {
                tl_interrupt(state, 1)
                didFire = true
                deadline = nil
            }
        }
    }
}

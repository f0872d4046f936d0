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
///
/// A hook belongs to one Lua thread, so code that is inside another coroutine
/// when the deadline passes, or inside one long C call, does not see it. With
/// a `hardStopGrace`, the watchdog ends the process (exit 1, with a message)
/// when the code has not unwound that long after the deadline: a runaway
/// script always stops.
final class Watchdog {
    let seconds: Double
    private let state: OpaquePointer
    private let hardStopGrace: Double?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wakeup = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by mutex:
    private var deadline: timespec?       // when the next thing is due, if armed
    private var target: OpaquePointer?    // the Lua thread the deadline interrupts
    private var didFire = false
    private var threadStarted = false

    init(state: OpaquePointer, seconds: Double, hardStopGrace: Double? = nil) {
        self.state = state
        self.seconds = seconds
        self.hardStopGrace = hardStopGrace
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
        self.target = target ?? state
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        deadline = Watchdog.adding(seconds, to: now)
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

    private static func adding(_ seconds: Double, to t: timespec) -> timespec {
        let whole = Int(seconds)
        var d = timespec(tv_sec: t.tv_sec + whole, tv_nsec: t.tv_nsec + Int((seconds - Double(whole)) * 1e9))
        if d.tv_nsec >= 1_000_000_000 { d.tv_sec += 1; d.tv_nsec -= 1_000_000_000 }
        return d
    }

    /// The thread's loop: sleep until armed, then until the deadline or a
    /// change of plan (arm, disarm). It lives as long as the process.
    private func watch() {
        pthread_mutex_lock(mutex)
        while true {
            guard var due = deadline else {
                pthread_cond_wait(wakeup, mutex)
                continue
            }
            guard pthread_cond_timedwait(wakeup, mutex, &due) == ETIMEDOUT, let current = deadline,
                  current.tv_sec == due.tv_sec, current.tv_nsec == due.tv_nsec else { continue }
            if didFire {
                hardStop()
            }
            tl_interrupt(target ?? state, 1)
            didFire = true
            deadline = hardStopGrace.map { Watchdog.adding($0, to: due) }
        }
    }

    /// The code did not unwind after the interrupt: end the process. Only
    /// `write` and `_exit`, since the main thread may hold stdio's locks.
    private func hardStop() -> Never {
        let text = "\(programName): timed out after \(Watchdog.describe(seconds)), and the code did not stop "
            + "(a coroutine or a long C call); exiting\n"
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
        _exit(1)
    }
}

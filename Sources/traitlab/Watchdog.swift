#if canImport(Glibc)
import Glibc
#endif
import CLuaShim

/// `--timeout`: a deadline that interrupts the Lua state when it passes.
///
/// Nothing runs while code runs normally: the deadline is a POSIX timer on
/// the monotonic clock (changing the date must not end a run early or make it
/// run forever), kept by the shim (`tl_deadline_arm`). No thread either: a
/// second thread makes every malloc in the process take a lock, which slowed
/// pure-Lua code by 10% (docs/performance.md). At the deadline the timer's
/// SIGALRM handler calls `tl_interrupt`, which sets a count hook, as lua.c does
/// from its SIGINT handler. The shim's hook stays armed until
/// `tl_clear_interrupt`, so a `pcall` in the script cannot swallow the
/// timeout; the interpreter clears it once the chunk has unwound.
///
/// A hook belongs to one Lua thread, so code that is inside another coroutine
/// when the deadline passes, or inside one long C call, does not see it; nor
/// does a finalizer, which Lua runs with hooks off (the interrupt stops one
/// at its next allocation instead: interrupts.c, tl_interrupting_alloc). With a
/// `hardStopGrace`, the watchdog ends the process (exit 1, with a message)
/// when the code has not unwound that long after the deadline: a runaway
/// script always stops, a finalizer that loops without allocating too.
///
/// The deadline is process-wide: one watchdog is armed at a time (the
/// interpreter's, or under `traitlab test` the one of the file being run).
final class Watchdog {
    let seconds: Double
    private let state: OpaquePointer
    private let hardStopGrace: Double?
    /// Printed by the signal handler, which cannot build strings.
    private let hardStopMessage: UnsafeMutablePointer<CChar>

    init(state: OpaquePointer, seconds: Double, hardStopGrace: Double? = nil) {
        self.state = state
        self.seconds = seconds
        self.hardStopGrace = hardStopGrace
        // The shim keeps the pointers, so the texts live as long as the process.
        tl_set_timeout_message(strdup("timed out after \(Watchdog.describe(seconds))"))
        hardStopMessage = strdup("\(programName): timed out after \(Watchdog.describe(seconds)), and the code did not stop "
                                 + "(a long C call, or a finalizer looping without allocating memory); exiting\n")
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
        isArmed = true
        if tl_deadline_arm(target ?? state, seconds, hardStopGrace ?? 0, hardStopMessage) == 0 {
            message("cannot set up the --timeout timer; running without a time limit")
        }
    }

    /// Stops counting. Returns whether the deadline had passed.
    @discardableResult
    func disarm() -> Bool {
        isArmed = false
        return tl_deadline_disarm() != 0
    }

    /// Whether a deadline is counting.
    private(set) var isArmed = false

    /// Whether the deadline has passed since the last `arm()`.
    var hasFired: Bool { tl_deadline_passed() != 0 }
}

#if canImport(Glibc)
import Glibc
#endif
import CLuaShim

// Ctrl-C while Lua runs, as lua.c handles it: the handler only arms a hook
// (`tl_interrupt` is safe in a signal handler), and the hook raises
// "interrupted!" at the next Lua instruction. The handler resets itself, so a
// second Ctrl-C ends the process if the code is stuck where no hook runs.
// At the REPL prompt Ctrl-C is a key, not a signal (see LineEditor).

/// The state a SIGINT interrupts. Set before the handler is installed.
nonisolated(unsafe) private var interruptibleState: OpaquePointer?

/// How many Ctrl-Cs the handler has seen, so the REPL can end the line the
/// terminal echoed "^C" on before it reports "interrupted!".
nonisolated(unsafe) private(set) var interruptsSeen: sig_atomic_t = 0

private func onInterrupt(_ signal: Int32) {
    Glibc.signal(signal, SIG_DFL)
    interruptsSeen += 1
    if let L = interruptibleState { tl_interrupt(L, 2) }
}

/// Makes Ctrl-C interrupt the Lua code run from now on.
func catchInterrupts(_ L: OpaquePointer) {
    interruptibleState = L
    signal(SIGINT, onInterrupt)
}

/// Ctrl-C ends the process again.
func releaseInterrupts() {
    signal(SIGINT, SIG_DFL)
}

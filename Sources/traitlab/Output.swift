#if canImport(Glibc)
import Glibc
#endif

// Writing to the terminal. Lua's `print` writes to the C `stdout` stream, so
// the tool does too: the two never overtake each other.

/// The program name in messages, as `lua.c` uses `progname`.
let programName = "traitlab"

func writeOut(_ s: String) {
    fputs(s, stdout)
}

/// Writes a message to standard error. Standard output is flushed first so a
/// script's output and its error appear in the order they happened.
func writeError(_ s: String) {
    fflush(stdout)
    fputs(s, stderr)
    fflush(stderr)
}

/// `traitlab: message` on standard error (`l_message` in lua.c).
func message(_ text: String, withProgramName: Bool = true) {
    writeError((withProgramName ? programName + ": " : "") + text + "\n")
}

/// ANSI styles for the REPL. Only used when standard output is a terminal
/// and `NO_COLOR` is not set (https://no-color.org).
struct Style {
    let enabled: Bool

    static func forStandardOutput() -> Style {
        Style(enabled: isatty(1) != 0 && getenv("NO_COLOR") == nil)
    }

    func paint(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m" + s + "\u{1B}[0m" : s
    }

    func error(_ s: String) -> String { paint(s, "31") }
    func dim(_ s: String) -> String { paint(s, "2") }
    func bold(_ s: String) -> String { paint(s, "1") }
    func accent(_ s: String) -> String { paint(s, "36") }
}

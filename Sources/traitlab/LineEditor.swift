#if canImport(Glibc)
import Glibc
#endif
import CEditLine

/// What reading a line gave.
enum LineInput {
    case line(String)
    case interrupted    // Ctrl-C at the prompt: drop what was typed
    case end            // Ctrl-D on an empty line, or end of input
}

/// Where the REPL gets its lines: libedit on a terminal, plain reads otherwise.
protocol LineReader: AnyObject {
    func read(prompt: String) -> LineInput
    /// Keeps a complete input in the history.
    func remember(_ entry: String)
}

// MARK: - Plain input

/// `-i` with standard input not a terminal: prompts and the lines read, as
/// lua5.4 (built with readline) shows them. No history.
final class PlainLineReader: LineReader {
    /// Whether lines read are echoed (not when a terminal already shows them).
    let echoes: Bool
    init(echoes: Bool = true) { self.echoes = echoes }

    func read(prompt: String) -> LineInput {
        writeOut(prompt)
        fflush(stdout)
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        guard getline(&buffer, &capacity, stdin) >= 0, let buffer else { return .end }
        var line = String(cString: buffer)
        if line.hasSuffix("\n") { line.removeLast() }
        // lua5.4 reads with readline, which echoes a line read from a
        // non-terminal after the prompt; so does this reader.
        if echoes { writeOut(line + "\n") }
        return .line(line)
    }

    func remember(_ entry: String) {}
}

// MARK: - libedit

/// Set by the Ctrl-C key binding while libedit reads a line.
nonisolated(unsafe) private var interruptKeyPressed = false

/// Ctrl-C at the prompt. The terminal's INTR character is turned off while
/// editing (see `disableSignalKeys`), so Ctrl-C arrives as a key: this ends
/// `readline` and the REPL drops the line, with no signal handler racing
/// libedit's terminal state.
private func interruptKey(_ count: Int32, _ key: Int32) -> Int32 {
    interruptKeyPressed = true
    tl_rl_set_done(1)
    return 0
}

/// libedit's `readline` resets its terminal settings on every call, so the
/// "no signal keys while editing" setting is made again just before input.
private func disableSignalKeys() -> Int32 {
    _ = tl_rl_parse_and_bind("setty -d -isig")
    return 0
}

/// Line editing with libedit's readline interface: arrow keys, history,
/// tab completion (Completion.swift), Ctrl-C to clear the line.
final class EditLineReader: LineReader {
    private let history: HistoryFile
    private var last: String?

    /// nil when libedit cannot be loaded (`loadError` says why).
    init?(history: HistoryFile) {
        guard tl_edit_load() != 0 else { return nil }
        self.history = history
        tl_rl_set_readline_name(strdup("traitlab"))
        _ = tl_rl_initialize()
        tl_rl_set_pre_input_hook(disableSignalKeys)
        _ = tl_rl_add_defun("traitlab-interrupt", interruptKey, 3)
        installCompletion()
        for entry in history.load() {
            _ = tl_add_history(entry)
            last = entry
        }
    }

    /// Why libedit could not be loaded.
    static var loadError: String { String(cString: tl_edit_error()) }

    func read(prompt: String) -> LineInput {
        interruptKeyPressed = false
        guard let p = tl_readline(prompt) else {
            if interruptKeyPressed {
                writeOut("\n")
                return .interrupted
            }
            return .end
        }
        defer { free(p) }
        return .line(String(cString: p))
    }

    /// Adds to the in-memory history and appends to the file at once, so a
    /// crash never loses what came before. Repeats of the last entry are skipped.
    func remember(_ entry: String) {
        guard !entry.isEmpty, entry != last else { return }
        last = entry
        _ = tl_add_history(entry)
        history.append(entry)
    }
}

// MARK: - History file

/// The persistent history: `$XDG_STATE_HOME/traitlab/history`, by default
/// `~/.local/state/traitlab/history`. One entry per line, with backslashes and
/// line breaks escaped so a multi-line chunk stays one entry. Each entry is
/// appended with a single write as soon as it is entered.
struct HistoryFile {
    let path: String?
    /// Entries kept when the file is compacted at start-up.
    var limit = 1000

    static func standard() -> HistoryFile {
        var base: String?
        if let xdg = getenv("XDG_STATE_HOME"), xdg.pointee == UInt8(ascii: "/") {
            base = String(cString: xdg)
        } else if let home = getenv("HOME"), home.pointee != 0 {
            base = String(cString: home) + "/.local/state"
        }
        return HistoryFile(path: base.map { $0 + "/traitlab/history" })
    }

    /// The saved entries, oldest first. Compacts a file that grew to twice
    /// the limit, writing a new file and renaming it over the old one.
    func load() -> [String] {
        guard let path, let file = fopen(path, "r") else { return [] }
        var entries: [String] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&buffer, &capacity, file) >= 0, let buffer {
            var line = String(cString: buffer)
            if line.hasSuffix("\n") { line.removeLast() }
            if !line.isEmpty { entries.append(HistoryFile.decode(line)) }
        }
        free(buffer)
        fclose(file)
        if entries.count > 2 * limit {
            entries.removeFirst(entries.count - limit)
            rewrite(entries)
        }
        return entries
    }

    func append(_ entry: String) {
        guard let path, makeParentFolders(of: path) else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var line = HistoryFile.encode(entry) + "\n"
        line.withUTF8 { buf in _ = write(fd, buf.baseAddress, buf.count) }
        close(fd)
    }

    private func rewrite(_ entries: [String]) {
        guard let path else { return }
        let temporary = path + ".new"
        guard let file = fopen(temporary, "w") else { return }
        for e in entries { fputs(HistoryFile.encode(e) + "\n", file) }
        if fclose(file) == 0 { rename(temporary, path) } else { unlink(temporary) }
    }

    /// mkdir -p for the history's folder (private to the user, like the file).
    private func makeParentFolders(of path: String) -> Bool {
        var folder = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true).dropLast() {
            folder += "/" + part
            var info = stat()
            if stat(folder, &info) == 0 { continue }
            if mkdir(folder, 0o700) != 0 && errno != EEXIST { return false }
        }
        return true
    }

    static func encode(_ entry: String) -> String {
        var out = String.UnicodeScalarView()
        for c in entry.unicodeScalars {
            switch c {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            default: out.append(c)
            }
        }
        return String(out)
    }

    static func decode(_ line: String) -> String {
        var out = String.UnicodeScalarView()
        var escaped = false
        for c in line.unicodeScalars {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return String(out)
    }
}

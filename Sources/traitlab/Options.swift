import TraitEngine
import TraitLabLua

// The command line, read once before any Lua runs (`collectargs` in lua.c).
// Options that run code (-e, -l, -W, --plugin) are kept in order and run
// later, so `traitlab -e 'x = 1' -l mod` sees them as lua5.4 does.

/// One option that runs something, in command-line order.
enum Step {
    case execute(String)                            // -e CODE
    case require(global: String, module: String)    // -l NAME, -l g=mod
    case warningsOn                                 // -W
    case plugin(String)                             // --plugin NAME|PATH
}

/// What the command line asks for.
struct Invocation {
    var argv: [String]
    var steps: [Step] = []
    /// Index in `argv` of the script (or "-"); 0 when there is none, as in lua.c,
    /// which also decides how `arg` is numbered.
    var script = 0
    var interactive = false        // -i
    var showVersion = false        // -v, and -i
    var executes = false           // -e given: no script means no REPL
    var ignoreEnvironment = false  // -E
    var showHelp = false           // -h, --help
    var host = LuaHostOptions()
    var timeout: Double?
}

/// A command line we cannot follow: reported with the short usage, exit 2.
struct UsageError: Error {
    let message: String
}

/// The options that take a value, long form.
private let longOptionsWithValue: Set<String> = ["--plugin", "--plugin-path", "--hierarchy", "--timeout", "--memory-limit",
                                                  "--device", "--ios", "--screen", "--assets"]

func parseCommandLine(_ argv: [String]) throws -> Invocation {
    var inv = Invocation(argv: argv)
    var i = 1
    while i < argv.count {
        let a = argv[i]
        if a == "--" {                       // stop handling options
            if i + 1 < argv.count { inv.script = i + 1 }
            return inv
        }
        if a == "-" || !a.hasPrefix("-") {  // the script ("-" is standard input)
            inv.script = i
            return inv
        }
        if a.hasPrefix("--") {
            try parseLongOption(a, argv, &i, &inv)
        } else {
            try parseShortOption(a, argv, &i, &inv)
        }
        i += 1
    }
    return inv
}

/// -e -l -i -v -E -W -h, exactly as lua.c reads them: -e and -l take the rest
/// of the word or the next word, which must not look like an option.
private func parseShortOption(_ a: String, _ argv: [String], _ i: inout Int, _ inv: inout Invocation) throws {
    let letter = a.dropFirst().first ?? "-"
    let rest = String(a.dropFirst(2))
    switch letter {
    case "e", "l":
        var value = rest
        if value.isEmpty {
            i += 1
            guard i < argv.count, !argv[i].hasPrefix("-") else {
                throw UsageError(message: "'-\(letter)' needs argument")
            }
            value = argv[i]
        }
        if letter == "e" {
            inv.steps.append(.execute(value))
            inv.executes = true
        } else {
            inv.steps.append(requireStep(value))
        }
    case "i", "v", "E", "W", "h":
        guard rest.isEmpty else { throw UsageError(message: "unrecognized option '\(a)'") }
        switch letter {
        case "i": inv.interactive = true; inv.showVersion = true
        case "v": inv.showVersion = true
        case "E": inv.ignoreEnvironment = true
        case "W": inv.steps.append(.warningsOn)
        default: inv.showHelp = true
        }
    default:
        throw UsageError(message: "unrecognized option '\(a)'")
    }
}

/// `-l g=mod` requires `mod` into the global `g`; `-l mod` into `mod`.
private func requireStep(_ value: String) -> Step {
    if let eq = value.firstIndex(of: "=") {
        return .require(global: String(value[..<eq]), module: String(value[value.index(after: eq)...]))
    }
    return .require(global: value, module: value)
}

/// TraitLab's own options. Those with a value accept `--name value` and `--name=value`.
private func parseLongOption(_ a: String, _ argv: [String], _ i: inout Int, _ inv: inout Invocation) throws {
    var name = a
    var value: String?
    if let eq = a.firstIndex(of: "=") {
        name = String(a[..<eq])
        value = String(a[a.index(after: eq)...])
    }
    if longOptionsWithValue.contains(name), value == nil {
        i += 1
        guard i < argv.count else { throw UsageError(message: "'\(name)' needs argument") }
        value = argv[i]
    }
    switch (name, value) {
    case ("--help", nil): inv.showHelp = true
    case ("--sandbox", nil): inv.host.sandbox = true
    case ("--plugin", let v?): inv.steps.append(.plugin(v))
    case ("--plugin-path", let v?): inv.host.pluginPaths.append(v)
    case ("--hierarchy", let v?):
        guard let mode = HierarchyMode(rawValue: v) else {
            throw UsageError(message: "invalid --hierarchy value '\(v)' (ios17 or legacy)")
        }
        inv.host.hierarchyMode = mode
    case ("--device", let v?): inv.host.device = try parseDevice(v)
    case ("--ios", let v?): inv.host.os = try parseOSVersion(v)
    case ("--screen", let v?): inv.host.screenSettings.append(try parseScreen(v))
    case ("--assets", let v?): inv.host.assetCatalogPath = v
    case ("--timeout", let v?):
        guard let seconds = Double(v), seconds.isFinite, seconds > 0, seconds <= 1e9 else {
            throw UsageError(message: "invalid --timeout value '\(v)' (seconds, a positive number)")
        }
        inv.timeout = seconds
    case ("--memory-limit", let v?):
        inv.host.memoryLimit = try parseMemoryLimit(v)
    default:
        throw UsageError(message: "unrecognized option '\(a)'")
    }
}

/// `--memory-limit SIZE`, the same for scripts, the REPL and `traitlab test`:
/// a size, and at least what TraitLab needs to start.
func parseMemoryLimit(_ v: String) throws -> Int {
    guard let bytes = parseSize(v) else {
        throw UsageError(message: "invalid --memory-limit value '\(v)' (bytes, or a size such as 512K, 64M, 1G)")
    }
    guard bytes >= minimumMemoryLimit else {
        throw UsageError(message: "--memory-limit \(v) is too small: TraitLab needs at least \(minimumMemoryLimit >> 10)K to start")
    }
    return bytes
}

/// `--device NAME`: a device of the catalogue.
func parseDevice(_ name: String) throws -> Device {
    do { return try DeviceCatalogue.device(named: name) } catch let e as TraitError {
        throw UsageError(message: "--device: \(e.message) (`traitlab -e 'for _, d in ipairs(ui.devices) do print(d) end'` lists them)")
    }
}

/// `--ios VERSION`: 16, 17, 18 or 26.
func parseOSVersion(_ text: String) throws -> OSVersion {
    guard let v = OSVersion(text) else {
        throw UsageError(message: "invalid --ios value '\(text)' (\(OSVersion.supported.map { String($0.major) }.joined(separator: ", ")))")
    }
    return v
}

/// `--screen TRAIT=VALUE`.
func parseScreen(_ text: String) throws -> TraitCollection.Entry {
    do { return try parseScreenSetting(text) } catch let e as LuaError { throw UsageError(message: e.text) }
}

/// A fresh state with TraitLab's libraries takes about 50K; below this a
/// limit could only make start-up fail.
let minimumMemoryLimit = 256 << 10

/// `1048576`, `512K`, `64M`, `1G` (also `64MB`, `64MiB`, any case): binary
/// multiples. Nil for anything else, zero, or a size that does not fit.
func parseSize(_ text: String) -> Int? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, let n = Int(digits) else { return nil }
    let multipliers: [String: Int] = ["": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40]
    var unit = text.dropFirst(digits.count).lowercased()
    if unit.hasSuffix("ib") { unit.removeLast(2) } else if unit.count == 2, unit.hasSuffix("b") { unit.removeLast() }
    guard let m = multipliers[unit] else { return nil }
    let (bytes, overflow) = n.multipliedReportingOverflow(by: m)
    guard !overflow, bytes > 0 else { return nil }
    return bytes
}

// MARK: - Usage

let usageSynopsis = """
usage: traitlab [options] [script [args]]
       traitlab test [paths...] [busted's options] [--format text|tap|junit|json] [-j N] [--timeout S]
       traitlab module-path
       traitlab swift export|import ...   (traitlab swift --help)
"""

let usageOptions = """
Options (as in lua5.4):
  -e stat        execute string 'stat'
  -i             enter interactive mode after executing 'script'
  -l mod         require library 'mod' into global 'mod'
  -l g=mod       require library 'mod' into global 'g'
  -v             show version information
  -E             ignore environment variables (LUA_INIT, LUA_PATH, TRAITLAB_PLUGIN_PATH ...)
  -W             turn warnings on
  --             stop handling options
  -              stop handling options and execute stdin
TraitLab options:
  --plugin NAME|PATH     load a plugin before running code (repeatable)
  --plugin-path DIR      search DIR for plugins first (repeatable)
  --hierarchy MODE       trait flow to start with: ios17 (default) or legacy
  --device NAME          ui.Screen.main is that device of the catalogue (ui.devices)
  --ios VERSION          the iOS version whose trait system runs: 16, 17, 18 or 26 (default)
  --screen TRAIT=VALUE   set a system trait of ui.Screen.main (repeatable),
                         e.g. userInterfaceStyle=dark
  --assets PATH          read the asset catalogue (an .xcassets folder) at PATH as
                         ui.assets, the app's own: ui.Color.named, ui.Image.named
  --timeout SECONDS      stop a script (or a REPL input) that runs longer; exit 1
  --memory-limit SIZE    cap what a script makes the process hold, Lua's heap and the
                         engine's: bytes, or 512K, 64M, 1G (at least 256K); exceeding
                         it is a "not enough memory" error
  --sandbox              run untrusted code: no io, os limited to clock/time/date/difftime,
                         no C modules, dofile, loadfile or binary chunks
  -h, --help             show this help
With no script, traitlab starts the REPL when standard input is a terminal,
and otherwise runs standard input as a chunk.
"""

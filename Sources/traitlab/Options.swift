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
    /// The host options (HostOptions.swift).
    var settings = HostSettings()
    var host: LuaHostOptions {
        get { settings.host }
        set { settings.host = newValue }
    }
    var timeout: Double? {
        get { settings.timeout }
        set { settings.timeout = newValue }
    }
}

/// A command line we cannot follow: reported with the short usage, exit 2.
struct UsageError: Error {
    let message: String
}

func parseCommandLine(_ argv: [String]) throws -> Invocation {
    var inv = try readCommandLine(argv)
    // A script runs on one device, orientation, scene size, OS version and
    // screen: a list of values is a matrix, which `traitlab test` runs.
    let s = inv.settings
    if Set(s.devices.map(\.name)).count > 1 || Set(s.orientations).count > 1 || Set(s.sceneSizes).count > 1
        || Set(s.versions.map(\.major)).count > 1
        || s.screens.contains(where: { Set($0.values.map { "\($0.value)" }).count > 1 }) {
        throw UsageError(message: "a list of values makes a matrix, which traitlab test runs; a script runs on one device, orientation, scene size, OS version and value of each --screen trait")
    }
    inv.host.device = s.devices.first
    inv.host.orientation = s.orientations.first
    inv.host.sceneSize = s.sceneSizes.first
    if let problem = screenConfigurationProblem(s.devices.first ?? DeviceCatalogue.main, s.orientations.first ?? .portrait,
                                                s.sceneSizes.first ?? .full) {
        throw UsageError(message: problem + (s.devices.isEmpty ? " (ui.Screen.main is that device unless --device names another)" : ""))
    }
    if let v = s.versions.first { inv.host.os = v }
    inv.host.screenSettings = s.screens.flatMap(\.values)
    return inv
}

private func readCommandLine(_ argv: [String]) throws -> Invocation {
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

/// TraitLab's own options (HostOptions.swift): `--name value` and `--name=value`.
private func parseLongOption(_ a: String, _ argv: [String], _ i: inout Int, _ inv: inout Invocation) throws {
    if a == "--help" { inv.showHelp = true; return }
    if a == "--version" { inv.showVersion = true; return }
    let plugins = inv.settings.plugins.count
    guard try readHostOption(argv, &i, into: &inv.settings) else {
        throw UsageError(message: "unrecognized option '\(a)'")
    }
    // A plugin loads in its place among -e and -l, as lua.c runs those in order.
    if inv.settings.plugins.count > plugins { inv.steps.append(.plugin(inv.settings.plugins.removeLast())) }
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
        var text = e.message
        if !text.contains("did you mean"), let near = nearestDeviceName(name) { text += " (did you mean \"\(near)\"?)" }
        throw UsageError(message: "--device: \(text); `traitlab devices` lists them")
    }
}

/// The catalogue's name (or alias) closest to `name` in edits, when it is
/// close enough to be what was meant (a third of the name's letters at most).
func nearestDeviceName(_ name: String) -> String? {
    let wanted = name.lowercased()
    var best: (name: String, distance: Int)?
    for d in DeviceCatalogue.devices {
        for candidate in [d.name] + d.aliases {
            let distance = editDistance(wanted, candidate.lowercased())
            if distance < (best?.distance ?? Int.max) { best = (d.name, distance) }
        }
    }
    guard let best, best.distance <= max(2, wanted.count / 3) else { return nil }
    return best.name
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
       traitlab devices [--json]
       traitlab module-path | types-path | man | completions bash|zsh|fish
       traitlab swift export|import ...   (traitlab swift --help)
"""

/// `traitlab --help` after the synopsis (Usage.swift has the tables).
var usageOptions: String {
    "Options (as in lua5.4):\n" + renderUsage(interpreterOptions, width: 17) + hostOptionsHelp() + renderUsage([helpLine]) + """
    With no script, traitlab starts the REPL when standard input is a terminal,
    and otherwise runs standard input as a chunk.
    """
}

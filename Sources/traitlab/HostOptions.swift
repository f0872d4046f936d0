import TraitEngine
import TraitLabLua

// The options of the host, declared once: `traitlab` (scripts and the REPL),
// `traitlab test` and `traitlab swift export` take them from this table, so
// an option means the same thing, takes the same values and fails with the
// same message in every command. Each command's own parser keeps only its
// own options (lua.c's -e/-l/-i for scripts, --format and -j for tests, -o
// for export) and says which of these rows it takes.

/// What the host options set.
struct HostSettings {
    var host = LuaHostOptions()
    var timeout: Double?
    /// `--plugin`, in command-line order (scripts run them between -e and -l steps).
    var plugins: [String] = []
    /// `--device`, `--orientation`, `--scene-size`, `--ios`, `--screen`: each
    /// a comma-separated list. A script runs on one combination; `traitlab
    /// test` runs every combination.
    var devices: [Device] = []
    var orientations: [Orientation] = []
    var sceneSizes: [SceneSize] = []
    var versions: [OSVersion] = []
    var screens: [(trait: String, values: [TraitCollection.Entry])] = []
}

/// Where `--help` lists an option.
enum OptionGroup: String, CaseIterable {
    case running = "Running"
    case devices = "Devices and OS versions"
    case matrices = "Matrices"
    case limits = "Limits and the sandbox"
    case reports = "Reports"
}

/// One option: its name, the word it takes (nil for a flag), its help line
/// and what it sets.
struct HostOption {
    let name: String
    let argument: String?
    let group: OptionGroup
    let help: String
    let apply: (String, inout HostSettings) throws -> Void
}

/// Every host option, in the order `--help` lists them.
let hostOptions: [HostOption] = [
    HostOption(name: "--plugin", argument: "NAME|PATH", group: .running,
               help: "load a plugin before running code (repeatable)") { v, s in s.plugins.append(v) },
    HostOption(name: "--plugin-path", argument: "DIR", group: .running,
               help: "search DIR for plugins first (repeatable)") { v, s in s.host.pluginPaths.append(v) },
    HostOption(name: "--hierarchy", argument: "MODE", group: .running,
               help: "trait flow to start with: ios17 (default) or legacy") { v, s in
        guard let mode = HierarchyMode(rawValue: v) else {
            throw UsageError(message: "invalid --hierarchy value '\(v)' (ios17 or legacy)")
        }
        s.host.hierarchyMode = mode
    },
    HostOption(name: "--assets", argument: "PATH", group: .running,
               help: "read the asset catalogue (an .xcassets folder) at PATH as ui.assets") { v, s in
        s.host.assetCatalogPath = v
    },
    HostOption(name: "--device", argument: "NAME[,NAME...]", group: .devices,
               help: "ui.Screen.main is that device of the catalogue (ui.devices)") { v, s in
        for name in try commaList("--device", v) { s.devices.append(try parseDevice(name)) }
    },
    HostOption(name: "--orientation", argument: "O[,O...]", group: .devices,
               help: "ui.Screen.main starts in that orientation: portrait (default), portraitUpsideDown, landscapeLeft or landscapeRight") { v, s in
        for text in try commaList("--orientation", v) { s.orientations.append(try parseOrientation(text)) }
    },
    HostOption(name: "--scene-size", argument: "SIZE[,SIZE...]", group: .devices,
               help: "window scenes on ui.Screen.main start at that size: full (default), 2/3, 1/2, 1/3, slideOver or WxH in points (700x900)") { v, s in
        for text in try commaList("--scene-size", v) { s.sceneSizes.append(try parseSceneSize(text)) }
    },
    HostOption(name: "--ios", argument: "V[,V...]", group: .devices,
               help: "the iOS version whose trait system runs: 16, 17, 18 or 26 (default)") { v, s in
        for text in try commaList("--ios", v) { s.versions.append(try parseOSVersion(text)) }
    },
    HostOption(name: "--screen", argument: "TRAIT=V[,V...]", group: .devices,
               help: "a system trait of ui.Screen.main (repeatable), e.g. userInterfaceStyle=dark") { v, s in
        guard let eq = v.firstIndex(of: "=") else { _ = try parseScreen(v); return }
        let trait = String(v[..<eq])
        let values = String(v[v.index(after: eq)...])
        guard !values.isEmpty else { throw UsageError(message: "'--screen \(v)' gives \(trait) no value (TRAIT=V[,V...], e.g. userInterfaceStyle=dark)") }
        let entries = try commaList("--screen \(trait)", values).map { try parseScreen(trait + "=" + $0) }
        if let k = s.screens.firstIndex(where: { $0.trait == trait }) {
            s.screens[k].values += entries
        } else {
            s.screens.append((trait, entries))
        }
    },
    HostOption(name: "--timeout", argument: "SECONDS", group: .limits,
               help: "stop code that runs longer (0: no limit); exit 1") { v, s in
        s.timeout = try parseTimeout(v)
    },
    HostOption(name: "--memory-limit", argument: "SIZE", group: .limits,
               help: "cap what code makes the process hold: bytes, or 512K, 64M, 1G (at least 256K)") { v, s in
        s.host.memoryLimit = try parseMemoryLimit(v)
    },
    HostOption(name: "--sandbox", argument: nil, group: .limits,
               help: "run untrusted code: no io, os limited to clock/time/date/difftime, no C modules, dofile, loadfile or binary chunks") { _, s in
        s.host.sandbox = true
    },
]

/// The row of `name` among `names` (the rows a command takes), or nil.
func hostOption(_ name: String, among names: Set<String>? = nil) -> HostOption? {
    guard names?.contains(name) ?? true else { return nil }
    return hostOptions.first { $0.name == name }
}

/// Reads the host option at `args[i]` (`--name value` or `--name=value`),
/// moving `i` past its value. Returns false when `args[i]` is none of the
/// rows `names` allows.
func readHostOption(_ args: [String], _ i: inout Int, into settings: inout HostSettings,
                    among names: Set<String>? = nil) throws -> Bool {
    let a = args[i]
    var name = a
    var inline: String?
    if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
        name = String(a[..<eq])
        inline = String(a[a.index(after: eq)...])
    }
    guard let row = hostOption(name, among: names) else { return false }
    if row.argument == nil {
        guard inline == nil else { throw UsageError(message: "'\(name)' takes no argument") }
        try row.apply("", &settings)
        return true
    }
    let value: String
    if let inline {
        value = inline
    } else {
        i += 1
        guard i < args.count else { throw UsageError(message: "'\(name)' needs argument") }
        value = args[i]
    }
    try row.apply(value, &settings)
    return true
}

/// `text` in lines of at most `width` characters, broken at spaces.
func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        if !line.isEmpty && line.count + 1 + word.count > width {
            lines.append(line)
            line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
    return lines
}

/// A list option's comma-separated values, none of them empty.
func commaList(_ flag: String, _ text: String) throws -> [String] {
    let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard !items.contains(where: \.isEmpty) else { throw UsageError(message: "'\(flag)' has an empty value in '\(text)'") }
    return items
}

/// `--orientation`: one of `UIInterfaceOrientation`'s four cases, by name.
func parseOrientation(_ text: String) throws -> Orientation {
    guard let o = Orientation(rawValue: text) else {
        throw UsageError(message: "invalid --orientation value '\(text)' (\(Orientation.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    return o
}

/// `--scene-size`: a named size (`full`, `2/3`, `1/2`, `1/3`, `slideOver`)
/// or `WxH`, a width and a height in points (a Stage Manager window), each
/// a positive number of at most 100,000 points.
func parseSceneSize(_ text: String) throws -> SceneSize {
    if let named = SceneSize(name: text) { return named }
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    func points(_ t: Substring) -> Double? {
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let d = Double(t),
              d > 0, d <= 100_000 else { return nil }
        return d
    }
    guard parts.count == 2, let w = points(parts[0]), let h = points(parts[1]) else {
        throw UsageError(message: "invalid --scene-size value '\(text)' (full, 2/3, 1/2, 1/3, slideOver, or WxH in points such as 700x900, each above 0 and at most 100000)")
    }
    return .custom(Size(w, h))
}

/// A scene size as the command line writes it (`1/3`, `700x900`).
func sceneSizeArgument(_ size: SceneSize) -> String {
    guard case .custom(let s) = size else { return size.description }
    func points(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
    return points(s.width) + "x" + points(s.height)
}

/// Why the device, orientation and scene size of one run do not go
/// together (an orientation the device does not turn to, a size it does
/// not offer there), or nil when they do.
func screenConfigurationProblem(_ device: Device, _ orientation: Orientation, _ sceneSize: SceneSize) -> String? {
    do {
        _ = try device.scene(sceneSize, orientation: orientation)
        return nil
    } catch let e as TraitError {
        return e.message
    } catch {
        return "\(error)"
    }
}

/// `--timeout SECONDS`: a number of seconds, 0 for none.
func parseTimeout(_ v: String) throws -> Double? {
    guard let seconds = Double(v), seconds.isFinite, seconds >= 0, seconds <= 1e9 else {
        throw UsageError(message: "invalid --timeout value '\(v)' (seconds, a number; 0 for none)")
    }
    return seconds > 0 ? seconds : nil
}

#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitLabLua
import TraitLabSwiftExport

// `traitlab swift export|import`: from prototype to app and back.
//
// export runs the named scripts and plugins in a sandboxed host and prints
// Swift source for what they defined (TraitLabSwiftExport does the writing).
// import is a program of its own, `traitlab-swift-import`, built from the
// SwiftImport package beside this one: it needs swift-syntax, whose build
// takes minutes, so neither this binary nor its tests depend on it.

let swiftUsage = """
usage: traitlab swift export [--only NAME...] [--module-header on|off] [--case-iterable]
                             [--deployment-target VERSION] [-o FILE] [--plugin-path DIR]
                             [--timeout SECONDS] [--memory-limit SIZE] FILE...
       traitlab swift import [--name NAME] [-o FILE] [--platform ios|tvos|visionos|maccatalyst]
                             [--define NAME]... [--simulator] [--can-import MODULE]...
                             [--cannot-import MODULE]... [--types FILE|FOLDER]...
                             [--enum TYPE=case,case,...]... FILE|FOLDER...
export runs each FILE (a script, a plugin returning a manifest, or a plugin name) in a sandbox and
prints Swift source for the custom traits, trait enums, SwiftUI environment keys and
bridges it defined, in the pattern of WWDC23's "Unleash the UIKit trait system".
  --only NAME...         export only these (trait, enum or key names, properties or
                         Swift type names; commas also separate); a key brings its trait
  --module-header on|off start with a comment and the import lines (default on)
  --case-iterable        enums defined in Lua conform to CaseIterable
  --deployment-target V  the app's iOS version: from 17, definitions defined in Lua
                         are written without @available(iOS 17, tvOS 17, *)
  -o FILE                write to FILE instead of standard output
  --timeout, --memory-limit, --plugin-path   as for traitlab
import reads Swift sources (folders recursively) as the compiler would for one platform
(--platform, default ios; --define sets a condition such as DEBUG) and prints a TraitLab
plugin defining the traits, enums, environment keys and bridges it finds, with how each was
declared, which export writes back. What it cannot translate is listed as FILE:LINE: reason;
the last line counts what was translated and skipped. Enums declared outside the sources:
--types FILE|FOLDER (their Swift), --enum TYPE=a,b,c (an Objective-C enum's cases).
It runs traitlab-swift-import, found beside traitlab or on PATH (build it with
scripts/build-swift-import.sh).
"""

func runSwiftCommand(_ args: [String]) -> Int32 {
    switch args.first {
    case "export": return runSwiftExport(Array(args.dropFirst()))
    case "import": return runSwiftImport(Array(args.dropFirst()))
    case "-h", "--help":
        writeOut(swiftUsage + "\n")
        return 0
    default:
        message(args.first.map { "swift: unknown subcommand '\($0)' (export or import)" } ?? "swift: export or import?")
        writeError(swiftUsage + "\n")
        return 2
    }
}

// MARK: - export

private struct ExportInvocation {
    var files: [String] = []
    var options = SwiftExport.Options()
    var output: String?
    /// The host options export takes: --plugin-path, --timeout, --memory-limit.
    var settings = HostSettings()
    var pluginPaths: [String] { settings.host.pluginPaths }
    var timeout: Double? { settings.timeout }
    var memoryLimit: Int? { settings.host.memoryLimit }
}

/// The host options (HostOptions.swift) `traitlab swift export` takes.
private let exportHostOptions: Set<String> = ["--plugin-path", "--timeout", "--memory-limit"]

private func parseExportArguments(_ args: [String]) throws -> ExportInvocation {
    var inv = ExportInvocation()
    var i = 0
    func value(_ name: String) throws -> String {
        i += 1
        guard i < args.count else { throw UsageError(message: "swift export: '\(name)' needs argument") }
        return args[i]
    }
    var onlyOptions = false
    while i < args.count {
        let a = args[i]
        if onlyOptions || !a.hasPrefix("-") || a == "-" {
            inv.files.append(a)
        } else {
            switch a {
            case "--": onlyOptions = true
            case "-o", "--output": inv.output = try value(a)
            case _ where try readHostOption(args, &i, into: &inv.settings, among: exportHostOptions):
                break
            case "--module-header":
                switch try value(a) {
                case "on": inv.options.moduleHeader = true
                case "off": inv.options.moduleHeader = false
                case let v: throw UsageError(message: "swift export: invalid --module-header value '\(v)' (on or off)")
                }
            case "--case-iterable": inv.options.caseIterable = true
            case "--deployment-target":
                let v = try value(a)
                guard let version = Double(v), version > 0 else {
                    throw UsageError(message: "swift export: invalid --deployment-target '\(v)' (an iOS version such as 16.4)")
                }
                inv.options.deploymentTarget = version
            case "--only":
                // Names up to the next option, or the next word that names a file.
                var names: [String] = []
                while i + 1 < args.count, !args[i + 1].hasPrefix("-"), access(args[i + 1], F_OK) != 0 {
                    i += 1
                    names += args[i].split(separator: ",").map(String.init)
                }
                if names.isEmpty { names = try value(a).split(separator: ",").map(String.init) }
                inv.options.only = (inv.options.only ?? []) + names
            case "-h", "--help": throw UsageError(message: "")
            default: throw UsageError(message: "swift export: unrecognized option '\(a)'")
            }
        }
        i += 1
    }
    guard !inv.files.isEmpty else { throw UsageError(message: "swift export: name at least one script or plugin") }
    return inv
}

private func runSwiftExport(_ args: [String]) -> Int32 {
    let inv: ExportInvocation
    do {
        inv = try parseExportArguments(args)
    } catch let e as UsageError {
        if e.message.isEmpty { writeOut(swiftUsage + "\n"); return 0 }
        message(e.message)
        writeError(swiftUsage + "\n")
        return 2
    } catch {
        return usageFailure("\(error)")
    }
    // The scripts are run as `traitlab --sandbox` would run them.
    var invocation = Invocation(argv: ["traitlab"])
    invocation.host.sandbox = true
    invocation.host.pluginPaths = inv.pluginPaths
    invocation.host.memoryLimit = inv.memoryLimit
    invocation.timeout = inv.timeout
    let host: LuaHost
    do {
        host = try makeHost(invocation)
    } catch {
        message("cannot start: \((error as? LuaError)?.text ?? "\(error)")")
        return 1
    }
    var interpreter: Interpreter?
    // Finalizers run at close within the deadline (Interpreter.close).
    defer { if let interpreter { _ = interpreter.close(0) } else { host.close() } }
    // What the scripts (and bridges, run to find their traits) print goes to
    // standard error: standard output is for the Swift source.
    fflush(stdout)
    let savedOut = dup(1)
    dup2(2, 1)
    func restoreOutput() {
        fflush(stdout)
        dup2(savedOut, 1)
        close(savedOut)
    }
    let runner = Interpreter(host: host, invocation: invocation)
    interpreter = runner
    // --timeout covers the scripts and the bridges run to find their traits.
    runner.watchdog?.arm()
    for file in inv.files where runDefinitions(file, runner) != LUA_OK {
        restoreOutput()
        return 1
    }
    var options = inv.options
    options.sources = inv.files
    // The source is asked for from the memory cap as it grows.
    let rendered = Swift.Result {
        try host.withEngineCall {
            try SwiftExport(traits: host.world.registry.definitions, keys: host.world.environmentKeys.keys, options: options)
                .render(budget: host.memoryBudget)
        }
    }
    let timedOut = runner.watchdog?.disarm() == true
    restoreOutput()
    if timedOut {
        message("swift export: timed out after \(Watchdog.describe(inv.timeout ?? 0)) while running the bridges")
        return 1
    }
    let result: SwiftExport.Result
    switch rendered {
    case .success(let r): result = r
    case .failure:   // (the memory cap's refusal, the only error it gives)
        message("swift export: not enough memory" + (inv.memoryLimit.map { " (--memory-limit of \(describeSize($0)) reached)" } ?? ""))
        return 1
    }
    for note in result.notExported { message("swift export: " + note) }
    if !result.unmatched.isEmpty {
        message("swift export: --only: nothing named \(result.unmatched.map { "'\($0)'" }.joined(separator: ", ")) was defined")
        return 1
    }
    if result.traitCount + result.keyCount == 0 {
        message("swift export: nothing to export (\(inv.files.joined(separator: ", ")) defined no exportable custom trait or environment key)")
        return 1
    }
    guard let path = inv.output else {
        writeOut(result.source)
        return 0
    }
    if let problem = writeFile(path, result.source) {
        message("swift export: cannot write \(path): \(problem)")
        return 1
    }
    return 0
}

/// Runs one file: a plugin (a file returning a manifest with `setup`, a
/// folder with init.lua, or a plugin name on the plugin path) is loaded as
/// `--plugin` does; anything else runs as a script. Pending trait work settles after each. Errors are reported.
private func runDefinitions(_ file: String, _ interpreter: Interpreter) -> Int32 {
    // A folder, or a bare name that is no file, is a plugin as for --plugin.
    if isDirectory(file) || (access(file, F_OK) != 0 && !file.contains("/") && !file.hasSuffix(".lua")) {
        return interpreter.doplugin(file)
    }
    let L = interpreter.L
    let base = L.top
    var status = luaL_loadfilex(L, file, "t")
    if status == LUA_OK { status = interpreter.docall(0, 1) }
    if status != LUA_OK, let text = L.string(-1), let api = bustedCall(in: text) {
        // A spec file calls busted's API, which only `traitlab test` gives.
        L.setTop(base)
        message("swift export: \(file) is a spec file (it calls \(api)): export reads scripts and plugins that define traits; run specs with traitlab test")
        return LUA_ERRRUN
    }
    guard status == LUA_OK else { return interpreter.report(status) }
    var isManifest = false
    if lua_type(L, -1) == LUA_TTABLE {
        isManifest = L.rawGet(-1, "setup") == LUA_TFUNCTION
        L.pop()
    }
    L.setTop(base)
    // The manifest chunk runs again inside the plugin load (it only returns a table).
    if isManifest { return interpreter.doplugin(file) }
    return interpreter.report(interpreter.settle())
}

/// The busted function an error says was missing ("attempt to call a nil
/// value (global 'describe')"), or nil.
private func bustedCall(in error: String) -> String? {
    for name in ["describe", "it", "context", "spec", "test", "pending", "insulate", "expose", "setup", "teardown",
                 "before_each", "after_each", "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown"] {
        if error.contains("attempt to call a nil value (global '\(name)')") { return name }
    }
    return nil
}

/// Writes `text` to `path` through a temporary file, so a failed write leaves
/// no half file. Returns a problem, or nil.
private func writeFile(_ path: String, _ text: String) -> String? {
    let tmp = path + ".tmp\(getpid())"
    guard let f = fopen(tmp, "w") else { return String(cString: strerror(errno)) }
    let ok = fputs(text, f) >= 0
    let closed = fclose(f) == 0
    guard ok, closed else {
        unlink(tmp)
        return String(cString: strerror(errno))
    }
    guard rename(tmp, path) == 0 else {
        let problem = String(cString: strerror(errno))
        unlink(tmp)
        return problem
    }
    return nil
}

// MARK: - import

/// Replaces this process with traitlab-swift-import: TRAITLAB_SWIFT_IMPORT
/// if set, else the one beside this executable, else the one on PATH.
private func runSwiftImport(_ args: [String]) -> Int32 {
    let program = "traitlab-swift-import"
    var candidates: [String] = []
    if let env = getenv("TRAITLAB_SWIFT_IMPORT"), env.pointee != 0 { candidates.append(String(cString: env)) }
    if let exe = executablePath() { candidates.append(directory(of: exe) + "/" + program) }
    let argv = [program] + args
    fflush(stdout)
    for path in candidates where access(path, X_OK) == 0 {
        execv(path, cStrings(argv))
        message("swift import: cannot run \(path): \(String(cString: strerror(errno)))")
        return 1
    }
    execvp(program, cStrings(argv))
    let beside = executablePath().map { directory(of: $0) } ?? "the traitlab folder"
    message("swift import: \(program) is not in \(beside) nor on PATH; build it with scripts/build-swift-import.sh")
    return 1
}

/// A NULL-terminated argv; the strings live until exec replaces the process
/// (or for the rest of a failed run, which exits right after).
private func cStrings(_ args: [String]) -> [UnsafeMutablePointer<CChar>?] {
    args.map { strdup($0) } + [nil]
}

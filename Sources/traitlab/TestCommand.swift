#if canImport(Glibc)
import Glibc
#endif
import CLuaShim
import TraitEngine
import TraitLabLua
import TraitLabTestRunner

// `traitlab test`: busted, run inside TraitLab's host. This file only takes
// TraitLab's own options off the command line; everything else is busted's
// (its runner reads it, with `.busted`, helpers and output handlers as under
// `busted`). SpecRunner and the embedded driver (busted.lua) do the rest.

private var testUsage: String { """
usage: traitlab test [paths...] [busted's options] [TraitLab's options]
`traitlab test` is busted (Debian's lua-busted) running inside TraitLab's host:
every busted option, .busted file, tag, helper and output handler works as
under `busted` (busted's own help follows). Each spec file gets a fresh engine
world. TraitLab adds:
Reports:
\(renderUsage(testOwnOptions))\(hostOptionsHelp(among: testHostOptions, lists: true))
The options mean what they mean for scripts, applied to spec code: --timeout
to each call into it (a test, a hook, a describe body, a file's top level),
--memory-limit to what each spec file adds, --sandbox to the code that comes
with the specs (spec files, helpers, .busted), each spec file in a process of
its own, --plugin to every spec file. With several values, --device,
--orientation, --scene-size, --ios and --screen make a matrix: every spec file
runs once per combination (their product, at most 1,024; a combination the
device does not offer, such as an iPhone at 1/3, is left out with a note),
each named in the report, its snapshots kept apart.
Text and TAP end with the line `N passed, N failed` (`, N skipped` may follow);
with junit and json that line goes to standard error.

""" }

private struct TestInvocation {
    var run = BustedRun()
    var settings = HostSettings()
    var help = false
    var version = false
    /// The combinations of the matrix their device does not offer, with why:
    /// left out, each named in a note.
    var leftOut: [(label: String, problem: String)] = []
    var host: LuaHostOptions {
        get { settings.host }
        set { settings.host = newValue }
    }
    /// The matrix options (`--device`, `--orientation`, `--scene-size`,
    /// `--ios`, `--screen`), in order.
    var devices: [Device] { settings.devices }
    var versions: [OSVersion] { settings.versions }
    var screens: [(trait: String, values: [TraitCollection.Entry])] { settings.screens }

    /// The most combinations one run takes (docs/cli.md): a larger matrix is
    /// a usage error naming its size, before anything is built.
    static let maxCombinations = 1024

    /// One value of a matrix option: its label in reports, the options a
    /// worker gets for it, its property for JUnit, and what it says of the
    /// screen (to tell combinations a device does not offer).
    struct Choice {
        var label: String
        var args: [String]
        var property: (String, String)
        var device: Device?
        var orientation: Orientation?
        var sceneSize: SceneSize?
    }

    /// The matrix options' values, one list per dimension (devices,
    /// orientations, scene sizes, versions, then each `--screen` trait in
    /// order). A value named twice (a device and its alias, `--ios 26,26`)
    /// is one value: run once, counted once.
    var dimensions: [[Choice]] {
        var lists: [[Choice]] = [
            devices.map { Choice(label: $0.name, args: ["--device", $0.name], property: ("device", $0.name), device: $0) },
            settings.orientations.map {
                Choice(label: $0.rawValue, args: ["--orientation", $0.rawValue], property: ("orientation", $0.rawValue), orientation: $0)
            },
            settings.sceneSizes.map {
                let v = sceneSizeArgument($0)
                return Choice(label: "scene " + v, args: ["--scene-size", v], property: ("sceneSize", v), sceneSize: $0)
            },
            versions.map { Choice(label: "iOS \($0.major)", args: ["--ios", String($0.major)], property: ("ios", String($0.major))) },
        ]
        for (trait, values) in screens {
            lists.append(values.map { e in
                let v = describeScreenValue(e.value)
                return Choice(label: "\(trait)=\(v)", args: ["--screen", "\(trait)=\(v)"], property: (trait, v))
            })
        }
        return lists.map { list in
            var seen = Set<String>()
            return list.filter { seen.insert($0.label).inserted }
        }.filter { !$0.isEmpty }
    }

    /// How many combinations the matrix options make, or nil past Int's range.
    var combinationCount: Int? {
        var total = 1
        for list in dimensions {
            let (product, overflow) = total.multipliedReportingOverflow(by: list.count)
            if overflow { return nil }
            total = product
        }
        return total
    }

    /// Every combination of the matrix options: their product, the first
    /// dimension slowest, each with why its device does not offer it (an
    /// orientation it does not turn to, a scene size it lacks there), if so.
    var combinations: [(combination: MatrixCombination, problem: String?)] {
        var out: [[Choice]] = [[]]
        for choices in dimensions {
            out = out.flatMap { c in choices.map { c + [$0] } }
        }
        return out.map { choices in
            let combination = MatrixCombination(label: choices.map(\.label), arguments: choices.flatMap(\.args),
                                                properties: choices.map(\.property))
            let device = choices.lazy.compactMap(\.device).first ?? DeviceCatalogue.main
            let problem = screenConfigurationProblem(device, choices.lazy.compactMap(\.orientation).first ?? .portrait,
                                                     choices.lazy.compactMap(\.sceneSize).first ?? .full)
            return (combination, problem)
        }
    }
}

/// A value of `--screen` as it was written.
private func describeScreenValue(_ v: TraitValue) -> String {
    switch v {
    case .string(let s): return s
    case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
    case .int(let n): return String(n)
    case .bool(let b): return String(b)
    default: return ""
    }
}

/// The host options `traitlab test` takes (HostOptions.swift); the matrix
/// options among them are the parent's alone (each worker gets its combination).
let testHostOptions: Set<String> = ["--plugin", "--plugin-path", "--hierarchy", "--assets", "--device", "--orientation",
                                    "--scene-size", "--ios", "--screen", "--timeout", "--memory-limit", "--sandbox"]
private let matrixOptions: Set<String> = ["--device", "--orientation", "--scene-size", "--ios", "--screen"]

/// Takes TraitLab's options out of the command line; the rest is busted's.
private func parseTestArguments(_ args: [String]) throws -> TestInvocation {
    var inv = TestInvocation()
    var busted: [String] = []
    var worker: [String] = []
    var i = 0
    func value(_ flag: String, _ inline: String?) throws -> String {
        if let inline { return inline }
        i += 1
        guard i < args.count else { throw UsageError(message: "'\(flag)' needs argument") }
        return args[i]
    }
    while i < args.count {
        let a = args[i]
        if a == "--" {
            busted += args[i...]
            worker += args[i...]
            break
        }
        var name = a
        var inline: String?
        if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
            name = String(a[..<eq])
            inline = String(a[a.index(after: eq)...])
        } else if a.hasPrefix("-j"), a.count > 2 {
            name = "-j"
            inline = String(a.dropFirst(2))
        }
        let start = i
        if try readHostOption(args, &i, into: &inv.settings, among: testHostOptions) {
            if !matrixOptions.contains(name) { worker += args[start...i] }
            i += 1
            continue
        }
        var keepForWorker = true
        switch name {
        case "--format":
            let v = try value(name, inline)
            guard testFormats.contains(v) else {
                throw UsageError(message: "unknown format '\(v)' (text, tap, junit or json; busted's -o takes any handler)")
            }
            inv.run.format = v
        case "-j", "--jobs":
            let v = try value(name, inline)
            guard let n = Int(v), n >= 1, n <= 1024 else { throw UsageError(message: "-j needs a number of processes (1 to 1024), got '\(v)'") }
            inv.run.jobs = n
            keepForWorker = false
        case "--update-snapshots": inv.run.updateSnapshots = true
        case "--shard":
            inv.run.shard = try parseShard(try value(name, inline))
            keepForWorker = false
        case "--lua":
            // busted's --lua starts busted again under another interpreter.
            throw UsageError(message: "--lua: traitlab test runs busted inside TraitLab's own Lua 5.4 (the engine is part of it), so it cannot run under another interpreter; run `busted --lua=...` for that")
        case "--worker-files": inv.run.workerFiles = try value(name, inline); keepForWorker = false
        case "--worker-events": inv.run.workerEvents = try value(name, inline); keepForWorker = false
        case "--matrix-combination": inv.run.combination = try value(name, inline); keepForWorker = false
        case "--worker-plan": inv.run.workerPlan = try value(name, inline); keepForWorker = false
        case "--worker-notify": inv.run.workerNotify = Int32(try value(name, inline)); keepForWorker = false
        case "--worker-parent": inv.run.workerParent = Int32(try value(name, inline)); keepForWorker = false
        case "-h", "--help":
            inv.help = true
            inv.run.help = true
        case "--version":
            inv.version = true
        default:
            busted.append(a)
        }
        if keepForWorker { worker += args[start...i] }
        i += 1
    }
    // What the host options mean here: the limits and the sandbox apply to
    // spec code (the driver sets them around each call into it), not to the
    // host that runs busted.
    inv.run.timeout = inv.settings.timeout
    inv.run.memoryLimit = inv.settings.host.memoryLimit
    inv.settings.host.memoryLimit = nil
    inv.run.sandbox = inv.settings.host.sandbox
    inv.settings.host.sandbox = false
    inv.run.plugins = inv.settings.plugins
    inv.run.arguments = busted
    inv.run.workerArguments = worker
    let count = inv.combinationCount
    guard let count, count <= TestInvocation.maxCombinations else {
        let size = count.map { String($0) } ?? "more than \(Int.max)"
        throw UsageError(message: "the matrix has \(size) combinations; one run takes at most \(TestInvocation.maxCombinations) (run fewer values, or split the run with several commands)")
    }
    // One combination configures this process (and the workers of -j and
    // --sandbox); several make a matrix, each combination run by worker
    // processes of its own. A combination its device does not offer is left
    // out with a note; when that leaves none, the command line is wrong.
    let all = inv.combinations
    let offered = all.filter { $0.problem == nil }.map(\.combination)
    guard let first = all.first(where: { $0.problem == nil }) else {
        let problem = all.first?.problem ?? "no combination"
        if all.count == 1 {
            throw UsageError(message: problem + (inv.devices.isEmpty ? " (ui.Screen.main is that device unless --device names another)" : ""))
        }
        throw UsageError(message: "none of the \(all.count) combinations is one its device offers (\(problem))")
    }
    if all.count == 1 {
        inv.host.device = inv.devices.first
        inv.host.orientation = inv.settings.orientations.first
        inv.host.sceneSize = inv.settings.sceneSizes.first
        if let v = inv.versions.first { inv.host.os = v }
        inv.host.screenSettings = inv.screens.flatMap(\.values)
        inv.run.workerArguments += first.combination.arguments
    } else {
        inv.run.matrix = offered.map { c in
            var c = c
            c.arguments += ["--matrix-combination", "[" + c.label.joined(separator: ", ") + "]"]
            return c
        }
        inv.leftOut = all.compactMap { c in c.problem.map { ("[" + c.combination.label.joined(separator: ", ") + "]", $0) } }
    }
    // Bazel's sharding (the test encyclopedia, "Test sharding":
    // https://bazel.build/reference/test-encyclopedia#test-sharding): the
    // total and a 0-based index in the environment, and a file the runner
    // touches to say it shards. Read by the parent only (workers inherit the
    // environment, and get their files from it); --shard wins.
    if inv.run.workerFiles == nil, inv.run.workerPlan == nil, inv.run.shard == nil {
        inv.run.shard = try bazelShard()
    }
    // A worker reports to its parent only (through the recorder handler).
    if inv.run.workerFiles != nil { inv.run.format = nil }
    return inv
}

/// `--shard K/N`: the K-th of N slices, K from 1 to N.
private func parseShard(_ text: String) throws -> (index: Int, count: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
          let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= maxShards, k >= 1, k <= n else {
        throw UsageError(message: "invalid --shard value '\(text)': K/N runs the K-th of N slices, 1 <= K <= N <= \(maxShards) (such as --shard 2/4)")
    }
    return (k, n)
}

/// The most slices a run is cut into.
private let maxShards = 100_000

/// Bazel's `TEST_TOTAL_SHARDS` and 0-based `TEST_SHARD_INDEX` as a shard
/// (K = index + 1), or nil when they are not set. Touches
/// `TEST_SHARD_STATUS_FILE`, which tells Bazel the runner shards (without
/// it, Bazel's --incompatible_check_sharding_support fails the test).
private func bazelShard() throws -> (index: Int, count: Int)? {
    // (A variable set to nothing is as good as unset: a CI step that passes
    // Bazel's variables through may leave them empty.)
    let env = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
    let total = env("TEST_TOTAL_SHARDS"), index = env("TEST_SHARD_INDEX")
    guard total != nil || index != nil else { return nil }
    let digits = { (text: String) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
    guard let total, let index, digits(total), digits(index), let n = Int(total), let i = Int(index),
          n >= 1, n <= maxShards, i < n else {
        throw UsageError(message: "invalid sharding environment: TEST_TOTAL_SHARDS='\(total ?? "")', TEST_SHARD_INDEX='\(index ?? "")' (Bazel sets both: a total of 1 to \(maxShards), an index from 0 below it)")
    }
    if let status = env("TEST_SHARD_STATUS_FILE"), !status.isEmpty {
        let fd = open(status, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        if fd >= 0 {
            _ = futimens(fd, nil)
            close(fd)
        }
    }
    return (i + 1, n)
}

/// The test deadline: the CLI's watchdog, armed on the main thread. Code stuck
/// where no hook runs (a long C call) ends the process 5 seconds after the
/// deadline (under -j the parent reports that worker's files as failed).
private final class TestDeadline: SpecDeadline {
    private var watchdog: Watchdog?
    func arm(_ L: LuaStatePointer, seconds: Double) {
        if watchdog == nil || watchdog?.seconds != seconds {
            watchdog = Watchdog(state: L, seconds: seconds, hardStopGrace: 5)
        }
        watchdog?.arm()
    }
    func disarm() -> Bool { watchdog?.disarm() ?? false }
    var message: String { "timed out after " + Watchdog.describe(watchdog?.seconds ?? 0) }
}

/// The note on the combinations a matrix leaves out (their device does not
/// offer them): how many, and the first few with why.
private func noteLeftOut(_ list: [(label: String, problem: String)]) {
    var text = "traitlab test: \(list.count) combination\(list.count == 1 ? "" : "s") left out, not offered by the device:\n"
    for (label, problem) in list.prefix(5) { text += "  \(label): \(problem)\n" }
    if list.count > 5 { text += "  ... and \(list.count - 5) more\n" }
    writeError(text)
}

/// `traitlab test ...`: busted's exit status (0 when everything passed),
/// 2 on a usage error of TraitLab's options.
func runTestCommand(_ args: [String]) -> Int32 {
    let inv: TestInvocation
    do {
        inv = try parseTestArguments(args)
    } catch let e as UsageError {
        message(e.message)
        writeError("Try 'traitlab test --help' for the options.\n")
        return 2
    } catch {
        return usageFailure("\(error)")
    }
    if inv.version {
        writeOut(versionLine() + "\n")
        return 0
    }
    // TraitLab's usage first; the driver then prints busted's options.
    if inv.help { writeOut(testUsage) }
    if !inv.leftOut.isEmpty { noteLeftOut(inv.leftOut) }
    var hostOptions = inv.host
    // A limit makes the host count its bytes; the driver sets the real cap
    // around each call into spec code.
    if inv.run.memoryLimit != nil { hostOptions.memoryLimit = 1 << 60 }
    hostOptions.sandboxedLibrary = inv.run.sandbox
    let host: LuaHost
    do {
        host = try LuaHost(options: hostOptions)
    } catch {
        message("cannot start: \((error as? LuaError)?.text ?? "\(error)")")
        return 1
    }
    defer { host.close() }
    guard SpecRunner.bustedRunnerPath(host) != nil else {
        message("""
        busted is not installed: `traitlab test` runs Debian's lua-busted inside TraitLab.
        Install it with `sudo apt-get install lua-busted` (or run `bash scripts/setup.sh` in TraitLab's checkout).
        """)
        return 1
    }
    let exe = executablePath() ?? CommandLine.arguments[0]
    if let plan = inv.run.workerPlan {
        return runWorkerPlan(inv, plan: plan, host: host, executable: exe)
    }
    // Ctrl-C as under `lua5.4 busted`: the spec code running fails with
    // "interrupted!" and the run goes on; a second Ctrl-C ends it.
    catchInterrupts(host.L)
    let deadline = TestDeadline()
    let outcome = SpecRunner.run(inv.run, host: host, deadline: deadline, executable: exe)
    releaseInterrupts()
    return SpecRunner.finish(outcome, host: host, deadline: deadline, timeout: inv.run.timeout, worker: inv.run.workerFiles != nil)
}


// ---------------------------------------------------------------------------
// A worker that runs several groups of files (a matrix's combinations, or one
// file each under --sandbox) loads busted once, then forks a process per
// group from that loaded state: each group still runs in a process of its
// own, with busted's runner, the `.busted` file and helpers run afresh, as a
// worker started for it alone would; only the loading is shared.

/// One group of a worker's plan (busted_workers.lua writes the plan): its
/// files' list, where its events go, and the options of its combination.
private struct PlannedGroup {
    var files = ""
    var events = ""
    var arguments: [String] = []
}

/// The plan: `status PATH` once, then per group `files PATH`, `events PATH`,
/// `arg A`... and `end`, one item a line. Written by the parent, for this
/// process alone.
private func readPlan(_ path: String) -> (status: String, groups: [PlannedGroup])? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var status = ""
    var groups: [PlannedGroup] = []
    var current = PlannedGroup()
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, f) > 0, let bytes = line {
        var text = String(cString: bytes)
        if text.hasSuffix("\n") { text.removeLast() }
        let (tag, rest) = text.firstIndex(of: " ").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) } ?? (text, "")
        switch tag {
        case "status": status = rest
        case "files": current.files = rest
        case "events": current.events = rest
        case "arg": current.arguments.append(rest)
        case "end": groups.append(current); current = PlannedGroup()
        default: return nil
        }
    }
    return status.isEmpty ? nil : (status, groups)
}

/// Runs a worker's plan: busted loaded here once, each group in a forked
/// process that takes its combination and runs busted as a worker. Writes
/// `INDEX CODE SIGNAL` to the plan's status file as each group ends (CODE
/// -1 when a signal ended it), for the parent to report each group as a
/// worker of its own.
private func runWorkerPlan(_ inv: TestInvocation, plan: String, host: LuaHost, executable: String) -> Int32 {
    // Nothing is left running when the parent ends, however it ended (a
    // SIGTERM or SIGHUP gives it no chance to stop its workers).
    if let parent = inv.run.workerParent, tl_end_with_parent(parent) != 0 { return 1 }
    guard let (statusPath, groups) = readPlan(plan) else {
        message("cannot read the worker plan \(plan)")
        return 1
    }
    guard SpecRunner.preload(inv.run, host: host, executable: executable) else { return 1 }
    guard let statusFile = fopen(statusPath, "w") else {
        message("cannot write the worker status \(statusPath)")
        return 1
    }
    defer { fclose(statusFile) }
    // The parent's notification pipe, only if that is what the descriptor is.
    var notify: Int32?
    if let fd = inv.run.workerNotify, fd > 2 {
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFIFO { notify = fd }
    }
    // Ctrl-C reaches the group's process (its spec fails, as in any worker);
    // this one waits on.
    signal(SIGINT, SIG_IGN)
    for (index, group) in groups.enumerated() {
        fflush(stdout)
        fflush(stderr)
        let worker = getpid()
        let pid = fork()
        if pid == 0 {
            if tl_end_with_parent(worker) != 0 { _exit(1) }
            _exit(runPlannedGroup(inv, group, host: host, executable: executable))
        }
        var code: Int32 = -1
        var signalNumber: Int32 = 0
        if pid < 0 {
            code = 1
            message("cannot start a worker process: \(String(cString: strerror(errno)))")
        } else {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if (status & 0x7f) != 0 && (status & 0x7f) != 0x7f { signalNumber = status & 0x7f } else { code = (status >> 8) & 0xff }
        }
        fputs("\(index + 1) \(code) \(signalNumber)\n", statusFile)
        fflush(statusFile)
        if let fd = notify { _ = write(fd, "g", 1) }
    }
    return 0
}

/// In the forked process: the group's command line read as a worker's
/// (the worker's own options, the combination's, its files and events), its
/// combination given to the host, then busted run as in any worker.
private func runPlannedGroup(_ base: TestInvocation, _ group: PlannedGroup, host: LuaHost, executable: String) -> Int32 {
    let inv: TestInvocation
    do {
        inv = try parseTestArguments(base.run.workerArguments + group.arguments
                                     + ["--worker-files", group.files, "--worker-events", group.events])
    } catch {
        message("worker: \((error as? UsageError)?.message ?? "\(error)")")
        return 2
    }
    var options = inv.host
    options.sandboxedLibrary = inv.run.sandbox
    host.reconfigureWorlds(options)
    catchInterrupts(host.L)
    let deadline = TestDeadline()
    let outcome = SpecRunner.run(inv.run, host: host, deadline: deadline, executable: executable)
    releaseInterrupts()
    let status = SpecRunner.finish(outcome, host: host, deadline: deadline, timeout: inv.run.timeout, worker: true)
    fflush(stdout)
    fflush(stderr)
    return status
}

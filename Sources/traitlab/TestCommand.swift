#if canImport(Glibc)
import Glibc
#endif
import CLuaShim
import TraitEngine
import TraitLabLua

// `traitlab test`: finds *_spec.lua files, runs each in a fresh host (in this
// process, or spread over -j worker processes), and reports the merged
// results in one format. The framework itself is Lua (testing.lua, embedded);
// this file is the command line around it.

private let testUsage = """
usage: traitlab test [paths...] [options]
  paths                 spec files, or folders searched for *_spec.lua (default: spec/ if present, else .)
  --format FORMAT       text (default), tap, junit or json
  -o, --output FILE     also write the JUnit or JSON document alone to FILE
  --filter PATTERN      run only tests whose full name matches (repeatable)
  --exclude PATTERN     skip tests whose full name matches (repeatable)
  --list                list the tests, run nothing
  --shuffle             run tests in random order (--seed N to repeat one)
  --seed N              the shuffle seed
  --fail-fast           stop at the first failure
  -j N                  run files in N processes
  --timeout SECONDS     stop a test that runs longer (default 30; 0 for none)
  --hierarchy MODE      ios17 (default) or legacy
  --plugin-path DIR     search DIR for plugins (repeatable)
  --memory-limit SIZE   cap each file's Lua memory (64M, 1G, bytes)
  --sandbox             run spec files without io, os, native code
  -v, --verbose         show passing tests too
  --no-color            never color the text output
"""

private struct TestInvocation {
    var paths: [String] = []
    var format = "text"
    var output: String?
    var run = SpecRunOptions()
    var jobs = 1
    var timeout: Double? = 30
    var host = LuaHostOptions()
    var verbose = false
    var color = isatty(1) != 0 && getenv("NO_COLOR") == nil
    var workerOutput: String?
}

/// Reads the options; a bad one is a usage error (exit 2).
private func parseTestArguments(_ args: [String]) throws -> TestInvocation {
    var inv = TestInvocation()
    var i = 0
    func value(_ flag: String) throws -> String {
        i += 1
        guard i < args.count else { throw UsageError(message: "'\(flag)' needs an argument") }
        return args[i]
    }
    while i < args.count {
        let a = args[i]
        switch a {
        case "--format":
            inv.format = try value(a)
            guard ["text", "tap", "junit", "json"].contains(inv.format) else {
                throw UsageError(message: "unknown format '\(inv.format)' (text, tap, junit or json)")
            }
        case "-o", "--output": inv.output = try value(a)
        case "--filter": inv.run.filters.append(try value(a))
        case "--exclude": inv.run.excludes.append(try value(a))
        case "--list": inv.run.list = true
        case "--shuffle": inv.run.shuffle = true
        case "--seed":
            let v = try value(a)
            guard let n = Int(v) else { throw UsageError(message: "--seed needs a whole number, got '\(v)'") }
            inv.run.seed = n
            inv.run.shuffle = true
        case "--fail-fast": inv.run.failFast = true
        case "-j", "--jobs":
            let v = try value(a)
            guard let n = Int(v), n >= 1 else { throw UsageError(message: "-j needs a positive whole number, got '\(v)'") }
            inv.jobs = n
        case "--timeout":
            let v = try value(a)
            guard let s = Double(v), s >= 0, s.isFinite else { throw UsageError(message: "--timeout needs a number of seconds, got '\(v)'") }
            inv.timeout = s > 0 ? s : nil
        case "--hierarchy":
            let v = try value(a)
            guard let mode = HierarchyMode(rawValue: v) else { throw UsageError(message: "--hierarchy must be ios17 or legacy, got '\(v)'") }
            inv.host.hierarchyMode = mode
        case "--plugin-path": inv.host.pluginPaths.append(try value(a))
        case "--memory-limit":
            let v = try value(a)
            guard let n = parseSize(v) else { throw UsageError(message: "--memory-limit needs a size like 64M or 1G, got '\(v)'") }
            inv.host.memoryLimit = n
        case "--sandbox": inv.host.sandbox = true
        case "-v", "--verbose": inv.verbose = true
        case "--no-color": inv.color = false
        case "--worker-output": inv.workerOutput = try value(a)
        case "-h", "--help": throw HelpRequest()
        default:
            if a.hasPrefix("-") && a != "-" { throw UsageError(message: "unknown option '\(a)' for traitlab test") }
            inv.paths.append(a)
        }
        i += 1
    }
    return inv
}

private struct HelpRequest: Error {}

// MARK: - Finding spec files

/// Spec files under the given paths: folders are searched recursively for
/// *_spec.lua (skipping hidden and build folders), files are always taken.
private func discoverSpecs(_ paths: [String]) throws -> [String] {
    var roots = paths
    if roots.isEmpty { roots = [isDirectory("spec") ? "spec" : "."] }
    var found: [String] = []
    for root in roots {
        if isDirectory(root) {
            found += specFiles(in: root)
        } else if access(root, R_OK) == 0 {
            found.append(root)
        } else {
            throw UsageError(message: "no such file or folder: \(root)")
        }
    }
    var seen = Set<String>()
    return found.filter { seen.insert($0).inserted }
}

private func specFiles(in folder: String) -> [String] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var files: [String] = [], folders: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name.hasPrefix(".") { continue }
        let path = folder == "." ? name : folder + "/" + name
        if isDirectory(path) {
            if !name.hasPrefix(".build") && name != "node_modules" { folders.append(path) }
        } else if name.hasSuffix("_spec.lua") {
            files.append(path)
        }
    }
    return files.sorted() + folders.sorted().flatMap(specFiles(in:))
}

// MARK: - Running

/// Arms the watchdog on each test's coroutine.
private final class TestWatchdog: TestTimer {
    let watchdog: Watchdog
    init(_ L: OpaquePointer, seconds: Double) { watchdog = Watchdog(state: L, seconds: seconds) }
    func arm(_ coroutine: LuaStatePointer) { watchdog.arm(coroutine) }
    func disarm(_ coroutine: LuaStatePointer) { watchdog.disarm() }
}

private func runInProcess(_ files: [String], _ inv: TestInvocation) -> [String] {
    files.map { file in
        var timer: TestWatchdog?
        return SpecRunner.runFile(file, host: inv.host, run: inv.run, prepare: { host in
            if let seconds = inv.timeout {
                timer = TestWatchdog(host.L, seconds: seconds)
                host.testTimer = timer
            }
        })
    }
}

/// Spreads files over `jobs` processes (`traitlab test --worker-output FILE
/// ...files`), each writing one JSON result per line, and collects them.
private func runInWorkers(_ files: [String], _ inv: TestInvocation, arguments: [String]) -> [String] {
    let jobs = min(inv.jobs, files.count)
    var buckets = Array(repeating: [String](), count: jobs)
    for (k, f) in files.enumerated() { buckets[k % jobs].append(f) }
    var running: [(pid: pid_t, output: String, files: [String])] = []
    let exe = executablePath() ?? CommandLine.arguments[0]
    for bucket in buckets {
        var template = Array("/tmp/traitlab-worker-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { continue }
        close(fd)
        let output = String(cString: template)
        let argv = [exe, "test"] + arguments + ["--worker-output", output, "--format", "json"] + bucket
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        if posix_spawn(&pid, exe, nil, nil, cArgs, environ) == 0 {
            running.append((pid, output, bucket))
        } else {
            unlink(output)
        }
    }
    var results: [String] = []
    for w in running {
        var status: Int32 = 0
        waitpid(w.pid, &status, 0)
        let lines = readFile(w.output)?.split(separator: "\n").map(String.init) ?? []
        unlink(w.output)
        results += lines
        // A worker that died (a crash in a spec) still accounts for its files.
        for f in w.files.dropFirst(lines.count) {
            results.append(SpecRunner.errorResult(f, "the worker process running this file exited abnormally (status \(status))"))
        }
    }
    return results
}

private func readFile(_ path: String) -> String? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

private func writeFile(_ path: String, _ text: String) -> Bool {
    guard let f = fopen(path, "wb") else { return false }
    defer { fclose(f) }
    var text = text
    return text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
}

// MARK: - Entry point

/// `traitlab test ...`: exit 0 when nothing failed, 1 when a test failed,
/// 2 on a usage error.
func runTestCommand(_ args: [String]) -> Int32 {
    let inv: TestInvocation
    do {
        inv = try parseTestArguments(args)
    } catch is HelpRequest {
        writeOut(testUsage)
        return 0
    } catch let e as UsageError {
        message(e.message)
        writeError(testUsage)
        return 2
    } catch {
        return usageFailure("\(error)")
    }
    let files: [String]
    do {
        files = try discoverSpecs(inv.paths)
    } catch let e as UsageError {
        message(e.message)
        return 2
    } catch {
        return usageFailure("\(error)")
    }
    if files.isEmpty {
        message("no *_spec.lua files found in \(inv.paths.isEmpty ? "." : inv.paths.joined(separator: ", "))")
        writeOut("0 passed, 0 failed\n")
        return 1
    }

    // A worker runs its files and writes one JSON result per line.
    if let out = inv.workerOutput {
        let results = runInProcess(files, inv)
        return writeFile(out, results.map { $0 + "\n" }.joined()) ? 0 : 1
    }

    let results: [String]
    if inv.jobs > 1 && files.count > 1 {
        let passThrough = args.filter { !files.contains($0) && !inv.paths.contains($0) }
        results = runInWorkers(files, inv, arguments: stripJobs(passThrough))
    } else {
        results = runInProcess(files, inv)
    }
    do {
        let report = try SpecRunner.report(results, format: inv.format, color: inv.color && inv.format == "text",
                                           verbose: inv.verbose, suiteName: "traitlab")
        writeOut(report.output)
        if let path = inv.output, !writeFile(path, report.document) {
            message("cannot write \(path)")
            return 1
        }
        return report.failed ? 1 : 0
    } catch {
        message("cannot report results: \((error as? LuaError)?.text ?? "\(error)")")
        return 1
    }
}

/// The options a worker gets: everything but -j and the output/format choices.
private func stripJobs(_ args: [String]) -> [String] {
    var out: [String] = []
    var i = 0
    while i < args.count {
        switch args[i] {
        case "-j", "--jobs", "--format", "-o", "--output": i += 2
        default: out.append(args[i]); i += 1
        }
    }
    return out
}

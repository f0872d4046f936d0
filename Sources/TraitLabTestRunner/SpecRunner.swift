#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import CSpecRunner
import TraitEngine
import TraitLabLua

/// What `traitlab test` asks of one run of busted.
public struct BustedRun {
    /// busted's own command line (paths, options), passed through unchanged.
    public var arguments: [String] = []
    /// `--format`: text, tap, junit or json (nil: busted's default handler).
    public var format: String?
    /// `--timeout`: seconds each call into spec code may take (nil: none).
    public var timeout: Double?
    /// `--memory-limit`: bytes each spec file may add to the Lua heap.
    public var memoryLimit: Int?
    /// `--sandbox`: spec code runs with the sandbox's globals.
    public var sandbox = false
    /// The combinations of a matrix run (`--device A,B --ios 17,26`): empty
    /// for a single run.
    public var matrix: [MatrixCombination] = []
    /// In a worker of a matrix: the label of the combination it runs
    /// (`[iPad Pro 13-inch (M5), iOS 17]`), which names its snapshot files.
    public var combination: String?
    /// `--shard K/N` (or Bazel's variables): run the K-th of N slices of the
    /// spec files and combinations (K from 1).
    public var shard: (index: Int, count: Int)?
    /// `--update-snapshots`: assert.matches_snapshot writes what it sees.
    public var updateSnapshots = false
    /// `--plugin NAME|PATH`: plugins loaded for every spec file.
    public var plugins: [String] = []
    /// `-j N`: files run in N worker processes.
    public var jobs = 1
    /// `--help`: the driver prints busted's options (after TraitLab's usage) and runs nothing.
    public var help = false
    /// Set in a worker: the file listing its spec files and the file it records events to.
    public var workerFiles: String?
    public var workerEvents: String?
    /// Set in a worker that runs groups of files (each a combination of a
    /// matrix) in processes forked from itself once busted is loaded: the
    /// file listing the groups.
    public var workerPlan: String?
    /// Set in such a worker: the write end of its parent's notification
    /// pipe, a byte written to it as each group ends (so that the parent
    /// publishes that group's files at once, without polling).
    public var workerNotify: Int32?
    /// Set in such a worker: its parent's process id; the worker ends when
    /// that process does (however it ended), and so does each process it forks.
    public var workerParent: Int32?
    /// The `traitlab test` arguments a worker gets (all but -j).
    public var workerArguments: [String] = []
    public init() {}
}

/// One combination of a matrix run: its label (`["iPhone SE (3rd
/// generation)", "iOS 17", "userInterfaceStyle=dark"]`), the options a worker
/// gets for it, and its properties for reports (JUnit's `properties`).
public struct MatrixCombination {
    public var label: [String]
    public var arguments: [String]
    public var properties: [(String, String)]
    public init(label: [String], arguments: [String], properties: [(String, String)]) {
        self.label = label
        self.arguments = arguments
        self.properties = properties
    }
}

/// The deadline `traitlab test` arms around each call into spec code (the
/// CLI's watchdog).
public protocol SpecDeadline: AnyObject {
    func arm(_ L: LuaStatePointer, seconds: Double)
    /// Stops counting; returns whether the deadline passed.
    func disarm() -> Bool
    /// "timed out after N seconds", as the interrupt raises it.
    var message: String { get }
}

/// Runs busted (Debian's `lua-busted`) inside a TraitLab host: busted's own
/// runner reads the command line, loads `.busted`, helpers and output
/// handlers; the embedded driver (`busted.lua`) adds what TraitLab promises
/// on busted's extension points. This file gives the driver the host's
/// functions it needs (`tl`).
public enum SpecRunner {
    /// Where busted's runner is, or nil when busted is not installed.
    public static func bustedRunnerPath(_ host: LuaHost) -> String? {
        let L = host.L
        let base = L.top
        defer { L.setTop(base) }
        guard host.run("return package.searchpath('busted.runner', package.path)", name: "=traitlab", results: 1) == nil else {
            return nil
        }
        return L.string(-1)
    }

    /// What a run ends with: busted's exit status, and the counts of its
    /// closing line with the descriptor it goes to (nil when the run prints
    /// none: a worker, `--list`). The caller writes the line once the state
    /// is closed, so that it stays the last line whatever finalizers print.
    public struct Outcome {
        public var status: Int32
        public var closing: (passed: Int, failed: Int, skipped: Int, descriptor: Int32)?

        /// `N passed, N failed` (`, N skipped` when some were), with
        /// `extraFailures` more failed.
        public func closingLine(extraFailures: Int = 0) -> String? {
            guard let c = closing else { return nil }
            var line = "\(c.passed) passed, \(c.failed + extraFailures) failed"
            if c.skipped > 0 { line += ", \(c.skipped) skipped" }
            return line + "\n"
        }
    }

    /// The exit status of a worker whose finalizers did not return within
    /// `--timeout` while it closed its state: its parent fails the worker's
    /// last file (busted_workers.lua).
    public static let finalizerTimeoutStatus: Int32 = 3

    /// Closes the state after `run`, which runs the finalizers still pending
    /// (as lua.c's `lua_close` does), within `--timeout` when one is set;
    /// then writes the closing line, so that it stays the last line whatever
    /// a finalizer prints. A finalizer that does not return in time fails
    /// the run (one more failure in the closing line); one that loops where
    /// no hook reaches it is ended by the deadline's hard stop, which still
    /// writes that closing line. Returns the exit status.
    public static func finish(_ outcome: Outcome, host: LuaHost, deadline: SpecDeadline, timeout: Double?, worker: Bool) -> Int32 {
        var status = outcome.status
        var extraFailures = 0
        let descriptor = outcome.closing?.descriptor ?? 1
        if let seconds = timeout {
            let failedLine = outcome.closingLine(extraFailures: 1).map { strdup($0) } ?? nil
            tl_deadline_set_epilogue(descriptor, failedLine, worker ? finalizerTimeoutStatus : 1)
            deadline.arm(host.L, seconds: seconds)
            host.close()
            if deadline.disarm() {
                writeStandardError("traitlab: \(deadline.message) while closing the state (a finalizer did not return)\n")
                extraFailures = 1
                status = worker ? finalizerTimeoutStatus : max(status, 1)
            }
            tl_deadline_set_epilogue(-1, nil, 1)
        } else {
            host.close()
        }
        if let line = outcome.closingLine(extraFailures: extraFailures) {
            fflush(stdout)
            var text = line
            text.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
        }
        return status
    }

    /// Loads busted's modules into `host` as the driver would for `run`
    /// (same overrides, same search rules), and runs nothing: a worker then
    /// forks a process per group of files from this loaded state. Returns
    /// false (with a message written) when the driver could not run.
    public static func preload(_ run: BustedRun, host: LuaHost, executable: String) -> Bool {
        let L = host.L
        let base = L.top
        defer { L.setTop(base) }
        do {
            try host.loadEmbedded("busted", from: EmbeddedLua.chunks)
        } catch {
            writeStandardError("traitlab: \((error as? LuaError)?.text ?? "\(error)")\n")
            return false
        }
        let state = DriverState(deadline: nil, executable: executable)
        host.specDriver = state
        defer { host.specDriver = nil }
        host.pushDriverFunctions()
        host.pushDriverOptions(run, executable: executable, preload: true)
        guard tl_pcall(L, 2, 0) == LUA_OK else {
            writeStandardError("traitlab: \(host.popError())\n")
            return false
        }
        return true
    }

    /// Runs busted with `run`'s options in `host`.
    public static func run(_ run: BustedRun, host: LuaHost, deadline: SpecDeadline?, executable: String) -> Outcome {
        let L = host.L
        do {
            try host.loadEmbedded("busted", from: EmbeddedLua.chunks)
        } catch {
            writeStandardError("traitlab: \((error as? LuaError)?.text ?? "\(error)")\n")
            return Outcome(status: 1)
        }
        let state = DriverState(deadline: deadline, executable: executable)
        host.specDriver = state
        defer { host.specDriver = nil }
        host.pushDriverFunctions()
        host.pushDriverOptions(run, executable: executable)
        let base = L.top - 3
        guard tl_pcall(L, 2, LUA_MULTRET) == LUA_OK else {
            writeStandardError("traitlab: \(host.popError())\n")
            return Outcome(status: 1)
        }
        defer { L.setTop(base) }
        var outcome = Outcome(status: Int32(clamping: L.integer(base + 1) ?? 1))
        if L.top >= base + 5, let p = L.integer(base + 2), let f = L.integer(base + 3), let s = L.integer(base + 4),
           let fd = L.integer(base + 5) {
            outcome.closing = (p, f, s, Int32(clamping: fd))
        }
        return outcome
    }
}

func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// What the driver's calls share: the deadline, the stop message, the saved
/// standard output.
final class DriverState {
    let deadline: SpecDeadline?
    let executable: String
    var inSpec = false
    var stopMessage: String?
    var timeout: Double = 0
    var savedStdout: Int32 = -1
    /// The parent of workers: a pipe its workers write a byte to as each of
    /// their groups ends (made at the first spawn; both ends non-blocking,
    /// the read end closed on exec).
    var notifyRead: Int32 = -1
    var notifyWrite: Int32 = -1
    /// The parent of workers: the private folder of this run's plans,
    /// statuses, file lists and records (RunFolder).
    var runFolder: String?

    init(deadline: SpecDeadline?, executable: String) {
        self.deadline = deadline
        self.executable = executable
    }
}

extension LuaHost {
    fileprivate func pushDriverOptions(_ run: BustedRun, executable: String, preload: Bool = false) {
        L.newTable()
        let t = L.top
        if preload { L.push(true); L.rawSet(t, "preload") }
        func strings(_ key: String, _ list: [String]) {
            L.newTable(narr: Int32(list.count))
            for (k, s) in list.enumerated() { L.push(s); lua_rawseti(L, -2, lua_Integer(k + 1)) }
            L.rawSet(t, key)
        }
        strings("args", run.arguments)
        strings("worker_arguments", run.workerArguments)
        strings("plugins", run.plugins)
        if !run.matrix.isEmpty {
            L.newTable(narr: Int32(run.matrix.count))
            for (k, c) in run.matrix.enumerated() {
                L.newTable()
                L.push("[" + c.label.joined(separator: ", ") + "]"); L.rawSet(-2, "label")
                L.newTable()
                for (i, a) in c.arguments.enumerated() { L.push(a); lua_rawseti(L, -2, lua_Integer(i + 1)) }
                L.rawSet(-2, "args")
                L.newTable()
                for (i, p) in c.properties.enumerated() {
                    L.newTable()
                    L.push(p.0); L.rawSet(-2, "name")
                    L.push(p.1); L.rawSet(-2, "value")
                    lua_rawseti(L, -2, lua_Integer(i + 1))
                }
                L.rawSet(-2, "properties")
                lua_rawseti(L, -2, lua_Integer(k + 1))
            }
            L.rawSet(t, "matrix")
        }
        if let f = run.format { L.push(f); L.rawSet(t, "format") }
        if let c = run.combination { L.push(c); L.rawSet(t, "combination") }
        if let s = run.shard {
            L.newTable()
            L.push(s.index); L.rawSet(-2, "index")
            L.push(s.count); L.rawSet(-2, "count")
            L.rawSet(t, "shard")
        }
        if let s = run.timeout { L.push(s); L.rawSet(t, "timeout") }
        if let m = run.memoryLimit { L.push(m); L.rawSet(t, "memory") }
        L.push(run.sandbox); L.rawSet(t, "sandbox")
        L.push(executable); L.rawSet(t, "executable")
        L.push(run.updateSnapshots); L.rawSet(t, "update_snapshots")
        L.push(run.jobs); L.rawSet(t, "jobs")
        L.push(run.help); L.rawSet(t, "help")
        if let files = run.workerFiles, let events = run.workerEvents {
            L.newTable()
            L.push(files); L.rawSet(-2, "files")
            L.push(events); L.rawSet(-2, "events")
            L.rawSet(t, "worker")
        }
    }

    /// The `tl` table of the driver.
    fileprivate func pushDriverFunctions() {
        L.newTable()
        let t = L.top
        func fn(_ name: String, _ body: @escaping LuaFunction) { setFunction(t, "traitlab.test", name, body) }
        lua_pushcclosure(L, tl_coroutine_resume, 0); L.rawSet(t, "resume")
        lua_pushcclosure(L, tl_coroutine_wrap, 0); L.rawSet(t, "wrap")
        lua_pushcclosure(L, tl_xpcall, 0); L.rawSet(t, "xpcall")
        lua_pushcclosure(L, tl_traceback, 0); L.rawSet(t, "traceback")
        lua_pushcclosure(L, tl_lua51_randomseed, 0); L.rawSet(t, "lua51_randomseed")
        lua_pushcclosure(L, tl_lua51_random, 0); L.rawSet(t, "lua51_random")
        lua_pushcclosure(L, tl_record_encode, 0); L.rawSet(t, "encode_record")
        lua_pushcclosure(L, tl_record_decode, 0); L.rawSet(t, "decode_records")
        lua_pushcclosure(L, tl_module_cache_chunk, 0); L.rawSet(t, "cached_chunk")
        lua_pushcclosure(L, tl_module_cache_save, 0); L.rawSet(t, "save_module_cache")
        lua_pushcclosure(L, tl_lua_realpath, 0); L.rawSet(t, "realpath")
        lua_pushcclosure(L, tl_lua_file_kind, 0); L.rawSet(t, "file_kind")
        lua_pushcclosure(L, tl_lua_read_regular, 0); L.rawSet(t, "read_regular")
        lua_pushcclosure(L, tl_lua_write_regular, 0); L.rawSet(t, "write_regular")
        lua_pushcclosure(L, tl_lua_make_folder, 0); L.rawSet(t, "make_folder")
        if (try? pushSandboxModule()) != nil { L.rawSet(t, "sandbox") }
        // part(name): the driver's part lua/NAME.lua, loaded (not run).
        fn("part") { c in
            try c.host.loadEmbedded(try c.string(1), from: EmbeddedLua.chunks)
            return 1
        }
        fn("trust") { c in
            tl_spec_trust(try c.string(1))
            return 0
        }
        // load_plugin(nameOrPath [, env]): a plugin the command line named,
        // for the file about to run (each file starts with a fresh world);
        // `env`, when given, is the globals its code runs with.
        fn("load_plugin") { c in
            let name = try c.string(1)
            let host = c.host
            var env: Int32 = LUA_NOREF
            if lua_type(c.L, 2) == LUA_TTABLE {
                c.L.pushValue(2)
                env = c.L.ref()
            }
            let saved = host.pluginEnvironment
            host.pluginEnvironment = env
            defer {
                host.pluginEnvironment = saved
                if env != LUA_NOREF { host.L.unref(env) }
            }
            try host.loadPlugin(name)
            return 1
        }
        // why(env, traitOrProperty): for assert.has_trait's message, where
        // the value comes from (as :why says it), whether an update is
        // pending for the environment, and the trait's property name.
        fn("why") { c in
            let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
            let def = try c.host.definition(forKey: 2)
            var text = source(of: def, for: env).text
            if let note = staleNote(env) { text += " " + note }
            c.L.push(text)
            c.L.push(env.needsTraitUpdate || c.host.world.needsUpdate)
            c.L.push(def.property)
            return 3
        }
        // run_folder(): the private folder (made at the first call) where
        // the parent of workers keeps a run's files; remove_run_folder()
        // removes it and what it holds.
        fn("run_folder") { c in
            guard let d = c.host.specDriver as? DriverState else { return 0 }
            if d.runFolder == nil { d.runFolder = RunFolder.make() }
            guard let folder = d.runFolder else {
                c.L.pushNil()
                c.L.push("cannot make a folder for the workers' files: \(String(cString: strerror(errno)))")
                return 2
            }
            c.L.push(folder)
            return 1
        }
        fn("remove_run_folder") { c in
            guard let d = c.host.specDriver as? DriverState, let folder = d.runFolder else { return 0 }
            RunFolder.remove(folder)
            d.runFolder = nil
            return 0
        }
        fn("is_terminal") { c in
            c.L.push(isatty(Int32(clamping: c.L.integer(1) ?? -1)) == 1)
            return 1
        }
        fn("full_tracebacks") { c in
            tl_set_full_tracebacks(lua_toboolean(c.L, 1))
            return 0
        }
        fn("reset_world") { c in
            c.host.resetWorld()
            return 0
        }
        fn("counted") { c in
            c.L.push(Int(clamping: tl_counted_bytes(c.host.mainState)))
            return 1
        }
        // guard(seconds, cap): spec code starts; unguard(): it ended, with the
        // reason it was stopped, if it was.
        fn("guard") { c in
            guard let d = (c.host.specDriver as? DriverState) else { return 0 }
            let seconds = c.L.number(1) ?? 0
            let cap = c.L.integer(2) ?? 0
            d.inSpec = true
            d.stopMessage = nil
            d.timeout = seconds
            if seconds > 0 { d.deadline?.arm(c.host.mainState, seconds: seconds) }
            if cap > 0 { tl_set_limit(c.host.mainState, size_t(cap)) }
            return 0
        }
        fn("unguard") { c in
            guard let d = (c.host.specDriver as? DriverState) else { return 0 }
            let fired = d.timeout > 0 && (d.deadline?.disarm() ?? false)
            d.inSpec = false
            tl_set_limit(c.host.mainState, 0)
            tl_clear_over_limit(c.host.mainState)
            tl_clear_interrupt(c.host.mainState)
            if fired, let message = d.deadline?.message {
                c.L.push(message)
            } else if let m = d.stopMessage {
                c.L.push(m)
            } else {
                return 0
            }
            d.stopMessage = nil
            return 1
        }
        // pause() lifts a pending stop while busted publishes an event and
        // returns its reason; resume_stop(reason) sets it again.
        fn("pause") { c in
            let h = tl_gethost(c.host.mainState)!
            let reason = Int(h.pointee.interrupt)
            guard reason != 0 else { return 0 }
            h.pointee.interrupt = 0
            c.L.push(reason)
            return 1
        }
        fn("resume_stop") { c in
            guard let reason = c.L.integer(1), reason != 0 else { return 0 }
            tl_interrupt(c.host.mainState, Int32(reason))
            return 0
        }
        fn("in_spec") { c in
            c.L.push((c.host.specDriver as? DriverState)?.inSpec ?? false)
            return 1
        }
        fn("stop") { c in
            let message = try c.string(1)
            (c.host.specDriver as? DriverState)?.stopMessage = message
            tl_spec_stop(c.host.mainState, message)
            if c.L != c.host.mainState { tl_interrupt_coroutine(c.L, 3) }
            return 0
        }
        fn("redirect_stdout") { c in
            guard let d = (c.host.specDriver as? DriverState), d.savedStdout < 0 else { return 0 }
            fflush(stdout)
            d.savedStdout = tl_dup(1)
            _ = tl_dup2(2, 1)
            return 0
        }
        fn("write_stdout") { c in
            guard let text = c.L.bytes(1) else { return 0 }
            fflush(stdout)
            let fd = (c.host.specDriver as? DriverState).map { $0.savedStdout >= 0 ? $0.savedStdout : 1 } ?? 1
            var offset = 0
            while offset < text.count {
                let n = text.withUnsafeBufferPointer { write(fd, $0.baseAddress! + offset, text.count - offset) }
                if n <= 0 { break }
                offset += n
            }
            return 0
        }
        fn("spawn") { c in
            guard let d = (c.host.specDriver as? DriverState) else { return 0 }
            var argv = [d.executable, "test"]
            let n = c.L.rawLength(1)
            for k in 0..<n {
                lua_rawgeti(c.L, 1, lua_Integer(k + 1))
                argv.append(c.L.string(-1) ?? "")
                c.L.pop()
            }
            if d.notifyRead < 0 {
                var fds: [Int32] = [-1, -1]
                if pipe(&fds) == 0 {
                    d.notifyRead = fds[0]
                    d.notifyWrite = fds[1]
                    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
                    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
                    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
                }
            }
            if argv.contains("--worker-plan") {
                // The worker ends with this process (TestCommand.swift, runWorkerPlan).
                argv.append("--worker-parent=\(getpid())")
                if d.notifyWrite >= 0 { argv.append("--worker-notify=\(d.notifyWrite)") }
            }
            var pid: pid_t = 0
            let cArgs = argv.map { strdup($0) } + [nil]
            defer { cArgs.forEach { free($0) } }
            fflush(stdout)
            let rc = posix_spawn(&pid, d.executable, nil, nil, cArgs, environ)
            guard rc == 0 else {
                c.L.pushNil()
                c.L.push("cannot start a worker process: \(String(cString: strerror(rc)))")
                return 2
            }
            c.L.push(Int(pid))
            return 1
        }
        // wait_any(): the next worker to end: pid, status (or pid, nil, signal);
        // nothing when no child is left.
        // wait_any([seconds]): ... or false when `seconds` passed first.
        fn("wait_any") { c in
            var status: Int32 = 0
            var pid: pid_t = -1
            if let seconds = c.L.number(1) {
                // Also false as soon as a worker says a group of its ended
                // (a byte on the notification pipe), so that the parent
                // reads that group at once.
                let notify = (c.host.specDriver as? DriverState)?.notifyRead ?? -1
                var start = timespec()
                clock_gettime(CLOCK_MONOTONIC, &start)
                while true {
                    pid = waitpid(-1, &status, WNOHANG)
                    if pid != 0 { break }
                    var now = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &now)
                    let waited = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
                    if !(waited < seconds) { break }
                    let step = min(10_000, max(1, (seconds - waited) * 1e6))   // microseconds
                    if notify >= 0 {
                        var p = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
                        if poll(&p, 1, Int32(max(1, (step / 1000).rounded(.up)))) > 0 {
                            var drain = [UInt8](repeating: 0, count: 256)
                            while read(notify, &drain, drain.count) > 0 {}
                            pid = waitpid(-1, &status, WNOHANG)
                            break
                        }
                    } else {
                        usleep(UInt32(step))
                    }
                }
                if pid == 0 { c.L.push(false); return 1 }
            } else {
                repeat { pid = waitpid(-1, &status, 0) } while pid < 0 && errno == EINTR
            }
            guard pid > 0 else { return 0 }
            c.L.push(Int(pid))
            if (status & 0x7f) != 0 && (status & 0x7f) != 0x7f {
                c.L.pushNil()
                c.L.push(Int(status & 0x7f))
                return 3
            }
            c.L.push(Int((status >> 8) & 0xff))
            return 2
        }
        fn("wait") { c in
            guard let pid = c.L.integer(1) else { return 0 }
            var status: Int32 = 0
            while waitpid(pid_t(pid), &status, 0) < 0 && errno == EINTR {}
            let signaled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
            if signaled {
                c.L.pushNil()
                c.L.push(Int(status & 0x7f))
                return 2
            }
            c.L.push(Int((status >> 8) & 0xff))
            return 1
        }
        L.setTop(t)
    }
}

/// The private folder of one `traitlab test` run's worker files, named after
/// the process (`traitlab-test.PID.XXXXXX` in `$TMPDIR`, else /tmp), made
/// by mkdtemp (mode 0700). The run removes it as it ends; a run that was
/// killed cannot, so each new one first removes the folders of runs whose
/// process has ended: only folders (not links) of this user, and in them
/// only the plain files a run writes.
enum RunFolder {
    static let prefix = "traitlab-test."

    static var temporaryFolder: String {
        if let t = getenv("TMPDIR"), t.pointee != 0 { return String(cString: t) }
        return "/tmp"
    }

    static func make() -> String? {
        let base = temporaryFolder
        removeStale(in: base)
        var template = Array((base + "/" + prefix + "\(getpid()).XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
        return String(cString: template)
    }

    /// Removes the plain files in `folder`, then the folder.
    static func remove(_ folder: String) {
        for name in folderEntryNames(folder) ?? [] {
            var st = stat()
            let path = folder + "/" + name
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { unlink(path) }
        }
        rmdir(folder)
    }

    /// The folders of this user's runs that ended without removing theirs.
    static func removeStale(in base: String) {
        var stale: [String] = []
        for name in folderEntryNames(base) ?? [] {
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let dot = rest.firstIndex(of: "."), let pid = pid_t(rest[..<dot]), pid > 0 else { continue }
            if kill(pid, 0) == 0 || errno != ESRCH { continue }   // (running, or not ours to ask)
            var st = stat()
            let path = base + "/" + name
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid() else { continue }
            stale.append(path)
        }
        for path in stale { remove(path) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitEngine
import TraitLabLua

/// One run of `traitlab [options] [script [args]]`: a host and the command
/// line, and the small steps lua.c is made of: `docall` runs a function,
/// `dochunk`/`dofile`/`dostring`/`dolibrary`/`handleScript` run one kind of
/// chunk each, and every failure travels as a status to `report`, which
/// prints it once.
final class Interpreter {
    let host: LuaHost
    let L: LuaState
    let invocation: Invocation
    let watchdog: Watchdog?
    /// lua.c drops the program name from messages in the REPL.
    var reportsProgramName = true
    /// Colors for the REPL's error messages.
    var style = Style(enabled: false)
    /// The REPL keeps its Ctrl-C handler between steps; a batch run restores
    /// the default after each chunk, as lua.c does.
    var keepsInterruptHandler = false

    init(host: LuaHost, invocation: Invocation) {
        self.host = host
        self.L = host.L
        self.invocation = invocation
        self.watchdog = invocation.timeout.map { Watchdog(state: host.L, seconds: $0, hardStopGrace: 1) }
        Interpreter.useInterruptibleCoroutines(host.L)
    }

    /// A debug hook belongs to one Lua thread, so a timeout or Ctrl-C set on
    /// the main thread would miss a loop inside a coroutine (and the REPL
    /// would have to end the session). coroutine.resume and wrap become the
    /// shim's (coroutines.c), which also keep the list of running
    /// coroutines that an interrupt reaches. A message handler runs with
    /// hooks off once a hook raised: xpcall skips it after an interrupt.
    /// (Finalizers, which Lua also runs with hooks off, stay as Lua runs
    /// them: the interrupt reaches them through the allocator; interrupts.c.)
    private static func useInterruptibleCoroutines(_ L: LuaState) {
        let base = L.top
        defer { L.setTop(base) }
        guard lua_getglobal(L, "coroutine") == LUA_TTABLE else { return }
        let t = L.top
        lua_pushcclosure(L, tl_coroutine_resume, 0); L.rawSet(t, "resume")
        lua_pushcclosure(L, tl_coroutine_wrap, 0); L.rawSet(t, "wrap")
        L.setTop(base)
        lua_pushcclosure(L, tl_xpcall, 0)
        lua_setglobal(L, "xpcall")
    }

    /// The mode chunks are loaded in: the sandbox refuses binary chunks,
    /// which can crash the VM.
    var loadMode: String? { invocation.host.sandbox ? "t" : nil }

    // MARK: - Running and reporting

    /// Runs the function below `nargs` arguments in protected mode (lua.c's
    /// `docall`), interruptible by Ctrl-C and by the --timeout watchdog.
    func docall(_ nargs: Int32, _ nresults: Int32) -> Int32 {
        interruptible { tl_pcall_main(L, nargs, nresults) }
    }

    /// Brackets one step of Lua work. Once the deadline has passed every step
    /// fails at once, even one that starts after the watchdog fired; the
    /// interrupt hook is cleared only when the step has unwound, so no
    /// `pcall` inside it could swallow the interrupt.
    func interruptible(_ body: () -> Int32) -> Int32 {
        if watchdog?.hasFired == true { tl_interrupt(L, 1) }
        catchInterrupts(L)
        let status = body()
        if !keepsInterruptHandler { releaseInterrupts() }
        tl_clear_interrupt(L)
        return status
    }

    /// Applies pending trait work, as the end of a run-loop turn would, so
    /// the changes a chunk made take effect (and their callbacks run) before
    /// the next one. A failure is an error like any other.
    func settle() -> Int32 {
        interruptible {
            guard let failure = host.settlePendingWork() else { return LUA_OK }
            L.push(failure)
            // (Out of memory in a callback: reported as report() reports LUA_ERRMEM, with the limit.)
            return failure.hasPrefix("not enough memory") ? LUA_ERRMEM : LUA_ERRRUN
        }
    }

    /// Prints the error on top of the stack, if `status` is one (lua.c's `report`).
    @discardableResult
    func report(_ status: Int32) -> Int32 {
        guard status != LUA_OK else { return status }
        var text = L.string(-1) ?? "(error object is a \(L.typeName(-1)) value)"
        // Memory refused while Swift ran is raised as a plain error with Lua's
        // message, or with the cap's: reported as Lua's own memory error is.
        let isMemoryError = status == LUA_ERRMEM || text == "not enough memory" || text == LuaError.overMemoryLimitMessage
        if isMemoryError, let limit = invocation.host.memoryLimit {
            text = "not enough memory (--memory-limit of \(describeSize(limit)) reached)"
        }
        L.pop()
        message(style.error(text), withProgramName: reportsProgramName)
        return status
    }

    // MARK: - Chunks

    /// Runs a chunk that has just been loaded, or reports why it did not
    /// load; then settles pending trait work.
    func dochunk(_ loadStatus: Int32) -> Int32 {
        var status = loadStatus
        if status == LUA_OK { status = docall(0, 0) }
        if status == LUA_OK { status = settle() }
        return report(status)
    }

    /// Runs a file, or standard input when `path` is nil.
    func dofile(_ path: String?) -> Int32 {
        tl_recover(L)
        return dochunk(luaL_loadfilex(L, path, loadMode))
    }

    func dostring(_ code: String, name: String) -> Int32 {
        dochunk(L.load(code, name: name, mode: loadMode))
    }

    /// `-l`: `global = require(module)`. The global is assigned by a tiny
    /// chunk rather than `lua_setglobal`, so a `__newindex` on `_G` (set up
    /// by LUA_INIT, say) runs protected.
    func dolibrary(global: String, module: String) -> Int32 {
        L.pushGlobals()
        L.rawGet(-1, "require")
        tl_remove(L, -2)
        L.push(module)
        var status = docall(1, 1)
        if status == LUA_OK {
            status = L.load("local name, value = ...; _ENV[name] = value", name: "=(command line)")
            if status == LUA_OK {
                tl_insert(L, -2)          // setter below the module's value
                L.push(global)
                tl_insert(L, -2)          // setter, name, value
                status = docall(2, 0)
            }
        }
        if status == LUA_OK { status = settle() }
        return report(status)
    }

    /// `--plugin NAME|PATH`: loads a plugin (and what it requires) the way
    /// `plugins.load` does.
    func doplugin(_ nameOrPath: String) -> Int32 {
        let base = L.top
        var status = interruptible {
            do {
                try host.loadPlugin(nameOrPath)
                return LUA_OK
            } catch {
                L.setTop(base)
                L.push((error as? LuaError)?.text ?? "\(error)")
                return LUA_ERRRUN
            }
        }
        if status == LUA_OK {
            L.setTop(base)
            status = settle()
        }
        return report(status)
    }

    /// The script, with `arg[1..#arg]` as its `...` (lua.c's `handle_script`).
    /// "-" is standard input unless it came after "--".
    func handleScript() -> Int32 {
        let argv = invocation.argv
        let name = argv[invocation.script]
        let path: String? = name == "-" && argv[invocation.script - 1] != "--" ? nil : name
        tl_recover(L)
        var status = luaL_loadfilex(L, path, loadMode)
        if status == LUA_OK {
            let n = pushScriptArguments()
            status = n < 0 ? LUA_ERRRUN : docall(n, LUA_MULTRET)
        }
        if status == LUA_OK { status = settle() }
        return report(status)
    }

    /// Pushes `arg[1] .. arg[#arg]` as they are now (a LUA_INIT or -e may have
    /// changed them, and lua.c honours that). Returns how many, or -1 with an
    /// error message pushed.
    private func pushScriptArguments() -> Int32 {
        L.pushGlobals()
        let args = L.top
        guard L.rawGet(args, "arg") == LUA_TTABLE else {
            L.setTop(args - 1)
            L.push("'arg' is not a table")
            return -1
        }
        let table = L.top
        let n = Int32(clamping: lua_rawlen(L, table))
        guard lua_checkstack(L, n + 3) != 0 else {
            L.setTop(args - 1)
            L.push("too many arguments to script")
            return -1
        }
        for i in 0..<n { lua_rawgeti(L, table, lua_Integer(i + 1)) }
        tl_remove(L, table)
        tl_remove(L, args)
        return n
    }

    /// LUA_INIT_5_4, else LUA_INIT: code, or `@file` (lua.c's `handle_luainit`).
    func handleLuaInit() -> Int32 {
        var name = "LUA_INIT_5_4"
        var value = getenv(name)
        if value == nil {
            name = "LUA_INIT"
            value = getenv(name)
        }
        guard let value else { return LUA_OK }
        let text = String(cString: value)
        if text.hasPrefix("@") { return dofile(String(text.dropFirst())) }
        return dostring(text, name: "=" + name)
    }

    /// -e, -l, -W and --plugin, in command-line order. Stops at the first failure.
    func runSteps() -> Bool {
        for step in invocation.steps {
            let status: Int32
            switch step {
            case .execute(let code): status = dostring(code, name: "=(command line)")
            case .require(let global, let module): status = dolibrary(global: global, module: module)
            case .plugin(let name): status = doplugin(name)
            case .warningsOn:
                lua_warning(L, "@on", 0)
                status = LUA_OK
            }
            L.setTop(0)
            if status != LUA_OK { return false }
        }
        return true
    }

    // MARK: - The arg table

    /// `arg` exactly as lua5.4 builds it: the script at index 0, what came
    /// before it (interpreter and options) at negative indices, the script's
    /// arguments from 1. With no script, the interpreter is at 0.
    func createArgTable() {
        let argv = invocation.argv
        let script = invocation.script
        lua_createtable(L, Int32(max(0, argv.count - script - 1)), Int32(script + 1))
        for (i, a) in argv.enumerated() {
            L.push(a)
            lua_rawseti(L, -2, lua_Integer(i - script))
        }
        L.pushGlobals()
        tl_insert(L, -2)
        L.rawSet(-2, "arg")
        L.pop()
    }

    // MARK: - The whole run

    /// What lua.c's `pmain` does after the state exists: arg, LUA_INIT, the
    /// options that run code, the script, then the REPL or standard input.
    /// Returns the exit status.
    func run() -> Int32 {
        createArgTable()
        watchdog?.arm()
        if !invocation.ignoreEnvironment, handleLuaInit() != LUA_OK { return 1 }
        guard runSteps() else { return 1 }
        if invocation.script > 0 {
            let status = handleScript()
            L.setTop(0)
            if status != LUA_OK { return 1 }
        }
        if invocation.interactive {
            watchdog?.disarm()
            if isatty(0) != 0 { writeOut(worldLine(host.world) + "\n") }
            REPL(interpreter: self).run()
        } else if invocation.script == 0 && !invocation.executes && !invocation.showVersion {
            if isatty(0) != 0 {
                writeOut(versionLine() + "\n" + worldLine(host.world) + "\n")
                watchdog?.disarm()
                REPL(interpreter: self).run()
            } else if dofile(nil) != LUA_OK {
                return 1
            }
        }
        return 0
    }

    /// Closes the state at exit, which runs the finalizers still pending
    /// (lua.c's `lua_close`). Under --timeout they run within the deadline: a
    /// batch run's goes on counting, the REPL gives closing a deadline of its
    /// own; a finalizer stopped there fails the run. Not after a timeout: the
    /// state may be mid-way through code that never unwound.
    func close(_ status: Int32) -> Int32 {
        guard watchdog?.hasFired != true else { return status }
        if let watchdog, !watchdog.isArmed { watchdog.arm() }
        host.close()
        guard watchdog?.disarm() == true else { return status }
        message("timed out after \(Watchdog.describe(watchdog!.seconds)) while closing the state (a finalizer did not return)",
                withProgramName: true)
        return status == 0 ? 1 : status
    }
}

/// "64M", "1G", "1536K", "1000 bytes".
func describeSize(_ bytes: Int) -> String {
    for (unit, size) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes % size == 0 {
        return "\(bytes / size)\(unit)"
    }
    return "\(bytes) bytes"
}

/// The REPL's second banner line: the world it runs, `ui.Screen.main`'s
/// device and orientation, the size its new scenes start at when it is not
/// full, and the OS (`--device`, `--orientation`, `--scene-size`, `--ios`
/// choose them).
func worldLine(_ world: TraitWorld) -> String {
    let screen = world.mainScreen
    let device = screen.device.map { "\($0.name), \(screen.orientation.rawValue)" } ?? "a screen of traits"
    let scenes = world.mainSceneSize == .full ? "" : " · new scenes \(sceneSizeArgument(world.mainSceneSize))"
    return "ui.Screen.main: \(device)\(scenes) · iOS \(world.os) · trait flow \(world.hierarchyMode.rawValue)"
}

/// `-v`, `--version`: TraitLab's version, the Lua it embeds, and the busted
/// `traitlab test` runs (when it is installed).
func versionLine() -> String {
    "TraitLab \(traitLabVersion) — " + String(cString: tl_copyright())
        + (installedBustedVersion().map { " — busted " + $0 } ?? "")
}

/// The version of the busted `require` would find (busted/core.lua sets
/// `busted.version`), read from the file without starting Lua; nil when
/// busted is not installed.
func installedBustedVersion() -> String? {
    var path = "/usr/local/share/lua/5.4/?.lua;/usr/local/share/lua/5.4/?/init.lua;/usr/share/lua/5.4/?.lua;/usr/share/lua/5.4/?/init.lua"
    for name in ["LUA_PATH_5_4", "LUA_PATH"] {
        if let v = getenv(name) {
            path = String(cString: v).replacing(";;", with: ";" + path + ";")
            break
        }
    }
    for template in path.split(separator: ";") where template.hasSuffix("?.lua") {
        let file = template.dropLast("?.lua".count) + "busted/core.lua"
        guard let f = fopen(String(file), "r") else { continue }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), f) != nil {
            let text = String(cString: line)
            let marker = "busted.version = '"
            guard let r = text.firstRange(of: marker) else { continue }
            return String(text[r.upperBound...].prefix { $0 != "'" })
        }
    }
    return nil
}

let traitLabVersion = "0.1.0"

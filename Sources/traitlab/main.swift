#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitLabLua

// traitlab: TraitLab's command line. It reads top to bottom in the order a
// run happens, like lua.c: pick the subcommand, read the options, make the
// host, run (Interpreter.run: arg, LUA_INIT, -e/-l/--plugin, the script, the
// REPL), close. The pieces live beside this file: Options (the command line),
// Interpreter (running chunks and reporting errors), Watchdog and Signals
// (--timeout and Ctrl-C), REPL, LineEditor, Completion, PrettyPrinter,
// Provenance (:traits and :why), ModulePath, TestCommand, Usage (the option
// tables of --help and traitlab(1)), ShellCompletions.

/// A usage error: the message and the short usage on standard error, exit 2.
func usageFailure(_ text: String) -> Int32 {
    message(text)
    writeError(usageSynopsis + "\nTry 'traitlab --help' for the options.\n")
    return 2
}

/// Makes the host the command line asks for. With -E the LUA_PATH family
/// is hidden while the standard libraries open (they read it then, and
/// lua5.4 ignores it under -E) and restored afterwards for `os.getenv` and
/// child processes; TRAITLAB_PLUGIN_PATH, read at every plugin load, stays unset.
func makeHost(_ invocation: Invocation) throws -> LuaHost {
    guard invocation.ignoreEnvironment else { return try prepared(LuaHost(options: invocation.host)) }
    let hidden = ["LUA_PATH_5_4", "LUA_PATH", "LUA_CPATH_5_4", "LUA_CPATH"]
    let saved = hidden.map { name in getenv(name).map { String(cString: $0) } }
    for name in hidden + ["TRAITLAB_PLUGIN_PATH"] { unsetenv(name) }
    defer { for (name, value) in zip(hidden, saved) { if let value { setenv(name, value, 1) } } }
    let host = try prepared(LuaHost(options: invocation.host))
    // The signal lua.c leaves for libraries loaded later.
    lua_pushboolean(host.L, 1)
    lua_setfield(host.L, tl_registryindex(), "LUA_NOENV")
    return host
}

/// From here on the tool's own Swift code drives the state. Marking the
/// innermost frame as Swift makes the shim's allocator note, rather than
/// raise, an allocation past --memory-limit made from this code (a raise
/// here would be outside any protected call); Lua code run through
/// `tl_pcall` still gets "not enough memory".
private func prepared(_ host: LuaHost) -> LuaHost {
    tl_gethost(host.L).pointee.in_swift = 1
    lua_setwarnf(host.L, warningFunction, UnsafeMutableRawPointer(host.L))
    return host
}

// MARK: - Warnings

/// Off until -W or `warn("@on")`, as in lua5.4.
nonisolated(unsafe) private var warningsEnabled = false
nonisolated(unsafe) private var warningContinues = false

/// Lua's warning function: handles the "@on"/"@off" control messages and
/// prints the rest when enabled (a finalizer an interrupt ended says so: see
/// `tl_warning_piece`). `ud` is the state. It never raises.
private func warningFunction(_ ud: UnsafeMutableRawPointer?, _ msg: UnsafePointer<CChar>?, _ tocont: Int32) {
    guard let msg else { return }
    var text = String(cString: msg)
    if !warningContinues && tocont == 0 && text.hasPrefix("@") {
        if text == "@on" { warningsEnabled = true } else if text == "@off" { warningsEnabled = false }
        return
    }
    if let ud, let piece = tl_warning_piece(OpaquePointer(ud), msg, warningContinues ? 1 : 0), piece != msg {
        text = String(cString: piece)
    }
    if warningsEnabled {
        writeError((warningContinues ? "" : "Lua warning: ") + text + (tocont != 0 ? "" : "\n"))
    }
    warningContinues = tocont != 0
}

// MARK: - main

/// `traitlab [options] [script [args]]`.
func runInterpreter(_ argv: [String]) -> Int32 {
    let invocation: Invocation
    do {
        invocation = try parseCommandLine(argv)
    } catch let e as UsageError {
        return usageFailure(e.message)
    } catch {
        return usageFailure("\(error)")
    }
    if invocation.showHelp {
        writeOut(versionLine() + "\n" + usageSynopsis + "\n" + usageOptions + "\n")
        return 0
    }
    if invocation.showVersion { writeOut(versionLine() + "\n") }
    let host: LuaHost
    do {
        host = try makeHost(invocation)
    } catch {
        message("cannot start: \((error as? LuaError)?.text ?? "\(error)")")
        return 1
    }
    let interpreter = Interpreter(host: host, invocation: invocation)
    return interpreter.close(interpreter.run())
}

func traitlabMain(_ argv: [String]) -> Int32 {
    if argv.count > 1 {
        switch argv[1] {
        case "test": return runTestCommand(Array(argv.dropFirst(2)))
        case "module-path": return printModulePath(Array(argv.dropFirst(2)))
        case "types-path": return printTypesPath(Array(argv.dropFirst(2)))
        case "completions": return runCompletionsCommand(Array(argv.dropFirst(2)))
        case "man": return runManCommand(Array(argv.dropFirst(2)))
        case "devices": return runDevicesCommand(Array(argv.dropFirst(2)))
        case "swift": return runSwiftCommand(Array(argv.dropFirst(2)))
        default: break
        }
    }
    return runInterpreter(argv)
}

let status = traitlabMain(CommandLine.arguments)
fflush(stdout)
exit(status)

#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitEngine
import TraitLabLua

/// The interactive loop, as lua.c's `doREPL`: read a line (more while the
/// chunk is incomplete), run it, print what it returned, then apply pending
/// trait work as a run-loop turn would. Lines starting with ':' are commands.
final class REPL {
    private let interpreter: Interpreter
    private let reader: LineReader
    private let style: Style
    private let printer: PrettyPrinter?
    private var autoUpdate = true
    private var L: LuaState { interpreter.L }
    private var host: LuaHost { interpreter.host }

    init(interpreter: Interpreter) {
        self.interpreter = interpreter
        style = Style.forStandardOutput()
        reader = REPL.makeReader()
        printer = PrettyPrinter(interpreter)
        // Trying a trait again at the prompt replaces the earlier one.
        interpreter.host.redefinesTraits = true
    }

    /// libedit on a terminal (loaded now: nothing else needs it), plain reads
    /// otherwise, or on a terminal when libedit cannot be loaded (said once).
    private static func makeReader() -> LineReader {
        guard isatty(0) != 0 else { return PlainLineReader() }
        if let editor = EditLineReader(history: .standard()) { return editor }
        message("line editing is off: \(EditLineReader.loadError) (install Debian's libedit2)")
        return PlainLineReader(echoes: false)
    }

    /// An input, read and compiled.
    private enum Input {
        case chunk(status: Int32)   // the function (or the error) on top
        case command(String)
        case nothing                // blank line or Ctrl-C
    }

    func run() {
        interpreter.reportsProgramName = false
        interpreter.style = style
        interpreter.keepsInterruptHandler = true
        // Completion walks raw tables: ui's classes are made before it looks.
        host.ensureEnvironmentClasses()
        activeCompleter = Completer(host: host)
        if reader is EditLineReader {
            writeOut(style.dim("Type :help for commands and keys, Ctrl-D to quit.") + "\n")
        }
        loop: while let input = readInput() {
            tl_clear_interrupt(L)   // a stray SIGINT while at the prompt
            interpreter.watchdog?.arm()
            switch input {
            case .nothing:
                break
            case .chunk(let status):
                evaluate(status)
                afterInput()
            case .command(let line):
                guard runCommand(line) else { break loop }
                afterInput()
            }
            interpreter.watchdog?.disarm()
        }
        interpreter.watchdog?.disarm()
        activeCompleter = nil
        releaseInterrupts()
        L.setTop(0)
        writeOut("\n")
    }

    // MARK: - Reading (lua.c's loadline, addreturn, multiline, incomplete)

    /// Reads one input; nil at the end of input.
    private func readInput() -> Input? {
        L.setTop(0)
        switch reader.read(prompt: prompt(firstLine: true)) {
        case .end: return nil
        case .interrupted: return .nothing
        case .line(let line):
            if isCommand(line) {
                reader.remember(line)
                return .command(line)
            }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return .nothing }
            // "=expr" is "return expr", for compatibility with Lua 5.2.
            let code = line.hasPrefix("=") ? "return " + line.dropFirst() : line
            if addReturn(code) {
                reader.remember(line)
                return .chunk(status: LUA_OK)
            }
            return multiline(code)
        }
    }

    /// `_PROMPT` or `_PROMPT2` through `tostring` (so an object with
    /// `__tostring` works), else "> " or ">> ": lua.c's `get_prompt`. A
    /// failing `__tostring` is reported and the default used.
    private func prompt(firstLine: Bool) -> String {
        let fallback = firstLine ? "> " : ">> "
        let base = L.top
        defer { L.setTop(base) }
        let code = "local p = " + (firstLine ? "_PROMPT" : "_PROMPT2") + "; if p ~= nil then return tostring(p) end"
        var loaded = true
        let status = bounded {
            guard L.load(code, name: "=prompt", mode: "t") == LUA_OK else { loaded = false; return LUA_OK }
            return tl_pcall(L, 0, 1)
        }
        guard loaded else { return fallback }
        if status != LUA_OK {
            interpreter.report(status)
            return fallback
        }
        return L.string(-1) ?? fallback
    }

    /// Lua work the REPL does between inputs (the prompt's `__tostring`,
    /// compiling a line), under --timeout like an input's own: a collection
    /// step there may run a finalizer, which must not hang the prompt.
    private func bounded(_ body: () -> Int32) -> Int32 {
        interpreter.watchdog?.arm()
        defer { interpreter.watchdog?.disarm() }
        return interpreter.interruptible(body)
    }

    /// Compiles a chunk of input (``bounded``).
    private func compile(_ code: String) -> Int32 {
        bounded { L.load(code, name: "=stdin", mode: interpreter.loadMode) }
    }

    /// ":name", but not a "::label::" statement.
    private func isCommand(_ line: String) -> Bool {
        let s = line.drop { $0 == " " }
        guard s.first == ":", let next = s.dropFirst().first else { return false }
        return next.isLetter || next == "?"
    }

    /// Tries the line as an expression, `return <line>;`, so that values
    /// print. On success the compiled function is on top.
    private func addReturn(_ line: String) -> Bool {
        if compile("return " + line + ";") == LUA_OK { return true }
        L.pop()
        return false
    }

    /// Compiles the input as statements, reading continuation lines while the
    /// only error is that the chunk ended too soon.
    private func multiline(_ first: String) -> Input {
        var buffer = first
        while true {
            let status = compile(buffer)
            guard isIncomplete(status) else {
                reader.remember(buffer)
                return .chunk(status: status)
            }
            L.pop()
            switch reader.read(prompt: prompt(firstLine: false)) {
            case .line(let more):
                buffer += "\n" + more
            case .interrupted:
                return .nothing
            case .end:
                // Report the incomplete chunk, as lua.c does.
                reader.remember(buffer)
                return .chunk(status: compile(buffer))
            }
        }
    }

    /// A syntax error whose message ends in "<eof>" means "more to come".
    private func isIncomplete(_ status: Int32) -> Bool {
        status == LUA_ERRSYNTAX && (L.string(-1)?.hasSuffix("<eof>") ?? false)
    }

    // MARK: - Running

    /// Runs the compiled chunk and prints what it returns.
    private func evaluate(_ loadStatus: Int32) {
        var status = loadStatus
        let interrupts = interruptsSeen
        if status == LUA_OK { status = interpreter.docall(0, LUA_MULTRET) }
        if interruptsSeen != interrupts && isatty(1) != 0 { writeOut("\n") }
        if status == LUA_OK {
            printResults()
        } else {
            interpreter.report(status)
        }
    }

    /// Prints the values on the stack, if any: with the pretty printer on a
    /// terminal, otherwise through the global `print`, as lua.c's `l_print`.
    private func printResults() {
        let n = L.top
        guard n > 0 else { return }
        if isatty(0) == 0 {
            callGlobalPrint(n)
            return
        }
        guard let printer else {
            message("cannot print results: the pretty printer did not load", withProgramName: false)
            return
        }
        let status = printer.render(interpreter, count: n, color: style.enabled)
        if status == LUA_OK {
            writeOut((L.string(-1) ?? "") + "\n")
        } else {
            interpreter.report(status)
        }
        L.setTop(0)
    }

    /// lua.c's `l_print`: `print(...)` with the results, and "error calling
    /// 'print'" when that fails.
    private func callGlobalPrint(_ n: Int32) {
        defer { L.setTop(0) }
        guard L.load("return print", name: "=stdin", mode: "t") == LUA_OK, tl_pcall(L, 0, 1) == LUA_OK else {
            interpreter.report(LUA_ERRRUN)
            return
        }
        tl_insert(L, 1)
        if lua_pcallk(L, n, 0, 0, 0, nil) != LUA_OK {
            let text = L.string(-1) ?? "(error object is a \(L.typeName(-1)) value)"
            message("error calling 'print' (\(text))", withProgramName: false)
        }
        fflush(stdout)
    }

    /// The end of a run-loop turn: `ui.update()` unless switched off.
    private func afterInput() {
        L.setTop(0)
        if autoUpdate { interpreter.report(interpreter.settle()) }
        L.setTop(0)
        fflush(stdout)
    }

    // MARK: - Commands

    /// Runs a colon command. Returns false to leave the REPL.
    private func runCommand(_ line: String) -> Bool {
        let text = line.drop { $0 == " " }
        let name = String(text.prefix { $0 != " " && $0 != "\t" })
        let rest = trim(String(text.dropFirst(name.count)))
        switch name {
        case ":quit", ":q", ":exit":
            return false
        case ":help", ":h", ":?":
            writeOut(helpText)
        case ":autoupdate":
            switch rest {
            case "on": autoUpdate = true
            case "off": autoUpdate = false
            case "": break
            default: return usage(":autoupdate on|off")
            }
            writeOut("autoupdate is \(autoUpdate ? "on" : "off")\n")
        case ":tree", ":dump":
            tree(rest)
        case ":traits":
            if let env = rest.isEmpty ? firstScene() : environment(from: rest) {
                writeOut(describeTraits(of: env, style: style))
            }
        case ":why":
            why(rest)
        case ":picture":
            picture(rest)
        case ":plugins":
            runLibraryCode(listPluginsCode)
        case ":reload":
            runLibraryCode(reloadPluginsCode, rest.isEmpty ? [] : [rest])
        case ":trace":
            guard rest == "on" || rest == "off" else { return usage(":trace on|off") }
            runLibraryCode("local lib, on = ...; lib.ui.trace(on == 'on'); return 'trace is ' .. on", [rest])
        case ":stats":
            runLibraryCode("local lib = ...; return lib.ui.stats()")
        default:
            message(style.error("unknown command \(name) (:help lists them)"), withProgramName: false)
        }
        return true
    }

    private func usage(_ text: String) -> Bool {
        message(style.error("usage: \(text)"), withProgramName: false)
        return true
    }

    /// `:tree [full] [expr]` (and `:dump`, its other name): ui.dump of expr,
    /// printed, or of every connected window scene.
    private func tree(_ args: String) {
        var expr = args
        let full = args == "full" || args.hasPrefix("full ")
        if full { expr = trim(String(args.dropFirst(4))) }
        if !expr.isEmpty {
            if let env = environment(from: expr) { writeOut(host.treeDescription(of: env, full: full)) }
            return
        }
        let scenes = host.world.connectedScenes
        if scenes.isEmpty { writeOut(style.dim("(no connected window scenes: make one with ui.WindowScene {})") + "\n") }
        for scene in scenes { writeOut(host.treeDescription(of: scene, full: full)) }
    }

    private var picturesWritten = 0

    /// `:picture [node] [Trait] [file.svg|file.png]`, in `:why`'s order: ui.picture
    /// of node (by default the connected scene, or the screen holding them
    /// all) into the file (by default a new one in $TMPDIR), then prints the
    /// path. With a trait and a node, it draws the trait's flow to that node
    /// in its scene, as `:why node Trait file` does. (The trait and the file
    /// are told apart by the file's extension, so either order is read.)
    private func picture(_ args: String) {
        var words = args.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var trait: TraitDefinition?
        var path: String?
        for _ in 0..<2 {
            guard let last = words.last else { break }
            if path == nil, last.lowercased().hasSuffix(".svg") || last.lowercased().hasSuffix(".png") {
                path = last
                words.removeLast()
            } else if trait == nil, let d = definition(named: last, in: host.world.registry) {
                trait = d
                words.removeLast()
            } else {
                break
            }
        }
        let expr = words.joined(separator: " ")
        let env: TraitEnvironment
        if !expr.isEmpty {
            guard let e = environment(from: expr) else { return }
            env = e
        } else {
            let scenes = host.world.connectedScenes
            guard let first = scenes.first else {
                message(style.error("no connected window scene; give an environment: :picture view"), withProgramName: false)
                return
            }
            env = scenes.count == 1 ? first : first.screen
        }
        guard let trait, !expr.isEmpty else {
            writePicture(of: env, to: path ?? defaultPicturePath(), trait: trait, why: nil)
            return
        }
        writePicture(of: sceneAbove(env), to: path ?? defaultPicturePath(), trait: trait, why: env)
    }

    /// The window scene above `env` (or the top of its chain), so a flow
    /// drawn to `env` shows in context.
    private func sceneAbove(_ env: TraitEnvironment) -> TraitEnvironment {
        var root = env
        for node in traitChain(from: env) {
            root = node
            if node is WindowScene { break }
        }
        return root
    }

    /// ui.picture, then the file's absolute path, or the error.
    private func writePicture(of env: TraitEnvironment, to path: String, trait: TraitDefinition?, why: TraitEnvironment?) {
        do {
            let written = try host.picture(of: env, path: path, trait: trait, why: why)
            writeOut(absolutePath(written) + "\n")
        } catch let error as LuaError {
            message(style.error(error.text), withProgramName: false)
        } catch {
            message(style.error("\(error)"), withProgramName: false)
        }
    }

    private func defaultPicturePath() -> String {
        picturesWritten += 1
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(dir)/traitlab-\(getpid())-\(picturesWritten).svg"
    }

    private func absolutePath(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// `:why expr TraitName [file.svg|file.png]`; with a file, as a picture of
    /// the scene with the value's path drawn in red.
    private func why(_ arguments: String) {
        var args = arguments
        var path: String?
        if let space = args.lastIndex(where: { $0 == " " || $0 == "\t" }) {
            let last = String(args[args.index(after: space)...])
            if last.lowercased().hasSuffix(".svg") || last.lowercased().hasSuffix(".png") {
                path = last
                args = trim(String(args[..<space]))
            }
        }
        guard let space = args.lastIndex(where: { $0 == " " || $0 == "\t" }) else {
            _ = usage(":why expr TraitName [file.svg]   (for example :why view myAppTheme)")
            return
        }
        let traitName = String(args[args.index(after: space)...])
        let expr = trim(String(args[..<space]))
        guard let definition = definition(named: traitName, in: host.world.registry) else {
            if resolvedProperties.contains(traitName), path == nil {
                if let env = environment(from: expr), let text = explainResolved(traitName, for: env, style: style) { writeOut(text) }
                return
            }
            let hint = didYouMean(traitName, among: host.world.registry.definitions.flatMap { [$0.property, $0.name] })
            message(style.error("no trait named '\(traitName)'" + (hint.isEmpty ? " (a property name such as myAppTheme, or a trait name)" : hint)), withProgramName: false)
            return
        }
        guard let env = environment(from: expr) else { return }
        guard let path else {
            writeOut(explain(definition, for: env, style: style))
            return
        }
        // The whole scene (or whatever is above env), so the path shows in context.
        writePicture(of: sceneAbove(env), to: path, trait: definition, why: env)
    }

    /// The one environment named `name` (ui.find's rule), or nil after saying why not.
    private func environment(named name: String) -> TraitEnvironment? {
        let found = host.environments(named: name)
        if found.count == 1 { return found[0] }
        if found.isEmpty {
            message(style.error("nothing named \"\(name)\" in a connected scene, and no variable \(name) (give an expression, or a name: ui.View { name = \"\(name)\" })"),
                    withProgramName: false)
        } else {
            message(style.error("\(found.count) environments are named \"\(name)\": " + found.prefix(5).map { "\($0) in \($0.traitParent.map { "\($0)" } ?? "nothing")" }.joined(separator: "; ") + " (give an expression)"),
                    withProgramName: false)
        }
        return nil
    }

    private func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) }
    }

    /// The first connected window scene, the default for `:traits`.
    private func firstScene() -> TraitEnvironment? {
        if let scene = host.world.connectedScenes.first { return scene }
        message(style.error("no connected window scene; give an environment: :traits view"), withProgramName: false)
        return nil
    }

    /// The environment `expr` names: an expression that evaluates to one, or
    /// an environment's name (`"card"`, or `card` when no variable of that
    /// name is in scope: the REPL's locals are gone after each input); nil
    /// after saying why not.
    private func environment(from expr: String) -> TraitEnvironment? {
        if expr.count >= 2, let q = expr.first, q == "\"" || q == "'", expr.last == q {
            return environment(named: String(expr.dropFirst().dropLast()))
        }
        L.setTop(0)
        var status = L.load("return " + expr, name: "=stdin", mode: interpreter.loadMode)
        if status == LUA_OK { status = interpreter.docall(0, 1) }
        guard status == LUA_OK else {
            interpreter.report(status)
            return nil
        }
        if lua_type(L, -1) == LUA_TNIL, isIdentifier(expr) {
            L.setTop(0)
            return environment(named: expr)
        }
        guard let env = host.environment(at: -1) else {
            message(style.error("\(expr) is a \(L.typeName(-1)), not a trait environment"), withProgramName: false)
            return nil
        }
        L.setTop(0)
        return env
    }

    /// Runs Lua code given the library table `{ traits, ui, swiftui, plugins }`
    /// (never the globals, which a session may have replaced) and `args`;
    /// prints the string it returns, or pretty-prints another value.
    private func runLibraryCode(_ code: String, _ args: [String] = []) {
        L.setTop(0)
        var status = L.load(code, name: "=(command)", mode: "t")
        if status == LUA_OK {
            host.pushLibrary()
            for a in args { L.push(a) }
            status = interpreter.docall(Int32(1 + args.count), 1)
        }
        guard status == LUA_OK else {
            // A command's failure is one line: what failed, without the
            // frames of the command's own code.
            var text = L.string(-1) ?? "(error object is a \(L.typeName(-1)) value)"
            if let cut = text.firstRange(of: "\nstack traceback:") { text = String(text[..<cut.lowerBound]) }
            if text.hasPrefix("(command):"), let colon = text.dropFirst(10).firstIndex(of: ":") {
                text = String(text[text.index(after: colon)...]).drop { $0 == " " }.description
            }
            L.setTop(0)
            message(style.error(text), withProgramName: false)
            return
        }
        if lua_type(L, -1) == LUA_TSTRING {
            writeOut((L.string(-1) ?? "") + "\n")
        } else if lua_type(L, -1) != LUA_TNIL {
            printResults()
        }
        L.setTop(0)
    }

    private var helpText: String {
        let keys = """
        Type Lua: expressions print their values (=expr works too), statements run, and an
        unfinished chunk continues on a ">>" line. ui.update() runs after every input.
        Keys: Tab completes globals, fields, methods, trait names and enum cases; Up/Down recall
        history; Ctrl-C interrupts running code or clears the line; Ctrl-D quits.

        """
        let commands: [(String, String)] = [
            (":tree [full] [expr]", "the trait tree below expr (default: every connected window scene)"),
            (":dump [full] [expr]", "the same: the text ui.dump(expr) returns, printed"),
            (":traits [expr]", "every trait of an environment and where its value comes from"),
            (":why expr Trait [file]", "the chain of environments that produced one trait's value"),
            (":why expr backgroundColor", "a resolved value (also tintColor, image): the traits that chose it"),
            (":picture [node] [Trait] [file]", "the tree drawn by Graphviz into an .svg or .png (default: in $TMPDIR); with a trait, its flow to node"),
            ("  ... [Trait]", "with how that trait's values flow (:why with a file: one value's path)"),
            (":plugins", "the loaded plugins"),
            (":reload [name]", "run a plugin again (default: every loaded plugin)"),
            (":trace on|off", "print updates, handlers and lifecycle callbacks as they happen"),
            (":stats", "ui.stats(): environments, updates, handlers, layouts, draws ..."),
            (":autoupdate on|off", "run ui.update() after every input (default on)"),
            (":help", "this text"),
            (":quit", "leave (Ctrl-D works too)"),
        ]
        return keys + "Commands:\n" + commands.map { "  " + $0.0 + String(repeating: " ", count: max(1, 24 - $0.0.count)) + $0.1 }
            .joined(separator: "\n") + "\n"
    }
}

private func trim(_ s: String) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    return String(s.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
}

private let listPluginsCode = #"""
local lib = ...
local list = lib.plugins.list()
if #list == 0 then return "(no plugins loaded; --plugin NAME or plugins.load(name))" end
local lines = {}
for _, p in ipairs(list) do
  lines[#lines + 1] = string.format("%-20s %-10s %s", p.name, p.version, p.path)
end
return table.concat(lines, "\n")
"""#

private let reloadPluginsCode = #"""
local lib, name = ...
local names = {}
if name then
  names[1] = name
else
  for _, p in ipairs(lib.plugins.list()) do names[#names + 1] = p.name end
end
if #names == 0 then return "(no plugins loaded)" end
local lines = {}
for _, n in ipairs(names) do
  local manifest, dropped = lib.plugins.reload(n)
  local version = type(manifest) == "table" and manifest.version
  lines[#lines + 1] = "reloaded " .. n .. (version and (" " .. tostring(version)) or "")
  for _, d in ipairs(dropped or {}) do lines[#lines + 1] = "  " .. d end
end
return table.concat(lines, "\n")
"""#

import CLua
import CLuaShim
import TraitEngine

/// Interrupts a test that runs too long: armed on the coroutine that runs one
/// test's hooks and body (see testing.lua), disarmed when it returns.
public protocol TestTimer: AnyObject {
    func arm(_ coroutine: LuaStatePointer)
    func disarm(_ coroutine: LuaStatePointer)
}

/// What `traitlab test` asks of one run.
public struct SpecRunOptions {
    public var filters: [String] = []
    public var excludes: [String] = []
    public var list = false
    public var shuffle = false
    public var seed: Int?
    public var failFast = false
    public init() {}
}

/// Runs busted-style spec files with the embedded framework (testing.lua).
/// Every file gets its own host, so one file cannot leak traits, environments
/// or globals into another. Results travel as JSON, so files can also run in
/// separate processes and be merged afterwards.
public enum SpecRunner {
    /// Runs one spec file and returns the framework's result as JSON (a listing
    /// with `listed = true` when `run.list` is set). Never throws: a file that
    /// cannot load or run becomes an errored entry.
    /// `prepare` sees the new host first (to install a ``TestTimer``).
    public static func runFile(_ path: String, host options: LuaHostOptions, run: SpecRunOptions,
                               prepare: (LuaHost) -> Void = { _ in }) -> String {
        do {
            let host = try LuaHost(options: options)
            defer { host.close() }
            prepare(host)
            return try host.runSpecFile(path, run)
        } catch {
            return errorResult(path, (error as? LuaError)?.text ?? "\(error)")
        }
    }

    /// A result with one errored entry, for a file that could not run at all.
    public static func errorResult(_ path: String, _ message: String) -> String {
        JSONValue.object([
            ("passed", .integer(0)), ("failed", .integer(1)), ("skipped", .integer(0)), ("errors", .integer(1)),
            ("tests", .array([.object([("name", .string(path)), ("file", .string(path)),
                                       ("status", .string("error")), ("message", .string(message))])])),
        ]).serialized
    }

    /// Merges per-file results and renders them in `format` (text, tap, junit,
    /// json), ending with the summary line. Also returns the standalone document
    /// (JUnit XML or JSON without the summary) for `--output`, and whether
    /// anything failed.
    public static func report(_ results: [String], format: String, color: Bool, verbose: Bool,
                              suiteName: String) throws -> (output: String, document: String, failed: Bool) {
        let host = try LuaHost(options: LuaHostOptions())
        defer { host.close() }
        return try host.renderReport(results, format: format, color: color, verbose: verbose, suiteName: suiteName)
    }
}

extension LuaHost {
    /// Loads the embedded framework and leaves its module table on the stack.
    func loadTestingFramework() throws {
        var len = 0
        guard let src = tl_embedded_source("testing", &len) else { throw LuaError.message("the test framework is missing from this build") }
        if luaL_loadbufferx(L, src, len, "=traitlab.testing", "t") != LUA_OK { throw LuaError.message(popError()) }
        try call(0, results: 1)
    }

    private func field(_ t: Int32, _ name: String) throws {
        guard L.rawGet(t, name) == LUA_TFUNCTION else { throw LuaError.message("test framework has no function '\(name)'") }
    }

    func runSpecFile(_ path: String, _ run: SpecRunOptions) throws -> String {
        try loadTestingFramework()
        let m = L.top
        try field(m, "install")
        L.registryGet(LUA_RIDX_GLOBALS)
        try call(1)
        // add_file(path, chunk or load error)
        try field(m, "add_file")
        L.push(path)
        if luaL_loadfilex(L, path, "t") != LUA_OK {
            let message = popError()
            L.push(message)
        }
        try call(2)
        // run(opts)
        try field(m, "run")
        L.newTable()
        let opts = L.top
        func strings(_ key: String, _ list: [String]) {
            guard !list.isEmpty else { return }
            L.newTable(narr: Int32(clamping: list.count))
            for (k, s) in list.enumerated() { L.push(s); lua_rawseti(L, -2, lua_Integer(k + 1)) }
            L.rawSet(opts, key)
        }
        strings("filter", run.filters)
        strings("exclude", run.excludes)
        if run.list { L.push(true); L.rawSet(opts, "list") }
        if run.shuffle { L.push(true); L.rawSet(opts, "shuffle") }
        if let seed = run.seed { L.push(seed); L.rawSet(opts, "seed") }
        if run.failFast { L.push(true); L.rawSet(opts, "fail_fast") }
        if testTimer != nil {
            L.pushFunction(LuaFunctions.id("test.before", { c in
                if let co = lua_tothread(c.L, 2) { c.host.testTimer?.arm(co) }
                return 0
            }))
            L.rawSet(opts, "before_test")
            L.pushFunction(LuaFunctions.id("test.after", { c in
                if let co = lua_tothread(c.L, 2) {
                    c.host.testTimer?.disarm(co)
                    tl_clear_interrupt(co)
                }
                return 0
            }))
            L.rawSet(opts, "after_test")
        }
        try call(1, results: 1)
        // format_json(result)
        let result = L.top
        try field(m, "format_json")
        L.pushValue(result)
        try call(1, results: 1)
        guard let json = L.string(-1) else { throw LuaError.message("the test framework returned no JSON result") }
        L.setTop(m - 1)
        return json
    }

    func renderReport(_ results: [String], format: String, color: Bool, verbose: Bool,
                      suiteName: String) throws -> (output: String, document: String, failed: Bool) {
        try loadTestingFramework()
        let m = L.top
        // merged = { tests = {...}, passed, failed, skipped, errors, duration }
        L.newTable()
        let merged = L.top
        L.newTable()
        let tests = L.top
        var counts = (passed: 0, failed: 0, skipped: 0, errors: 0)
        var duration = 0.0
        var listed = false
        var seed: Int?
        var n: lua_Integer = 0
        for text in results {
            guard case .object(let members) = try JSONValue.parse(text) else { continue }
            for (key, value) in members {
                switch (key, value) {
                case ("tests", .array(let entries)):
                    for e in entries { n += 1; push(e); lua_rawseti(L, tests, n) }
                case ("passed", .integer(let v)): counts.passed += v
                case ("failed", .integer(let v)): counts.failed += v
                case ("skipped", .integer(let v)): counts.skipped += v
                case ("errors", .integer(let v)): counts.errors += v
                case ("duration", .number(let d)): duration += d
                case ("duration", .integer(let d)): duration += Double(d)
                case ("listed", .bool(let b)): listed = listed || b
                case ("seed", .integer(let s)): seed = s
                default: break
                }
            }
        }
        L.pushValue(tests); L.rawSet(merged, "tests")
        for (k, v) in [("passed", counts.passed), ("failed", counts.failed), ("skipped", counts.skipped), ("errors", counts.errors)] {
            L.push(v); L.rawSet(merged, k)
        }
        L.push(duration); L.rawSet(merged, "duration")
        if listed { L.push(true); L.rawSet(merged, "listed") }
        if let seed { L.push(seed); L.rawSet(merged, "seed") }
        // output = format(merged, fmt, opts)
        try field(m, "format")
        L.pushValue(merged)
        L.push(format)
        L.newTable()
        L.push(color); L.rawSet(-2, "color")
        L.push(verbose); L.rawSet(-2, "verbose")
        L.push(suiteName); L.rawSet(-2, "suite_name")
        try call(3, results: 1)
        let output = L.string(-1) ?? ""
        L.pop()
        var document = output
        if format == "junit" || format == "json" {
            try field(m, format == "junit" ? "format_junit" : "format_json")
            L.pushValue(merged)
            if format == "junit" { L.push(suiteName) }
            try call(format == "junit" ? 2 : 1, results: 1)
            document = L.string(-1) ?? ""
        }
        L.setTop(m - 1)
        return (output, document, counts.failed > 0)
    }

    /// Pushes a JSON value as plain Lua data (objects as tables, null as nil).
    func push(_ json: JSONValue) {
        switch json {
        case .null: L.pushNil()
        case .bool(let b): L.push(b)
        case .integer(let i): L.push(i)
        case .number(let d): L.push(d)
        case .string(let s): L.push(s)
        case .array(let items):
            _ = lua_checkstack(L, 8)   // JSON depth is bounded by JSONValue.maximumDepth
            L.newTable(narr: Int32(clamping: items.count))
            for (k, v) in items.enumerated() { push(v); lua_rawseti(L, -2, lua_Integer(k + 1)) }
        case .object(let members):
            _ = lua_checkstack(L, 8)
            L.newTable(nrec: Int32(clamping: members.count))
            for (k, v) in members { push(v); L.rawSet(-2, k) }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitEngine

extension LuaHost {
    // MARK: - ui.dump and ui.picture

    /// The subtree below `env` as text (Dump.swift): "tree" (concise), "full",
    /// "json" or "dot"; text trees fit `width` columns (default: the terminal's).
    /// The text is asked for (``memoryBudget``) as it grows.
    func dump(_ env: TraitEnvironment, format: String, width: Int? = nil) throws -> String {
        let budget = memoryBudget
        switch format {
        case "tree": return try TextTreeDump(full: false, width: width.map(clampedDumpWidth) ?? defaultDumpWidth()).render(env, budget: budget)
        case "full": return try TextTreeDump(full: true, width: width.map(clampedDumpWidth) ?? defaultDumpWidth()).render(env, budget: budget)
        case "json": return try jsonTreeDump(env, budget: budget)
        case "dot": return try TreePicture().dot(env, budget: budget)
        default: throw LuaError.message("unknown dump format '\(clipped(format, to: 40))' (tree, full, json or dot)")
        }
    }

    /// `ui.picture(node, path [, options])`: renders the tree with Graphviz
    /// and returns the path. Refused in the sandbox, which writes no files.
    func picture(_ env: TraitEnvironment, path: String, trait: TraitDefinition?, why: TraitEnvironment? = nil,
                 full: Bool = false, timeout: Double) throws -> String {
        if options.refusesFiles { throw LuaError.message("ui.picture writes a file: not available in the sandbox") }
        let text = try TreePicture(trait: trait, full: full, why: why, maximumNodes: 2_000).dot(env, budget: memoryBudget)
        try chargeEngine(text.utf8.count)   // the copy `dot` reads
        try renderPicture(text, to: path, timeout: timeout)
        return path
    }

    // MARK: - ui.trace

    /// `ui.trace(true)` prints events, `ui.trace(fn)` passes each event (a
    /// table) to fn, `ui.trace(path)` writes them to a file as JSON lines,
    /// `ui.trace(false)` stops.
    func setTrace(_ c: LuaCall) throws -> Int32 {
        if lua_type(L, 1) == LUA_TSTRING {
            // Opened first: a path that cannot be written leaves the current trace as it is.
            let file = try TraceFile(path: try c.string(1), sandbox: options.refusesFiles)
            if traceRef != LUA_NOREF { L.unref(traceRef); traceRef = LUA_NOREF }
            world.tracer = { event in file.write(event) }
            return 0
        }
        if traceRef != LUA_NOREF { L.unref(traceRef); traceRef = LUA_NOREF }
        switch lua_type(L, 1) {
        case LUA_TBOOLEAN where !L.bool(1), LUA_TNIL, LUA_TNONE:
            world.tracer = nil
        case LUA_TBOOLEAN:
            world.tracer = { [weak self] event in self?.printTrace(event) }
        case LUA_TFUNCTION:
            L.pushValue(1)
            traceRef = L.ref()
            world.tracer = { [weak self] event in self?.callTrace(event) }
        default:
            throw c.typeError(1, "boolean, function or file path")
        }
        return 0
    }

    /// One line per event, as `ui.trace(true)` prints it.
    static func traceLine(_ event: TraceEvent) -> String {
        func names(_ d: [TraitDefinition]) -> String { d.map(\.property).joined(separator: ", ") }
        switch event {
        case .updateBegan(let pass): return "update pass \(pass)"
        case .traitsChanged(let e, let d): return "  \(e): traits changed: \(names(d))"
        case .handlerCalled(let e, let d): return "  \(e): handler for \(names(d))"
        case .lifecycle(let e, let ev): return "  \(e): \(ev.rawValue)"
        case .overrideChanged(let e, let d, let v):
            return "\(e): override \(d.property) = \(v.map(TraitEngine.describe) ?? "(removed)")"
        }
    }

    private func printTrace(_ event: TraceEvent) {
        var line = "[trace] " + LuaHost.traceLine(event) + "\n"
        line.withUTF8 { buf in _ = fwrite(buf.baseAddress, 1, buf.count, stderr) }
    }

    private func callTrace(_ event: TraceEvent) {
        let base = L.top
        defer { L.setTop(base) }
        L.registryGet(traceRef)
        L.newTable()
        let t = L.top
        L.push(LuaHost.traceLine(event).trimmingLeadingSpaces); L.rawSet(t, "message")
        switch event {
        case .updateBegan(let pass): L.push("update"); L.rawSet(t, "kind"); L.push(pass); L.rawSet(t, "pass")
        case .traitsChanged(let e, let d), .handlerCalled(let e, let d):
            L.push({ if case .traitsChanged = event { return "traitsChanged" } else { return "handler" } }())
            L.rawSet(t, "kind")
            push(e); L.rawSet(t, "environment")
            L.newTable(narr: Int32(clamping: d.count))
            for (k, def) in d.enumerated() { push(def); lua_rawseti(L, -2, lua_Integer(k + 1)) }
            L.rawSet(t, "traits")
        case .lifecycle(let e, let ev):
            L.push("lifecycle"); L.rawSet(t, "kind")
            push(e); L.rawSet(t, "environment")
            L.push(ev.rawValue); L.rawSet(t, "callback")
        case .overrideChanged(let e, let d, _):
            L.push("override"); L.rawSet(t, "kind")
            push(e); L.rawSet(t, "environment")
            push(d); L.rawSet(t, "trait")
        }
        // A failing trace function is reported as a warning; it must not break the update.
        if tl_pcall(L, 1, 0) != LUA_OK {
            let msg = "trace function failed: " + popError()
            msg.withCString { lua_warning(L, $0, 0) }
        }
    }
}

/// `ui.trace(path)`: one JSON object per line and event, with stable field
/// names so two runs of a scenario can be compared line by line:
/// `seq` (1, 2, ...), `kind` ("update", "traitsChanged", "handler",
/// "lifecycle", "override") and, by kind, `pass`; `environment` (its
/// description, `View "card"`); `traits` (property names) and `values` (the
/// new values, for "traitsChanged"); `callback`; `trait` and `value` (null
/// when the override was removed). The file closes when tracing stops.
final class TraceFile {
    private let file: UnsafeMutablePointer<FILE>
    private var sequence = 0

    init(path: String, sandbox: Bool) throws {
        if sandbox { throw LuaError.message("ui.trace to a file writes a file: not available in the sandbox") }
        guard !path.utf8.contains(0), let f = fopen(path, "w") else {
            let why = path.utf8.contains(0) ? "the path contains a zero byte" : String(cString: strerror(errno))
            throw LuaError.message("ui.trace: cannot write '\(clipped(path, to: 200))': \(why)")
        }
        file = f
    }

    deinit { fclose(file) }

    func write(_ event: TraceEvent) {
        sequence += 1
        func str(_ s: String) -> JSONValue { .string(s) }
        func names(_ d: [TraitDefinition]) -> JSONValue { .array(d.map { .string($0.property) }) }
        var members: [(key: String, value: JSONValue)] = [("seq", .integer(sequence))]
        switch event {
        case .updateBegan(let pass):
            members += [("kind", str("update")), ("pass", .integer(pass))]
        case .traitsChanged(let e, let d):
            members += [("kind", str("traitsChanged")), ("environment", str(e.description)), ("traits", names(d)),
                        ("values", .object(d.map { ($0.property, e.traitCollection.rawValue($0).jsonValue) }))]
        case .handlerCalled(let e, let d):
            members += [("kind", str("handler")), ("environment", str(e.description)), ("traits", names(d))]
        case .lifecycle(let e, let ev):
            members += [("kind", str("lifecycle")), ("environment", str(e.description)), ("callback", str(ev.rawValue))]
        case .overrideChanged(let e, let d, let v):
            members += [("kind", str("override")), ("environment", str(e.description)), ("trait", str(d.property)),
                        ("value", v?.jsonValue ?? .null)]
        }
        var line = JSONValue.object(members).serialized + "\n"
        line.withUTF8 { buf in _ = fwrite(buf.baseAddress, 1, buf.count, file) }
        fflush(file)
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let r = rest.range(of: target) {
            out += rest[..<r.lowerBound] + replacement
            rest = rest[r.upperBound...]
        }
        return out + rest
    }

    var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}

extension Substring {
    /// First occurrence of `s`, without Foundation.
    func range(of s: String) -> Range<Index>? {
        let needle = Array(s.utf8)
        guard !needle.isEmpty else { return nil }
        var i = startIndex
        while i < endIndex {
            var j = i, k = 0
            while k < needle.count, j < endIndex, self.utf8[j] == needle[k] {
                j = self.utf8.index(after: j)
                k += 1
            }
            if k == needle.count { return i..<j }
            i = index(after: i)
        }
        return nil
    }
}

import CLua
import CLuaShim
import TraitEngine

extension LuaHost {
    // MARK: - ui.dump

    /// The subtree below `env` as text: each environment with its overrides and
    /// the traits that differ from their defaults.
    func dump(_ env: TraitEnvironment, format: String) throws -> String {
        switch format {
        case "tree": return dumpTree(env)
        case "json": return dumpJSON(env)
        case "dot": return dumpDot(env)
        default: throw LuaError.message("unknown dump format '\(format)' (tree, json or dot)")
        }
    }

    private func overridesText(_ e: TraitEnvironment) -> String {
        e.traitOverrideEntries.map { "\($0.definition.property) = \(TraitEngine.describe($0.value))" }.joined(separator: ", ")
    }

    private func traitsText(_ tc: TraitCollection) -> String {
        tc.entries.map { "\($0.definition.property) = \(TraitEngine.describe($0.value))" }.joined(separator: ", ")
    }

    /// Each environment on a line with its overrides, then its non-default
    /// traits wrapped below it. Iterative: trees can be very deep.
    private func dumpTree(_ root: TraitEnvironment) -> String {
        var out = ""
        var stack: [(env: TraitEnvironment, prefix: String, childPrefix: String)] = [(root, "", "")]
        while let (e, prefix, childPrefix) = stack.popLast() {
            out += prefix + e.description
            let o = overridesText(e)
            if !o.isEmpty { out += "  overrides { \(o) }" }
            out += "\n"
            let kids = e.traitChildren
            let traitIndent = childPrefix + (kids.isEmpty ? "   " : "│  ")
            for line in wrapped(e.traitCollection.entries.map { "\($0.definition.property) = \(TraitEngine.describe($0.value))" },
                                width: 100, first: "traits { ", rest: "         ", end: " }") {
                out += traitIndent + line + "\n"
            }
            for (i, k) in kids.enumerated().reversed() {
                let last = i == kids.count - 1
                stack.append((k, childPrefix + (last ? "└─ " : "├─ "), childPrefix + (last ? "   " : "│  ")))
            }
        }
        return out
    }

    /// Joins items with ", " into lines of at most about `width` characters.
    private func wrapped(_ items: [String], width: Int, first: String, rest: String, end: String) -> [String] {
        guard !items.isEmpty else { return [first.trimmingTrailingSpace + end.trimmingLeadingSpaces] }
        var lines: [String] = []
        var line = first
        for (i, item) in items.enumerated() {
            let piece = item + (i == items.count - 1 ? end : ",")
            if line.count + piece.count > width && line != first {
                lines.append(line)
                line = rest
            }
            line += (line == first || line == rest ? "" : " ") + piece
        }
        lines.append(line)
        return lines
    }

    private func dumpJSON(_ root: TraitEnvironment) -> String {
        func values(_ entries: [TraitCollection.Entry]) -> JSONValue {
            .object(entries.map { (key: $0.definition.property, value: $0.value.jsonValue) })
        }
        func node(_ e: TraitEnvironment) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [("class", .string(e.className))]
            if let n = e.name { members.append(("name", .string(n))) }
            members.append(("overrides", values(e.traitOverrideEntries)))
            members.append(("traits", values(e.traitCollection.entries)))
            members.append(("children", .array(e.traitChildren.map(node))))
            return .object(members)
        }
        return node(root).serialized
    }

    /// A Graphviz graph: each node names the environment, its overrides and
    /// the traits that differ from its parent's (all non-default ones for the
    /// top node), one per line; nodes with overrides are highlighted.
    private func dumpDot(_ root: TraitEnvironment) -> String {
        var out = "digraph traits {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
        func esc(_ s: String) -> String {
            s.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"")
        }
        var next = 0
        var stack: [(env: TraitEnvironment, parentID: Int?, parentTraits: TraitCollection?)] = [(root, nil, nil)]
        while let (e, parentID, parentTraits) = stack.popLast() {
            let id = next
            next += 1
            var label = esc(e.description) + "\\n"
            for o in e.traitOverrideEntries {
                label += esc("override \(o.definition.property) = \(TraitEngine.describe(o.value))") + "\\l"
            }
            let tc = e.traitCollection
            let shown = parentTraits.map { p in tc.changedTraits(from: p) } ?? tc.entries.map(\.definition)
            for d in shown {
                label += esc("\(d.property) = \(TraitEngine.describe(tc.rawValue(d)))") + "\\l"
            }
            let style = e.traitOverrideEntries.isEmpty ? "" : ", style=filled, fillcolor=\"#fff2cc\""
            out += "  n\(id) [label=\"\(label)\"\(style)];\n"
            if let parentID { out += "  n\(parentID) -> n\(id);\n" }
            for k in e.traitChildren.reversed() { stack.append((k, id, tc)) }
        }
        return out + "}\n"
    }

    // MARK: - ui.trace

    /// `ui.trace(true)` prints events, `ui.trace(fn)` passes each event (a
    /// table) to fn, `ui.trace(false)` stops.
    func setTrace(_ c: LuaCall) throws -> Int32 {
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
            throw c.typeError(1, "boolean or function")
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
    var trimmingTrailingSpace: String { hasSuffix(" ") ? String(dropLast()) : self }
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

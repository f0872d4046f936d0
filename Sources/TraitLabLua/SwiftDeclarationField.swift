import CLua
import CLuaShim
import TraitEngine

// The `swift` field of `traits.define`, `traits.enum` and
// `swiftui.EnvironmentKey`: how the app declared the definition, written by
// `traitlab swift import` and read back by `traitlab swift export`
// (docs/swift.md, "Round trips"). The engine keeps it and never reads it.

extension LuaHost {
    private static let swiftFields: [String: String] = [
        "type": "string", "access": "string", "nonisolated": "boolean", "available": "list",
        "doc": "string", "before": "string", "after": "string", "wrapsExtensions": "boolean", "valueType": "string",
        "default": "string", "defaultValue": "value", "defaultBefore": "string", "defaultAfter": "string", "rawType": "string", "cases": "list",
        "rawValues": "list", "conformances": "list", "foreign": "boolean", "entry": "boolean",
        "bridgeAvailable": "list", "bridgeOnType": "boolean", "defaultForm": "string",
    ]

    /// The `swift` table at `i` (nil when the value is nil); `what` names the
    /// definition in errors ("trait 'Theme'"). Every field is checked: the
    /// table may come from a plugin anyone wrote.
    func swiftDeclaration(at i: Int32, of what: String) throws -> SwiftDeclaration? {
        if L.isNil(i) { return nil }
        guard lua_type(L, i) == LUA_TTABLE else {
            throw LuaError.message("\(what): swift must be a table, got \(L.typeName(i))")
        }
        let t = L.absIndex(i)
        let fieldList = LuaHost.swiftFields.keys.sorted().joined(separator: ", ")
        try L.forEachPair(t) {
            guard let k = L.string(-2), let kind = LuaHost.swiftFields[k] else {
                throw LuaError.message("\(what): unknown field \(L.string(-2).map { "'\($0)'" } ?? L.typeName(-2)) in swift (fields: \(fieldList))")
            }
            let ok: Bool
            switch kind {
            case "string": ok = lua_type(L, -1) == LUA_TSTRING
            case "boolean": ok = lua_type(L, -1) == LUA_TBOOLEAN
            case "list": ok = lua_type(L, -1) == LUA_TTABLE
            default: ok = true
            }
            if !ok { throw LuaError.message("\(what): swift.\(k) must be a \(kind == "list" ? "list of strings" : kind), got \(L.typeName(-1))") }
        }
        let top = L.top
        defer { L.setTop(top) }
        func string(_ k: String) throws -> String? {
            _ = L.rawGet(t, k)
            defer { L.pop() }
            return try L.keptString(-1)
        }
        func bool(_ k: String) -> Bool {
            _ = L.rawGet(t, k)
            defer { L.pop() }
            return L.bool(-1)
        }
        func list(_ k: String) throws -> [String] {
            guard L.rawGet(t, k) == LUA_TTABLE else { L.pop(); return [] }
            defer { L.pop() }
            let n = L.rawLength(-1)
            try chargeEngine(n * MemoryLayout<String>.stride)
            var out: [String] = []
            for j in 0..<n {
                lua_rawgeti(L, -1, lua_Integer(j + 1))
                defer { L.pop() }
                guard let s = try L.keptString(-1) else {
                    throw LuaError.message("\(what): swift.\(k)[\(j + 1)] must be a string, got \(L.typeName(-1))")
                }
                out.append(s)
            }
            return out
        }
        var d = SwiftDeclaration()
        d.typeName = try string("type")
        d.access = try string("access")
        d.isNonisolated = bool("nonisolated")
        d.availability = try list("available")
        d.documentation = try string("doc")
        d.conditionBefore = try string("before")
        d.conditionAfter = try string("after")
        d.conditionWrapsExtensions = bool("wrapsExtensions")
        d.valueType = try string("valueType")
        d.defaultSource = try string("default")
        _ = L.rawGet(t, "defaultValue")
        d.defaultSourceValue = L.isNil(-1) ? nil : try traitValue(at: L.top)
        L.pop()
        d.defaultConditionBefore = try string("defaultBefore")
        d.defaultConditionAfter = try string("defaultAfter")
        if (d.defaultConditionBefore == nil) != (d.defaultConditionAfter == nil) {
            throw LuaError.message("\(what): swift.defaultBefore and swift.defaultAfter go together")
        }
        d.rawType = try string("rawType")
        d.caseNames = try list("cases")
        d.rawValues = try list("rawValues")
        d.conformances = try list("conformances")
        d.isForeign = bool("foreign")
        d.isEntry = bool("entry")
        d.bridgeAvailability = try list("bridgeAvailable")
        d.bridgeOnType = bool("bridgeOnType")
        d.defaultForm = try string("defaultForm")
        if let form = d.defaultForm, form != "var", form != "getter" {
            throw LuaError.message("\(what): swift.defaultForm must be \"var\" or \"getter\", got '\(form)'")
        }
        if (d.conditionBefore == nil) != (d.conditionAfter == nil) {
            throw LuaError.message("\(what): swift.before and swift.after go together")
        }
        if d.defaultSource != nil, d.defaultSourceValue == nil {
            throw LuaError.message("\(what): swift.default needs swift.defaultValue, the value it stands for")
        }
        return d
    }
}

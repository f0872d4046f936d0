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
        "doc": "string", "before": "strings", "after": "strings", "wrapsExtensions": "levels", "valueType": "string",
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
            case "strings": ok = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TTABLE
            case "levels": ok = lua_type(L, -1) == LUA_TBOOLEAN || tl_isinteger(L, -1) != 0
            default: ok = true
            }
            let expected = ["list": "list of strings", "strings": "string or a list of strings", "levels": "boolean or an integer"][kind] ?? kind
            if !ok { throw LuaError.message("\(what): swift.\(k) must be a \(expected), got \(L.typeName(-1))") }
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
        // One `#if` as two strings, nested ones as two lists (outermost first).
        func strings(_ k: String) throws -> [String] {
            if let one = try string(k) { return [one] }
            return try list(k)
        }
        let before = try strings("before"), after = try strings("after")
        guard before.count == after.count else {
            throw LuaError.message("\(what): swift.before and swift.after go together, one of each per #if")
        }
        d.conditions = zip(before, after).map { SwiftCondition(before: $0, after: $1) }
        _ = L.rawGet(t, "wrapsExtensions")
        let levels = lua_type(L, -1) == LUA_TBOOLEAN ? (L.bool(-1) ? d.conditions.count : 0) : L.integer(-1) ?? 0
        L.pop()
        guard (0...d.conditions.count).contains(levels) else {
            throw LuaError.message("\(what): swift.wrapsExtensions must be from 0 to the number of #ifs (\(d.conditions.count))")
        }
        d.conditionsAroundExtensions = levels
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
        if d.defaultSource != nil, d.defaultSourceValue == nil {
            throw LuaError.message("\(what): swift.default needs swift.defaultValue, the value it stands for")
        }
        return d
    }
}

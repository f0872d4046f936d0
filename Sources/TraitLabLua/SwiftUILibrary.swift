import CLua
import CLuaShim
import TraitEngine

/// The `swiftui` library: environment keys and bridges, modeled SwiftUI views,
/// representables and hosting configurations.
///
/// Lua functions the engine calls back (bodies, bridges, make/update) live in
/// Lua tables, never in registry references held by Swift objects: each object
/// is a box whose user value is a table T with its functions (`T.body`,
/// `T.read`, `T.make`, ...), and a box stays alive exactly as long as what
/// holds its Swift object in the engine holds it in Lua too (a parent view's
/// `T.content`, a hosting controller's `__rootView` field, a view's
/// `__contentConfiguration` field). A body that captures its own host is then
/// a Lua-only cycle that `collectgarbage()` can reclaim.
///
/// The binding's own tables live in the registry under `stateKey`:
/// `objects` (Swift object -> box, weak values), `keys` (key -> box, kept for
/// the world's lifetime, like trait definitions) and the metatables.
private let stateKey = "traitlab.swiftui"

extension LuaHost {
    /// Builds the `swiftui` table and leaves it on the stack.
    func installSwiftUI() {
        L.newTable()
        let s = L.top
        L.newTable()
        L.newTable(); L.push("v"); L.rawSet(-2, "__mode"); lua_setmetatable(L, -2)
        L.rawSet(s, "objects")
        L.newTable()
        L.rawSet(s, "keys")
        func keep(_ ref: Int32, as name: String) {
            L.registryGet(ref)
            L.rawSet(s, name)
            L.unref(ref)
        }
        keep(makeKeyMeta(), as: "keyMeta")
        keep(makeValuesMeta(), as: "valuesMeta")
        keep(makeViewMeta(), as: "viewMeta")
        keep(makeConfigurationMeta(), as: "configurationMeta")
        L.pushValue(s)
        L.rawSet(tl_registryindex(), stateKey)
        L.pop()

        L.newTable()
        let t = L.top
        func fn(_ name: String, _ body: @escaping LuaFunction) { setFunction(t, "swiftui", name, body) }
        fn("EnvironmentKey") { c in try c.host.defineEnvironmentKey(c) }
        fn("bridge") { c in
            try c.host.world.require(.traitSystem, "swiftui.bridge (UITraitBridgedEnvironmentKey)")
            return try c.host.bridgeEnvironmentKey(c)
        }
        fn("View") { c in try c.host.makeSwiftUIView(c) }
        fn("ViewControllerRepresentable") { c in try c.host.makeRepresentable(c, kind: .viewController) }
        fn("ViewRepresentable") { c in try c.host.makeRepresentable(c, kind: .view) }
        fn("HostingConfiguration") { c in
            guard let view = c.L.box(1, as: SwiftUIView.self) else { throw c.host.swiftUITypeError(c, 1, "swiftui.View") }
            let configuration = try HostingConfiguration(rootView: view)
            c.host.push(configuration)
            c.L.pushValue(1)
            c.host.setUserValueField(-2, "rootView")
            return 1
        }
        for e in BuiltinEnvironmentKeys.valueTypes {
            push(e)
            L.rawSet(t, e.name)
        }
    }

    // MARK: - Objects

    /// Pushes the field `name` of the binding's state table.
    private func pushState(_ name: String) {
        _ = L.rawGet(tl_registryindex(), stateKey)
        _ = L.rawGet(-1, name)
        tl_remove(L, -2)
    }

    /// Pushes the box for `obj` from `table` (objects or keys), making it with
    /// `meta` and an empty user-value table on first use.
    private func pushObject(_ obj: AnyObject, kind: BoxKind, meta: String, table: String = "objects") {
        let key = Unmanaged.passUnretained(obj).toOpaque()
        pushState(table)
        if tl_rawgetp(L, -1, key) != LUA_TNIL {
            tl_remove(L, -2)
            return
        }
        L.pop()
        L.pushBox(obj, kind: kind, userValues: 1)
        L.newTable()
        _ = tl_setuservalue(L, -2)
        pushState(meta)
        lua_setmetatable(L, -2)
        L.pushValue(-1)
        tl_rawsetp(L, -3, key)
        tl_remove(L, -2)
    }

    package func push(_ view: SwiftUIView) {
        pushObject(view, kind: view is Representable ? .representable : .swiftUIView, meta: "viewMeta")
    }

    package func push(_ key: EnvironmentKeyDefinition) {
        pushObject(key, kind: .environmentKey, meta: "keyMeta", table: "keys")
    }

    package func push(_ configuration: HostingConfiguration) {
        pushObject(configuration, kind: .hostingConfiguration, meta: "configurationMeta")
    }

    /// A fresh, read-only proxy for environment values. Its reads go through
    /// the engine, so a body's reads are recorded as its dependencies.
    package func push(_ values: EnvironmentValues) {
        L.pushBox(values, kind: .swiftUIView)
        pushState("valuesMeta")
        lua_setmetatable(L, -2)
    }

    /// T[name] = the value on top (popped), T being the user value of the box at `i`.
    fileprivate func setUserValueField(_ i: Int32, _ name: String) {
        let u = L.absIndex(i)
        guard tl_getuservalue(L, u) == LUA_TTABLE else { L.pop(2); return }
        L.pushValue(-2)
        L.rawSet(-2, name)
        L.pop(2)
    }

    /// Pushes T[name] for the box at `i` and returns its type.
    @discardableResult
    fileprivate func pushUserValueField(_ i: Int32, _ name: String) -> Int32 {
        let u = L.absIndex(i)
        guard tl_getuservalue(L, u) == LUA_TTABLE else { L.pop(); L.pushNil(); return LUA_TNIL }
        let type = L.rawGet(-1, name)
        tl_remove(L, -2)
        return type
    }

    /// The name of what is at `i`, knowing the SwiftUI objects.
    fileprivate func swiftUITypeError(_ c: LuaCall, _ i: Int32, _ expected: String) -> LuaError {
        c.argError(i, "\(expected) expected, got \(L.isNil(i) ? "no value" : L.typeName(i))")
    }

    /// Checks that the table at `i` has only `fields`.
    private func checkFields(_ c: LuaCall, _ i: Int32, _ what: String, _ fields: [String]) throws {
        try L.forEachPair(i) {
            guard let k = L.string(-2), fields.contains(k) else {
                let shown = L.string(-2).map { "'\($0)'" } ?? L.typeName(-2)
                throw c.argError(i, "unknown field \(shown) in \(what) (fields: \(fields.joined(separator: ", ")))")
            }
        }
    }

    // MARK: - Environment keys

    /// The key named by the value at `i`: a key object or a property name.
    func environmentKey(at i: Int32) throws -> EnvironmentKeyDefinition {
        if let k = L.box(i, as: EnvironmentKeyDefinition.self) { return k }
        guard let name = L.string(i) else {
            throw LuaError.message("expected an environment key or its name, got \(L.typeName(i))")
        }
        if let k = world.environmentKeys.key(named: name) { return k }
        throw LuaError.message("unknown environment key '\(name)'\(keySuggestion(for: name))")
    }

    private func keySuggestion(for name: String) -> String {
        didYouMean(name, among: world.environmentKeys.keys.map(\.name))
    }

    /// `swiftui.EnvironmentKey { name = "myAppTheme", default = "standard" [, type = ...] }`.
    private func defineEnvironmentKey(_ c: LuaCall) throws -> Int32 {
        try c.table(1)
        try checkFields(c, 1, "environment key", ["name", "default", "type", "swift"])
        try chargeEngine(512)   // the key and its entry in the registry
        guard L.rawGet(1, "name") == LUA_TSTRING, let name = try L.keptString(-1), !name.isEmpty else {
            throw c.argError(1, "environment key needs a 'name' string")
        }
        _ = L.rawGet(1, "default")
        let defaultIndex = L.top
        _ = L.rawGet(1, "type")
        let typeIndex = L.top
        let (type, isOptional) = try declaredValueType(type: typeIndex, default: defaultIndex,
                                                       of: "environment key '\(name)'", noun: "key")
        let key = try EnvironmentKeyDefinition(name: name, valueType: type, defaultValue: try traitValue(at: defaultIndex),
                                               isOptional: isOptional)
        key.owner = plugins.loading
        _ = L.rawGet(1, "swift")
        key.swift = try swiftDeclaration(at: L.top, of: "environment key '\(name)'")
        let registry = world.environmentKeys
        if let existing = registry.key(named: name), let owner = key.owner, existing.owner == owner,
           plugins.reloading != nil || plugins.plugins[owner] == nil {
            // A plugin reload (or a new attempt after a failed load) defines its key
            // again: same object, new contents, bridged again by the setup.
            registry.redefine(existing, like: key)
            push(existing)
            L.pushNil(); setUserValueField(-2, "read")
            L.pushNil(); setUserValueField(-2, "write")
            return 1
        }
        try registry.register(key)
        push(key)
        return 1
    }

    /// `swiftui.bridge(key, { read = function(traitCollection) end, write = function(mutableTraits, value) end })`.
    private func bridgeEnvironmentKey(_ c: LuaCall) throws -> Int32 {
        let key = try environmentKey(at: 1)
        try c.table(2)
        try checkFields(c, 2, "bridge", ["read", "write"])
        for f in ["read", "write"] {
            guard L.rawGet(2, f) == LUA_TFUNCTION else {
                throw c.argError(2, "the bridge needs a '\(f)' function, got \(L.typeName(-1) == "nil" ? "nil" : L.typeName(-1))")
            }
            L.pop()
        }
        try world.environmentKeys.bridge(key, with: LuaBridge(host: self, key: key))
        push(key)
        for f in ["read", "write"] {
            _ = L.rawGet(2, f)
            setUserValueField(-2, f)
        }
        return 1
    }

    private func makeKeyMeta() -> Int32 {
        makeMeta(name: "EnvironmentKey", index: ("swiftui.key.index", { c in
            let key = try c.object(1, EnvironmentKeyDefinition.self, "EnvironmentKey")
            let field = try c.string(2)
            switch field {
            case "name": c.L.push(key.name)
            case "default": c.host.push(key.defaultValue)
            case "type": if case .enumeration(let e) = key.valueType { c.host.push(e) } else { c.L.push(key.valueType.name) }
            case "isOptional": c.L.push(key.isOptional)
            case "isBridged": c.L.push(key.bridge != nil)
            case "isBuiltin": c.L.push(key.isBuiltin)
            default:
                throw LuaError.message("EnvironmentKey has no field '\(field)' (name, default, type, isOptional, isBridged, isBuiltin)")
            }
            return 1
        }), methods: [:], newindex: { _ in throw LuaError.message("environment keys are read-only") }, tostring: { c in
            let key = try c.object(1, EnvironmentKeyDefinition.self, "EnvironmentKey")
            c.L.push("EnvironmentKey(\(key.name))")
            return 1
        })
    }

    // MARK: - Environment values

    private func makeValuesMeta() -> Int32 {
        func values(_ c: LuaCall) throws -> EnvironmentValues { try c.object(1, EnvironmentValues.self, "EnvironmentValues") }
        return makeMeta(name: "EnvironmentValues", index: ("swiftui.values.index", { c in
            let v = try values(c)
            c.host.push(v[try c.host.environmentKey(at: 2)])
            return 1
        }), methods: [:], newindex: { _ in
            throw LuaError.message("environment values are read-only; set one with view:environment(key, value)")
        }, tostring: { c in
            let v = try values(c)
            try c.host.chargeEngine(c.host.textCost(of: v.entries.map(\.value), times: 2))
            let parts = v.entries.map { "\($0.key.name) = \(TraitEngine.describe($0.value))" }
            c.L.push(parts.isEmpty ? "EnvironmentValues {}" : "EnvironmentValues { " + parts.joined(separator: ", ") + " }")
            return 1
        }, extra: [
            // view:environment(key, value) is view.environment(view, key, value): the proxy is callable.
            ("__call", "swiftui.View:environment", { c in
                guard let view = c.L.box(2, as: SwiftUIView.self) else {
                    throw LuaError.message("environment modifiers are set with view:environment(key, value) (note the colon)")
                }
                let key = try c.host.environmentKey(at: 3)
                try view.environment(key, try c.host.traitValue(at: 4))
                c.L.pushValue(2)
                return 1
            }),
            ("__eq", "swiftui.values.eq", { c in
                guard let a = c.L.box(1, as: EnvironmentValues.self), let b = c.L.box(2, as: EnvironmentValues.self) else {
                    c.L.push(false)
                    return 1
                }
                c.L.push(a == b)
                return 1
            }),
            ("__pairs", "swiftui.values.pairs", { c in
                let v = try values(c)
                c.L.registryGet(c.host.refs.next)
                c.L.newTable(nrec: Int32(clamping: v.entries.count))
                for e in v.entries {
                    c.host.push(e.value)
                    c.L.rawSet(-2, e.key.name)
                }
                c.L.pushNil()
                return 3
            }),
        ])
    }

    // MARK: - Views

    /// `swiftui.View { name = ..., body = function(env) ... end, content = { ... } }`.
    private func makeSwiftUIView(_ c: LuaCall) throws -> Int32 {
        if L.isNil(1) { L.setTop(0); L.newTable() } else { try c.table(1) }
        try checkFields(c, 1, "swiftui.View", ["name", "body", "content"])
        try chargeEngine(1024)
        let name = try optionalName(c)
        let bodyType = L.rawGet(1, "body")
        guard bodyType == LUA_TFUNCTION || bodyType == LUA_TNIL else {
            throw c.argError(1, "body must be a function, got \(L.typeName(-1))")
        }
        L.pop()
        let content = try contentViews(c)
        let view = try SwiftUIView(name: name, content: content)
        if bodyType == LUA_TFUNCTION {
            view.body = { [unowned self, unowned view] env in try self.runBody(of: view, env) }
        }
        push(view)
        let u = L.top
        _ = L.rawGet(1, "body"); setUserValueField(u, "body")
        _ = L.rawGet(1, "content"); setUserValueField(u, "content")
        return 1
    }

    private func optionalName(_ c: LuaCall) throws -> String? {
        defer { L.pop() }
        switch L.rawGet(1, "name") {
        case LUA_TNIL: return nil
        case LUA_TSTRING: return try L.keptString(-1)
        default: throw c.argError(1, "name must be a string, got \(L.typeName(-1))")
        }
    }

    /// The views in the `content` array of the table at 1.
    private func contentViews(_ c: LuaCall) throws -> [SwiftUIView] {
        defer { L.pop() }
        let t = L.rawGet(1, "content")
        if t == LUA_TNIL { return [] }
        guard t == LUA_TTABLE else { throw c.argError(1, "content must be an array of SwiftUI views, got \(L.typeName(-1))") }
        let list = L.top
        var views: [SwiftUIView] = []
        let n = L.rawLength(list)
        try L.forEachPair(list) {
            guard let k = L.integer(-2), k >= 1, k <= n, lua_type(L, -2) == LUA_TNUMBER else {
                throw c.argError(1, "content must be an array (keys 1 to n)")
            }
        }
        for k in 1...max(n, 1) where n > 0 {
            lua_rawgeti(L, list, lua_Integer(k))
            defer { L.pop() }
            guard let v = L.box(-1, as: SwiftUIView.self) else {
                throw c.argError(1, "content item \(k) must be a SwiftUI view, got \(L.typeName(-1))")
            }
            views.append(v)
        }
        return views
    }

    /// `swiftui.ViewControllerRepresentable { makeViewController = ..., updateViewController = ... }`
    /// and `swiftui.ViewRepresentable { makeView = ..., updateView = ... }`.
    private func makeRepresentable(_ c: LuaCall, kind: Representable.Kind) throws -> Int32 {
        try c.table(1)
        let (makeName, updateName) = kind == .viewController ? ("makeViewController", "updateViewController") : ("makeView", "updateView")
        try checkFields(c, 1, "swiftui.\(kind.rawValue)", ["name", makeName, updateName])
        try chargeEngine(1024)
        let name = try optionalName(c)
        guard L.rawGet(1, makeName) == LUA_TFUNCTION else {
            throw c.argError(1, "\(kind.rawValue) needs a '\(makeName)' function, got \(L.typeName(-1))")
        }
        L.pop()
        let updateType = L.rawGet(1, updateName)
        guard updateType == LUA_TFUNCTION || updateType == LUA_TNIL else {
            throw c.argError(1, "\(updateName) must be a function, got \(L.typeName(-1))")
        }
        L.pop()
        weak var rep: Representable?
        let make: (RepresentableContext) throws -> TraitEnvironment = { [unowned self] context in
            guard let rep else { throw LuaError.message("\(makeName) called for a released representable") }
            return try self.makeRoot(of: rep, context, function: makeName)
        }
        var update: ((TraitEnvironment, RepresentableContext) throws -> Void)?
        if updateType == LUA_TFUNCTION {
            update = { [unowned self] root, context in
                guard let rep else { return }
                try self.updateRoot(of: rep, root, context)
            }
        }
        let made = Representable(kind: kind, name: name, make: make, update: update)
        rep = made
        push(made)
        let u = L.top
        _ = L.rawGet(1, makeName); setUserValueField(u, "make")
        _ = L.rawGet(1, updateName); setUserValueField(u, "update")
        return 1
    }

    /// Calls a Lua body; what it returns is kept in T.rendered.
    private func runBody(of view: SwiftUIView, _ env: EnvironmentValues) throws -> Any? {
        let base = L.top
        defer { L.setTop(base) }
        push(view)
        let u = L.top
        guard pushUserValueField(u, "body") == LUA_TFUNCTION else { return nil }
        push(env)
        try call(1, results: 1)
        setUserValueField(u, "rendered")
        return nil
    }

    /// `{ environment = ... }`, the context a representable's functions get.
    private func push(_ context: RepresentableContext) {
        L.newTable(nrec: 1)
        push(context.environment)
        L.rawSet(-2, "environment")
    }

    private func makeRoot(of rep: Representable, _ context: RepresentableContext, function: String) throws -> TraitEnvironment {
        let base = L.top
        defer { L.setTop(base) }
        push(rep)
        let u = L.top
        guard pushUserValueField(u, "make") == LUA_TFUNCTION else {
            throw LuaError.message("\(rep) has no \(function) function")
        }
        push(context)
        try call(1, results: 1)
        let expected = rep.kind == .viewController ? "a ui.ViewController" : "a ui.View"
        guard let root = L.box(-1, as: TraitEnvironment.self) else {
            throw LuaError.message("\(function) of \(rep) must return \(expected), got \(L.typeName(-1))")
        }
        // Kept from the representable's object while it is made (the tree holds it once placed).
        setUserValueField(u, "root")
        return root
    }

    private func updateRoot(of rep: Representable, _ root: TraitEnvironment, _ context: RepresentableContext) throws {
        let base = L.top
        defer { L.setTop(base) }
        push(rep)
        guard pushUserValueField(-1, "update") == LUA_TFUNCTION else { return }
        push(root)
        push(context)
        try call(2)
    }

    private func makeViewMeta() -> Int32 {
        func view(_ c: LuaCall) throws -> SwiftUIView {
            guard let v = c.L.box(1, as: SwiftUIView.self) else { throw c.host.swiftUITypeError(c, 1, "swiftui.View") }
            return v
        }
        return makeMeta(name: "SwiftUIView", index: ("swiftui.view.index", { c in
            let v = try view(c)
            let field = try c.string(2)
            let rep = v as? Representable
            switch field {
            case "name": if let n = v.name { c.L.push(n) } else { c.L.pushNil() }
            case "rendered": c.host.pushUserValueField(1, "rendered")
            case "bodyCount": c.L.push(v.bodyCount)
            case "environment":
                // (A view not hosted yet makes its values now; Lua keeps them as long as it keeps the object.)
                let values = v.environment
                try c.host.chargeSmall(64 + values.entries.count * MemoryLayout<EnvironmentValues.Entry>.stride)
                c.host.push(values)
            case "content":
                guard c.L.newTable(narr: Int32(clamping: v.content.count)), c.L.roomForLua(96 * v.content.count) else { return 1 }
                for (k, child) in v.content.enumerated() {
                    c.host.push(child)
                    lua_rawseti(c.L, -2, lua_Integer(k + 1))
                }
            case "isHosted": c.L.push(v.isHosted)
            case "viewController" where rep?.kind == .viewController, "uiView" where rep?.kind == .view:
                if let root = rep?.root { c.host.push(root) } else { c.L.pushNil() }
            default:
                let extra = rep.map { $0.kind == .viewController ? ", viewController" : ", uiView" } ?? ""
                throw LuaError.message("\(v.className) has no field '\(field)' (name, rendered, bodyCount, environment, content, isHosted\(extra))")
            }
            return 1
        }), methods: [:], newindex: { c in
            let v = try view(c)
            if c.L.string(2) == "name" {
                if c.L.isNil(3) { v.name = nil; return 0 }
                v.name = try c.string(3)
                return 0
            }
            throw LuaError.message("cannot set '\(c.L.string(2) ?? c.host.L.typeName(2))' on \(v): SwiftUI views are read-only (set environment values with view:environment(key, value))")
        }, tostring: { c in
            c.L.push(try view(c).description)
            return 1
        })
    }

    // MARK: - Hosting

    private func makeConfigurationMeta() -> Int32 {
        makeMeta(name: "HostingConfiguration", index: ("swiftui.configuration.index", { c in
            let cfg = try c.object(1, HostingConfiguration.self, "HostingConfiguration")
            switch try c.string(2) {
            case "rootView": c.host.push(cfg.rootView)
            case "view": if let v = cfg.view { c.host.push(v) } else { c.L.pushNil() }
            case let f: throw LuaError.message("HostingConfiguration has no field '\(f)' (rootView, view)")
            }
            return 1
        }), methods: [:], newindex: { _ in throw LuaError.message("hosting configurations are read-only") }, tostring: { c in
            c.L.push(try c.object(1, HostingConfiguration.self, "HostingConfiguration").description)
            return 1
        })
    }

    /// `hostingController.rootView` and `view.contentConfiguration` (nil elsewhere).
    func pushHostingProperty(key: String, of env: TraitEnvironment) {
        if key == "rootView", let root = (env as? HostingController)?.rootView {
            push(root)
        } else if key == "contentConfiguration", let cfg = (env as? View)?.contentConfiguration {
            push(cfg)
        } else {
            L.pushNil()
        }
    }

    /// Sets `rootView` or `contentConfiguration` on the environment object at
    /// `object`, keeping the Lua object of what it now hosts in its field table.
    func setHostingProperty(_ key: String, of env: TraitEnvironment, object: Int32, value v: Int32) throws {
        if key == "rootView" {
            guard let hc = env as? HostingController else { throw LuaError.message("\(env.className) has no property 'rootView'") }
            var root: SwiftUIView?
            if !L.isNil(v) {
                guard let view = L.box(v, as: SwiftUIView.self) else {
                    throw LuaError.message("rootView must be a SwiftUI view, got \(L.typeName(v))")
                }
                root = view
            }
            try hc.setRootView(root)
        } else {
            guard let view = env as? View else { throw LuaError.message("\(env.className) has no property 'contentConfiguration'") }
            var cfg: HostingConfiguration?
            if !L.isNil(v) {
                guard let c = L.box(v, as: HostingConfiguration.self) else {
                    throw LuaError.message("contentConfiguration must be a swiftui.HostingConfiguration, got \(L.typeName(v))")
                }
                cfg = c
            }
            try view.setContentConfiguration(cfg)
        }
        L.pushValue(v)
        setHostField(object, "__" + key)
    }
}

/// A bridge whose read and write are Lua functions, kept in the key's T.
final class LuaBridge: EnvironmentBridge {
    unowned let host: LuaHost
    unowned let key: EnvironmentKeyDefinition

    init(host: LuaHost, key: EnvironmentKeyDefinition) {
        self.host = host
        self.key = key
    }

    private func pushFunction(_ name: String) throws {
        host.push(key)
        guard host.pushUserValueField(-1, name) == LUA_TFUNCTION else {
            throw TraitError("environment key '\(key.name)' has no \(name) function")
        }
        tl_remove(host.L, -2)
    }

    func read(from traitCollection: TraitCollection) throws -> TraitValue {
        let L = host.L
        let base = L.top
        defer { L.setTop(base) }
        try pushFunction("read")
        host.push(traitCollection)
        do {
            try host.call(1, results: 1)
            return try host.traitValue(at: -1)
        } catch let e as LuaError {
            throw TraitError(host.text(of: e))   // (a value raised: its __tostring, and the slot it held is freed)
        }
    }

    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws {
        let L = host.L
        let base = L.top
        defer { L.setTop(base) }
        try pushFunction("write")
        let box = MutableTraitsBox(mutableTraits)
        defer { box.isValid = false }
        L.pushBox(box, kind: .mutableTraits)
        L.registryTable(host.refs.mutableMeta)
        lua_setmetatable(L, -2)
        host.push(value)
        do {
            try host.call(2)
        } catch let e as LuaError {
            throw TraitError(host.text(of: e))   // (a value raised: its __tostring, and the slot it held is freed)
        }
        mutableTraits = box.traits
    }
}

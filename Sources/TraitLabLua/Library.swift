import CLua
import CLuaShim
import TraitEngine

/// A `ui.Color` value: fixed or dynamic.
final class ColorBox {
    let value: ColorValue
    init(_ v: ColorValue) { value = v }
}

extension LuaHost {
    /// Builds `traits`, `ui`, `swiftui` and `plugins`, sets them as globals and
    /// as `package.loaded.traitlab`.
    func installLibrary() throws {
        L.registryTable(LUA_RIDX_GLOBALS)
        _ = L.rawGet(-1, "next")
        refs.next = L.ref()
        L.pop()
        installTraitMetatables()
        installOverridesMeta()
        refs.tokenMeta = makeMeta(name: "TraitChangeRegistration", index: ("token.index", { c in
            let t = try c.object(1, TraitChangeRegistration.self, "TraitChangeRegistration")
            guard c.L.string(2) == "isActive" else { throw LuaError.message("TraitChangeRegistration has no field '\(c.L.string(2) ?? c.L.typeName(2))'") }
            c.L.push(t.isActive)
            return 1
        }), methods: [:], newindex: { _ in throw LuaError.message("registrations are read-only") }, tostring: { c in
            let t = try c.object(1, TraitChangeRegistration.self, "TraitChangeRegistration")
            c.L.push("TraitChangeRegistration(\(t.isActive ? "active" : "ended"))")
            return 1
        })
        installColorMeta()
        // (The colour cache, color_cache.lua, is loaded when a colour first
        // keeps an answer: keepResolution.)

        L.newTable()
        let lib = L.top
        installTraits()
        L.rawSet(lib, "traits")
        installUI()
        try installObservable(into: -1)
        try installResources(into: -1)
        L.rawSet(lib, "ui")
        installSwiftUI()
        L.rawSet(lib, "swiftui")
        installPlugins()
        L.rawSet(lib, "plugins")

        for name in ["traits", "ui", "swiftui", "plugins"] {
            L.registryTable(LUA_RIDX_GLOBALS)
            _ = L.rawGet(lib, name)
            L.rawSet(-2, name)
            L.pop()
        }
        // require("traitlab") returns the same table.
        L.registryTable(LUA_RIDX_GLOBALS)
        if L.rawGet(-1, "package") == LUA_TTABLE, L.rawGet(-1, "loaded") == LUA_TTABLE {
            L.pushValue(lib)
            L.rawSet(-2, "traitlab")
        }
        L.setTop(lib)
        refs.library = L.ref()
    }

    /// Pushes `{ traits, ui, swiftui, plugins }`.
    public func pushLibrary() { L.registryTable(refs.library) }

    private func installUI() {
        L.newTable()
        let ui = L.top
        // The environment classes (ui.View and the rest, a fifth of start-up)
        // are made when first needed: ensureEnvironmentClasses.
        L.pushValue(ui)
        refs.pendingUI = L.ref()
        installTypeLibrary(into: ui)
        func fn(_ name: String, _ body: @escaping LuaFunction) { setFunction(ui, "ui", name, body) }
        fn("update") { c in
            try c.host.world.update()
            return 0
        }
        fn("stats") { c in
            // A world always has its main screen (the engine makes it on
            // first use; ui.Screen.main, once read, holds it): counted.
            _ = c.host.world.mainScreen
            let s = c.host.world.stats
            let fields: [(String, Int)] = [
                ("environments", s.environments), ("traitUpdates", s.traitUpdates), ("handlersCalled", s.handlersCalled),
                ("layouts", s.layouts), ("draws", s.draws), ("propertyUpdates", s.propertyUpdates),
                ("overridesSet", s.overridesSet), ("updates", s.updates), ("passes", s.passes),
                ("environmentsVisited", s.environmentsVisited), ("lastUpdateVisited", s.lastUpdateVisited),
                ("collectionsCreated", TraitCollection.createdCount), ("luaMemory", c.host.memoryInUse),
            ]
            c.L.newTable(nrec: Int32(clamping: fields.count))
            for (k, v) in fields { c.L.push(v); c.L.rawSet(-2, k) }
            return 1
        }
        fn("dump") { c in
            let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
            let format = try c.optString(2) ?? "tree"
            var width: Int?
            if !c.L.isNil(3) {
                guard let w = c.L.integer(3), w > 0 else { throw c.argError(3, "width in columns expected, a positive integer") }
                width = w
            }
            // (Asked for as it grows; the copy Lua gets is Lua's, counted.)
            let text = try c.host.dump(env, format: format, width: width)
            c.L.push(text)
            return 1
        }
        fn("picture") { c in
            let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
            let path = try c.string(2)
            var trait: TraitDefinition?
            var why: TraitEnvironment?
            var timeout = 20.0
            var full = false
            if !c.L.isNil(3) {
                try c.table(3)
                // A misspelt option is an error, not a picture drawn without it.
                try c.L.forEachPair(3) {
                    guard let k = c.L.string(-2), ["trait", "why", "full", "timeout"].contains(k) else {
                        throw c.argError(3, "unknown option \(c.L.string(-2).map { "'\($0)'" } ?? c.L.typeName(-2)) (options: trait, why, full, timeout)")
                    }
                }
                if c.L.rawGet(3, "trait") != LUA_TNIL { trait = try c.host.definition(forKey: -1) }
                c.L.pop()
                if c.L.rawGet(3, "why") != LUA_TNIL {
                    guard let e = c.L.box(-1, as: TraitEnvironment.self) else {
                        throw c.argError(3, "options.why must be a trait environment, got \(c.L.typeName(-1))")
                    }
                    guard trait != nil else { throw c.argError(3, "options.why needs options.trait: the trait whose path to draw") }
                    why = e
                }
                c.L.pop()
                if c.L.rawGet(3, "full") != LUA_TNIL {
                    guard lua_type(c.L, -1) == LUA_TBOOLEAN else { throw c.argError(3, "options.full must be a boolean, got \(c.L.typeName(-1))") }
                    full = lua_toboolean(c.L, -1) != 0
                }
                c.L.pop()
                if c.L.rawGet(3, "timeout") != LUA_TNIL {
                    guard let t = c.L.number(-1), t > 0, t <= 3600 else {
                        throw c.argError(3, "options.timeout must be a number of seconds between 0 and 3600")
                    }
                    timeout = t
                }
                c.L.pop()
            }
            c.L.push(try c.host.picture(env, path: path, trait: trait, why: why, full: full, timeout: timeout))
            return 1
        }
        fn("trace") { c in try c.host.setTrace(c) }
        // ui.find(name): the one environment of that name in a connected
        // scene (or the scenes' screens); ui.findAll(name): all of them.
        fn("find") { c in
            let name = try c.string(1)
            let found = c.host.environments(named: name)
            guard found.count <= 1 else {
                let shown = found.prefix(5).map { c.host.describePlace(of: $0) }.joined(separator: "; ")
                throw LuaError.message("ui.find: \(found.count) environments are named \"\(name)\" (\(shown)\(found.count > 5 ? "; ..." : "")); use ui.findAll or name them apart")
            }
            if let e = found.first { c.host.push(e) } else { c.L.pushNil() }
            return 1
        }
        fn("findAll") { c in
            let found = c.host.environments(named: try c.string(1))
            c.L.newTable(narr: Int32(clamping: found.count))
            for (k, e) in found.enumerated() { c.host.push(e); lua_rawseti(c.L, -2, lua_Integer(k + 1)) }
            return 1
        }
        // ui.hierarchyMode is a property: reads and writes go through the metatable.
        L.newTable()
        L.pushFunction(LuaFunctions.id("ui.index", { c in
            // A class not made yet (ui.View, ...): made now, with the others.
            if c.host.refs.pendingUI != LUA_NOREF, lua_type(c.L, 1) == LUA_TTABLE, let k = c.L.string(2),
               LuaHost.environmentClassNames.contains(k) {
                c.host.ensureEnvironmentClasses()
                c.L.setTop(2)
                lua_rawget(c.L, 1)
                return 1
            }
            // ui.devices: a fresh list at each read (the catalogue's names, as
            // the layout guidelines list them), so no script changes what
            // another part of the run reads.
            if c.L.string(2) == "devices" {
                c.L.newTable(narr: Int32(DeviceCatalogue.devices.count))
                for (k, d) in DeviceCatalogue.devices.enumerated() {
                    c.L.push(d.name)
                    lua_rawseti(c.L, -2, lua_Integer(k + 1))
                }
                return 1
            }
            guard c.L.string(2) == "hierarchyMode" else { c.host.pushVersionProperty(c.L.string(2)); return 1 }
            c.L.push(c.host.world.hierarchyMode.rawValue)
            return 1
        }))
        L.rawSet(-2, "__index")
        L.pushFunction(LuaFunctions.id("ui.newindex", { c in
            // (A class's name written before the classes are made: they are
            // made first, so the write is what stays.)
            if c.host.refs.pendingUI != LUA_NOREF, let k = c.L.string(2), LuaHost.environmentClassNames.contains(k) {
                try c.table(1)   // (the metamethod may be called with anything, through the debug library)
                c.host.ensureEnvironmentClasses()
                c.L.setTop(3)
                lua_rawset(c.L, 1)
                return 0
            }
            // Like any Lua library table, ui takes new fields; only hierarchyMode is special.
            guard c.L.string(2) == "hierarchyMode" else {
                if c.L.string(2) == "devices" { throw LuaError.message("ui.devices is read-only (the device catalogue)") }
                if try c.host.setVersionProperty(c) { return 0 }
                try c.table(1)
                guard c.L.isTableKey(2) else { throw LuaError.message("ui: table index is nil or NaN") }
                c.L.setTop(3)
                lua_rawset(c.L, 1)
                return 0
            }
            guard let s = c.L.string(3), let mode = HierarchyMode(rawValue: s) else {
                throw LuaError.message("ui.hierarchyMode must be \"ios17\" or \"legacy\", got \(c.L.string(3).map { "\"\($0)\"" } ?? c.L.typeName(3))")
            }
            // View controllers inheriting from their view's superview is iOS 17's flow.
            if mode == .ios17 { try c.host.world.require(.traitSystem, "ui.hierarchyMode = \"ios17\" (the iOS 17 trait flow)") }
            c.host.world.hierarchyMode = mode
            return 0
        }))
        L.rawSet(-2, "__newindex")
        // pairs(ui) lists the classes too (made first if they are not yet).
        L.pushFunction(LuaFunctions.id("ui.pairs", { c in
            c.host.ensureEnvironmentClasses()
            c.L.registryGet(c.host.refs.next)
            c.L.pushValue(1)
            c.L.pushNil()
            return 3
        }))
        L.rawSet(-2, "__pairs")
        L.push("ui"); L.rawSet(-2, "__metatable")
        lua_setmetatable(L, ui)
        // ui.Color
        L.newTable()
        let color = L.top
        L.pushFunction(LuaFunctions.id("ui.Color.dynamic", { c in
            try c.function(1)
            // The function belongs to the color object (its user value); Swift
            // finds it through a weak table, so a function that captures the
            // view using the color is a Lua-only cycle.
            let provider = DynamicColorFunction(host: c.host)
            c.L.registryTable(c.host.refs.dynamicColorFunctions)
            c.L.pushValue(1)
            lua_rawseti(c.L, -2, lua_Integer(provider.id))
            c.L.pop()
            c.host.pushColor(.dynamic(DynamicColor { [provider] tc in try provider.resolve(tc) }))
            c.L.pushValue(1)
            _ = tl_setuservalue(c.L, -2)
            return 1
        }))
        L.rawSet(color, "dynamic")
        L.newTable()
        L.pushFunction(LuaFunctions.id("ui.Color", { c in
            if let hex = c.L.string(2) {
                c.host.pushColor(.fixed(try Color(hex: hex)))
                return 1
            }
            var comps: [Double] = []
            for i: Int32 in 2...5 {
                if i == 5 && c.L.isNil(i) { break }
                guard let d = c.L.number(i) else {
                    throw LuaError.message("ui.Color expects (r, g, b [, a]) numbers from 0 to 1 or a \"#RRGGBB\" string; argument \(i - 1) is \(c.L.typeName(i))")
                }
                comps.append(d)
            }
            c.host.pushColor(.fixed(try Color(red: comps[0], green: comps[1], blue: comps[2], alpha: comps.count > 3 ? comps[3] : 1)))
            return 1
        }))
        L.rawSet(-2, "__call")
        installColorNames(meta: -1)
        L.push("ui.Color"); L.rawSet(-2, "__metatable")
        lua_setmetatable(L, color)
        L.pushFunction(LuaFunctions.id("ui.Color.names", { c in c.host.pushStrings(SystemColors.names); return 1 }))
        L.rawSet(color, "names")
        L.rawSet(ui, "Color")
    }

    // MARK: - Colors

    private func installColorMeta() {
        refs.colorMeta = makeMeta(name: "Color", index: ("color.index", { c in
            let box = try c.object(1, ColorBox.self, "Color")
            let key = try c.string(2)
            guard case .fixed(let color) = box.value else {
                if key == "isDynamic" { c.L.push(true); return 1 }
                if key == "name", case .named(let n) = box.value { c.L.push(n.name); return 1 }
                throw LuaError.message("a dynamic color has no '\(key)'; resolve it first with color:resolvedColor(traitCollection)")
            }
            switch key {
            case "red": c.L.push(color.red)
            case "green": c.L.push(color.green)
            case "blue": c.L.push(color.blue)
            case "alpha": c.L.push(color.alpha)
            case "hex": c.L.push(color.hexString)
            case "isDynamic": c.L.push(false)
            case "name": c.L.pushNil()   // (only system colours and colour sets have one)
            default: throw LuaError.message("Color has no field '\(key)' (red, green, blue, alpha, hex, isDynamic, name, resolvedColor)")
            }
            return 1
        }), methods: [
            "resolvedColor": ("Color:resolvedColor", LuaHost.resolveColor),
        ], newindex: { _ in throw LuaError.message("colors are immutable") }, tostring: { c in
            let box = try c.object(1, ColorBox.self, "Color")
            switch box.value {
            case .fixed(let color): c.L.push(color.hexString)   // (a resolved colour reads as its sRGB hex)
            case .dynamic: c.L.push("Color(dynamic)")
            case .named(let n): c.L.push("Color(\(n.name))")
            }
            return 1
        }, extra: [("__eq", "color.eq", { c in
            guard let a = c.L.box(1, as: ColorBox.self), let b = c.L.box(2, as: ColorBox.self) else { c.L.push(false); return 1 }
            switch (a.value, b.value) {
            case let (.fixed(x), .fixed(y)): c.L.push(x == y)
            case let (.dynamic(x), .dynamic(y)): c.L.push(x === y)
            case let (.named(x), .named(y)): c.L.push(x === y)
            default: c.L.push(false)
            }
            return 1
        })])
    }

    func pushColor(_ v: ColorValue) {
        L.pushBox(ColorBox(v), kind: .color, userValues: 1)
        L.registryTable(refs.colorMeta)
        lua_setmetatable(L, -2)
    }

    // MARK: - Sandbox

    /// Removes what an untrusted script must not reach: files, processes,
    /// native code, and the parts of `debug` that can break the VM.
    func applySandbox() throws {
        // The rules are written down in docs/sandbox.md, "--sandbox", and live in
        // the embedded sandbox.lua, shared with `traitlab test --sandbox`.
        let base = L.top
        defer { L.setTop(base) }
        try pushSandboxModule()
        _ = L.rawGet(-1, "applyToGlobals")
        L.registryTable(LUA_RIDX_GLOBALS)
        L.registryTable(LUA_RIDX_GLOBALS)
        _ = L.rawGet(-1, "plugins")
        tl_remove(L, -2)
        if tl_pcall(L, 2, 0) != LUA_OK { throw LuaError.message("cannot set up the sandbox: \(popError())") }
    }

    /// Pushes the embedded sandbox module (its table of rules).
    package func pushSandboxModule() throws {
        try loadEmbedded("sandbox")
        // Its one argument: realpath, with which `require` checks where a module really is.
        lua_pushcclosure(L, tl_lua_realpath, 0)
        guard tl_pcall(L, 1, 1) == LUA_OK else {
            throw LuaError.message("cannot load the sandbox module: \(popError())")
        }
    }
}

/// The Lua function of a dynamic color, found by number in a weak table (the
/// color object's user value keeps it alive).
final class DynamicColorFunction {
    nonisolated(unsafe) private static var nextID = 1
    weak var host: LuaHost?
    let id: Int

    init(host: LuaHost) {
        self.host = host
        id = DynamicColorFunction.nextID
        DynamicColorFunction.nextID += 1
    }

    func resolve(_ tc: TraitCollection) throws -> Color {
        guard let host, !host.isClosed else { throw LuaError.message("the Lua state of this dynamic color is closed") }
        let L = host.L
        let base = L.top
        defer { L.setTop(base) }
        L.registryTable(host.refs.dynamicColorFunctions)
        guard lua_rawgeti(L, -1, lua_Integer(id)) == LUA_TFUNCTION else {
            throw LuaError.message("this dynamic color's function was collected (keep the ui.Color object referenced)")
        }
        host.push(tc)
        try host.call(1, results: 1)
        guard let box = L.box(-1, as: ColorBox.self) else {
            throw LuaError.message("a dynamic color's function must return a ui.Color, got \(L.typeName(-1))")
        }
        return try box.value.resolved(with: tc)
    }
}

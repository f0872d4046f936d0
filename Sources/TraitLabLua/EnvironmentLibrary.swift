import CLua
import CLuaShim
import TraitEngine

/// `env.traitOverrides`: a proxy bound to one environment.
final class OverridesBox {
    let env: TraitEnvironment
    init(_ env: TraitEnvironment) { self.env = env }
}

/// Built-in properties of environments, by name. A property's id, what the C
/// indexer passes to Swift, is its position in `allCases` counted from 1.
/// Names are raw values, not `String(describing:)`, which goes through
/// reflection (a quarter of start-up, and slow on every property write).
enum EnvironmentProperty: String, CaseIterable {
    case name, traitCollection, traitOverrides, superview, subviews, window, view, parent, children
    case presentedViewController, presentingViewController, presentationController, rootViewController
    case windowScene, windows, screen, backgroundColor, isViewLoaded, viewIfLoaded, traitParent, className
    case isConnected, traitChildren
    case rootView, contentConfiguration
    case device, orientation, size, bounds
    // Presentations and the older override APIs.
    case modalPresentationStyle, definesPresentationContext, overrideUserInterfaceStyle, overrideTraitCollection
    case presentationStyle, adaptivePresentationStyle
    // Dynamic Type (TypeLibrary.swift).
    case font, adjustsFontForContentSizeCategory, text, textColor, resolvedTextColor
    case minimumContentSizeCategory, maximumContentSizeCategory
    // What views show (ResourcesLibrary.swift).
    case tintColor, resolvedBackgroundColor, resolvedTintColor, image, resolvedImage

    var key: String { rawValue }

    private static let byID = allCases

    init?(id: Int) {
        guard EnvironmentProperty.byID.indices.contains(id - 1) else { return nil }
        self = EnvironmentProperty.byID[id - 1]
    }
}

/// The Lua callbacks an environment object or class can define, with their
/// bits in ``TraitEnvironment/hostCallbacks``.
/// (No dictionary: a new generic specialization costs start-up time.)
func callbackBit(_ name: String) -> UInt16? {
    if name == "traitCollectionDidChange" { return TraitEnvironment.hostTraitCollectionDidChange }
    return LifecycleEvent(rawValue: name)?.hostBit
}

/// The callback names, by bit position ("" for unused bits).
let callbackNames: [String] = (0..<16).map { bit in
    if 1 << bit == TraitEnvironment.hostTraitCollectionDidChange { return "traitCollectionDidChange" }
    return LifecycleEvent.allCases.first { $0.hostBit == 1 << bit }?.rawValue ?? ""
}

/// Keys under which an environment's field table keeps registration data.
private let handlersKey = "__handlers"
private let targetsKey = "__targets"

extension LuaHost {
    // MARK: - Classes

    func installEnvironmentClasses(into ui: Int32) {
        L.newTable()
        for (i, p) in EnvironmentProperty.allCases.enumerated() {
            L.push(i + 1)
            L.rawSet(-2, p.key)
        }
        refs.properties = L.ref()
        // What __newindex sends to Swift: properties, and callbacks (whose bits
        // an update reads instead of looking the name up).
        L.newTable()
        for (i, p) in EnvironmentProperty.allCases.enumerated() {
            L.push(i + 1)
            L.rawSet(-2, p.key)
        }
        // (Every callback name: some share a bit, so callbackNames lists only one of them.)
        for name in ["traitCollectionDidChange"] + LifecycleEvent.allCases.map(\.rawValue) {
            L.push(true)
            L.rawSet(-2, name)
        }
        refs.setterKeys = L.ref()

        L.registryTable(refs.setterKeys)
        tl_push_env_newindexer(L, LuaFunctions.id("environment.set", { c in try c.host.setProperty(c) }), -1)
        refs.envNewindex = L.ref()
        L.pop()
        L.pushFunction(LuaFunctions.id("environment.tostring", { c in
            let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
            c.L.push(env.description)
            return 1
        }))
        refs.envToString = L.ref()

        let base = makeClass(name: "TraitEnvironment", kind: nil, parent: nil, methods: environmentMethods())
        func make(_ name: String, _ kind: EnvironmentKind, parent: Int32, _ methods: [(String, LuaFunction)]) -> Int32 {
            let ref = makeClass(name: name, kind: kind, parent: parent, methods: methods)
            refs.baseClasses[kind] = ref
            L.registryTable(ref)
            L.rawSet(ui, name)
            return ref
        }
        let screen = make("Screen", .screen, parent: base, [
            ("setTraits", { c in
                let s = try c.environment(1, Screen.self, "Screen")
                if lua_type(c.L, 2) == LUA_TFUNCTION {
                    let next = try c.host.mutate(s.upcomingTraits, with: 2)
                    let scale = next.rawValue(SystemTraits.displayScale)
                    if case .number = scale {
                        _ = try Screen.checkTrait(SystemTraits.displayScale, scale)
                    }
                    s.setTraits(next)
                    return 0
                }
                try c.table(2)
                var values: [(TraitDefinition, TraitValue)] = []
                try c.L.forEachPair(2) {
                    let d = try c.host.definition(forKey: -2)
                    values.append((d, try Screen.checkTrait(d, try c.host.traitValue(at: c.L.top))))
                }
                s.setTraits { m in for (d, v) in values { m[d] = v } }
                return 0
            }),
        ])
        _ = make("WindowScene", .windowScene, parent: base, [
            ("disconnect", { c in try c.environment(1, WindowScene.self, "WindowScene").disconnect(); return 0 }),
        ])
        let view = make("View", .view, parent: base, viewMethods())
        rememberImageViewClass(make("ImageView", .view, parent: view, []))   // UIImageView: `image`, `resolvedImage`
        refs.baseClasses[.view] = view   // (make set it to ImageView's)
        rememberLabelClass(make("Label", .view, parent: view, []))   // UILabel: font, textColor, text
        refs.baseClasses[.view] = view   // (make set it to Label's)
        _ = make("Window", .window, parent: view, [])
        let viewController = make("ViewController", .viewController, parent: base, viewControllerMethods())
        _ = make("HostingController", .hostingController, parent: viewController, [])
        _ = make("PresentationController", .presentationController, parent: base, [])
        // ui.Screen.main: the default screen profile.
        L.registryTable(screen)
        push(world.mainScreen)
        L.rawSet(-2, "main")
        L.pop()
    }

    /// Creates a class table with `methods`, inheriting from `parent`, callable
    /// as a constructor when it has a kind. Returns its registry ref.
    func makeClass(name: String, kind: EnvironmentKind?, parent: Int32?, methods: [(String, LuaFunction)],
                   luaMethods: Int32? = nil) -> Int32 {
        L.newTable()
        let c = L.top
        // The built-in methods: in the class table (Class.method reads them)
        // and in a copy no script reaches, which instances consult first, so
        // that no assignment to a class table replaces one for its objects.
        L.newTable()
        let builtins = L.top
        if let parent {
            L.registryTable(refs.classes)
            L.registryTable(parent)
            if lua_rawget(L, -2) == LUA_TTABLE, L.rawGet(-1, "builtins") == LUA_TTABLE {
                L.forEachPair(-1) {
                    L.pushValue(-2)
                    L.pushValue(-2)
                    lua_rawset(L, builtins)
                }
            }
            L.setTop(builtins)
        }
        for (k, f) in methods {
            L.pushFunction(LuaFunctions.id("\(name):\(k)", f))
            L.pushValue(-1)
            L.rawSet(builtins, k)
            L.rawSet(c, k)
        }
        if let luaMethods {
            L.forEachPair(luaMethods) {
                L.pushValue(-2)
                L.pushValue(-2)
                lua_rawset(L, c)
            }
        }
        // The class's own metatable: inheritance, construction, tostring;
        // getmetatable(class) gives its parent class (or false), never this table.
        L.newTable()
        let mc = L.top
        if let parent {
            L.registryTable(parent); L.rawSet(mc, "__index")
            L.registryTable(parent); L.rawSet(mc, "__metatable")
        } else {
            L.push(false); L.rawSet(mc, "__metatable")
        }
        L.pushFunction(LuaFunctions.id("class.call", { c in try c.host.construct(c) })); L.rawSet(mc, "__call")
        L.pushFunction(LuaFunctions.id("class.newindex", { c in try c.host.setClassField(c) })); L.rawSet(mc, "__newindex")
        L.pushFunction(LuaFunctions.id("class.tostring", { c in
            guard let info = c.host.classInfo(at: 1) else { throw c.typeError(1, "class") }
            c.L.push("class " + info.name)
            return 1
        })); L.rawSet(mc, "__tostring")
        lua_setmetatable(L, c)
        // The instance metatable, shared by the class's objects and protected:
        // getmetatable(object) gives the class table.
        L.newTable(nrec: 8)
        let im = L.top
        L.registryTable(refs.properties)
        tl_push_env_indexer(L, LuaFunctions.id("environment.get", { c in try c.host.getProperty(c) }), c, -1, builtins)
        L.rawSet(im, "__index")
        L.pop()
        tl_set_builtins(L, im, builtins)
        L.registryGet(refs.envNewindex); L.rawSet(im, "__newindex")
        tl_pushboxgc(L); L.rawSet(im, "__gc")
        L.registryGet(refs.envToString); L.rawSet(im, "__tostring")
        L.push(name); L.rawSet(im, "__name")
        L.pushValue(c); L.rawSet(im, "__metatable")
        // Callback bits: the parent's and the methods given here.
        var bits: UInt16 = 0
        if let parent {
            L.registryTable(parent)
            bits = classCallbacks(at: -1)
            L.pop()
        }
        if let luaMethods {
            L.forEachPair(luaMethods) {
                if lua_type(L, -1) == LUA_TFUNCTION, let k = L.string(-2), let bit = callbackBit(k) { bits |= bit }
            }
        }
        // classes[C] = { name, kind, meta }
        L.registryTable(refs.classes)
        L.pushValue(c)
        L.newTable()
        L.push(name); L.rawSet(-2, "name")
        if let kind { L.push(kind.rawValue); L.rawSet(-2, "kind") }
        L.push(Int(bits)); L.rawSet(-2, "callbacks")
        L.pushValue(im); L.rawSet(-2, "meta")
        L.pushValue(builtins); L.rawSet(-2, "builtins")
        lua_rawset(L, -3)
        L.pop(3)   // (the table of classes, the instance metatable, the built-ins)
        return L.ref()
    }

    /// `Class.name = value` for a name the class does not have yet. A callback
    /// sets its bit on the class, its subclasses and their live objects.
    /// Every environment's `traitCollection` is served before its class is
    /// consulted (tl_env_index), so no class may define one.
    static let traitCollectionIsAProperty = "traitCollection is a property of every environment; a class cannot define it"

    /// What is wrong with a class defining the field at `key` as the value at
    /// `value`, or nil: what an instance may not set, a class may not define
    /// for all of them. A property (a class field would hide it from every
    /// instance: fields are looked up before properties), a built-in method
    /// of the class chain from `parent` on, or a callback that is not a function.
    func classFieldProblem(parent: Int32, key: Int32, value: Int32) -> String? {
        guard lua_type(L, key) == LUA_TSTRING, let name = L.string(key) else { return nil }
        if name == "traitCollection" { return LuaHost.traitCollectionIsAProperty }
        if EnvironmentProperty(rawValue: name) != nil {
            return "'\(name)' is a property of every object of its kind; a class cannot define it"
        }
        if callbackBit(name) != nil, lua_type(L, value) != LUA_TFUNCTION {
            return "callback '\(name)' must be a function, got \(L.typeName(value))"
        }
        if isBuiltin(ofClass: parent, key: key) { return "cannot replace built-in method '\(name)'" }
        return nil
    }

    /// Whether the key at `key` names a built-in method of the class table at
    /// `classIndex` (its own or inherited: the class's table of built-ins).
    func isBuiltin(ofClass classIndex: Int32, key: Int32) -> Bool {
        let p = L.absIndex(classIndex), k = L.absIndex(key)
        let base = L.top
        defer { L.setTop(base) }
        L.registryTable(refs.classes)
        L.pushValue(p)
        guard lua_rawget(L, -2) == LUA_TTABLE, L.rawGet(-1, "builtins") == LUA_TTABLE else { return false }
        L.pushValue(k)
        return lua_rawget(L, -2) != LUA_TNIL
    }

    private func setClassField(_ c: LuaCall) throws -> Int32 {
        L.setTop(3)
        guard lua_type(L, 1) == LUA_TTABLE else { throw c.typeError(1, "class") }
        if let k = L.string(2), k.hasPrefix("__") {
            throw LuaError.message("cannot set field '\(k)' on a class: names starting with '__' are reserved")
        }
        if !L.isNil(3), let problem = classFieldProblem(parent: 1, key: 2, value: 3) { throw LuaError.message(problem) }
        // (Lua's own messages for the keys lua_rawset would raise for.)
        guard L.isTableKey(2) else { throw LuaError.message(L.isNil(2) ? "table index is nil" : "table index is NaN") }
        L.pushValue(2)
        L.pushValue(3)
        lua_rawset(L, 1)
        guard lua_type(L, 3) == LUA_TFUNCTION, let name = L.string(2), let bit = callbackBit(name) else { return 0 }
        // Which classes now find it (rare: classes are set up once, before most objects exist).
        L.registryTable(refs.classes)
        L.forEachPair(-1) {
            let k = L.absIndex(-2)
            if tl_rawlookup(L, k, name) == LUA_TFUNCTION, lua_type(L, k + 1) == LUA_TTABLE {
                _ = L.rawGet(k + 1, "callbacks")
                let old = L.integer(-1) ?? 0
                L.pop()
                L.push(old | Int(bit))
                L.rawSet(k + 1, "callbacks")
            }
            L.pop()
        }
        L.pop()
        L.registryTable(refs.objects)
        L.forEachPair(-1) {
            // (The table keeps collection objects too.)
            guard let env = L.box(-1, as: TraitEnvironment.self) else { return }
            if tl_rawlookup(L, -1, name) == LUA_TFUNCTION { env.hostCallbacks |= bit }
            L.pop()
        }
        L.pop()
        return 0
    }

    /// The callback bits of the class table at `i` (inherited ones included).
    func classCallbacks(at i: Int32) -> UInt16 {
        let t = L.absIndex(i)
        L.registryTable(refs.classes)
        L.pushValue(t)
        defer { L.pop(2) }
        guard lua_rawget(L, -2) == LUA_TTABLE else { return 0 }
        _ = L.rawGet(-1, "callbacks")
        let bits = UInt16(truncatingIfNeeded: L.integer(-1) ?? 0)
        L.pop()
        return bits
    }

    /// The class description of the class table at `i`: (name, kind), or nil.
    func classInfo(at i: Int32) -> (name: String, kind: EnvironmentKind?)? {
        guard lua_type(L, i) == LUA_TTABLE else { return nil }
        let t = L.absIndex(i)
        L.registryTable(refs.classes)
        L.pushValue(t)
        defer { L.pop(2) }
        guard lua_rawget(L, -2) == LUA_TTABLE else { return nil }
        _ = L.rawGet(-1, "name")
        let name = L.string(-1) ?? "?"
        _ = L.rawGet(-2, "kind")
        let kind = L.string(-1).flatMap { EnvironmentKind(rawValue: $0) }
        L.pop(2)
        return (name, kind)
    }

    private func construct(_ c: LuaCall) throws -> Int32 {
        guard let info = classInfo(at: 1), let kind = info.kind else { throw LuaError.message("this class cannot be instantiated") }
        // `Class()`, `Class(nil)` and `Class {}` alike: slot 2 is the table or nil.
        L.setTop(2)
        if !L.isNil(2) { try c.table(2) }
        // The Swift object, its lists and collections, and its class's name
        // (kept once per class, or by each environment past 65,535 classes).
        try chargeEngine(1024 + (info.name.utf8.count > 15 ? info.name.utf8.count : 0))
        let env: TraitEnvironment
        switch kind {
        case .screen:
            var m = MutableTraits(base: .empty)
            var device: Device?, orientation: Orientation?
            if !L.isNil(2) {
                try L.forEachPair(2) {
                    switch L.string(-2) {
                    case "name": return
                    case "device":
                        guard let n = L.string(-1), lua_type(L, -1) == LUA_TSTRING else {
                            throw LuaError.message("Screen: device must be a device name (see ui.devices), got \(L.typeName(-1))")
                        }
                        device = try DeviceCatalogue.device(named: n)
                    case "orientation": orientation = try orientationValue(at: -1)
                    default:
                        let d = try definition(forKey: -2)
                        try m.set(d, try Screen.checkTrait(d, try traitValue(at: L.top)))
                    }
                }
            }
            if let device {
                env = try Screen(world: world, device: device, orientation: orientation ?? .portrait, settings: m.makeCollection())
            } else {
                if orientation != nil { throw LuaError.message("Screen: orientation needs a device (ui.Screen { device = ..., orientation = ... })") }
                env = Screen(world: world, traits: m.makeCollection())
            }
        case .windowScene:
            var screen = world.mainScreen
            var size: SceneSize?
            if !L.isNil(2), L.rawGet(2, "screen") != LUA_TNIL {
                guard let s = L.box(-1, as: Screen.self) else { throw LuaError.message("WindowScene: screen must be a Screen, got \(L.typeName(-1))") }
                screen = s
            }
            if !L.isNil(2) {
                L.pop()
                if L.rawGet(2, "size") != LUA_TNIL { size = try sceneSizeValue(at: -1) }
                L.pop()
            }
            let scene = WindowScene(world: world, screen: screen)
            if let size {
                do { try scene.resize(to: size) } catch { scene.disconnect(); throw error }
            }
            env = scene
        case .window: env = Window(world: world)
        case .view: env = isLabelClass(1) ? Label(world: world) : View(world: world)
        case .viewController: env = ViewController(world: world)
        case .hostingController: env = HostingController(world: world)
        case .presentationController:
            throw LuaError.message("presentation controllers are created by present()")
        }
        env.className = info.name
        if kind == .view, isImageViewClass(1), let v = env as? View { v.isImageView = true }
        push(env, classTable: 1)
        let u = L.top
        guard !L.isNil(2) else { return 1 }
        // User fields (callbacks) first, so viewDidLoad is there when a property loads the view.
        var properties: [String] = []
        try L.forEachPair(2) {
            if let k = L.string(-2), EnvironmentProperty(rawValue: k) != nil {
                properties.append(k)
                return
            }
            if kind == .screen { return }
            if kind == .windowScene, L.string(-2) == "screen" || L.string(-2) == "size" { return }
            try setUserField(u, key: -2, value: -1)
        }
        properties.sort { ($0 == "name" ? 0 : 1) < ($1 == "name" ? 0 : 1) }
        for k in properties where !(kind == .windowScene && (k == "screen" || k == "size"))
                                  && !(kind == .screen && (k == "device" || k == "orientation")) {
            _ = L.rawGet(2, k)
            let v = L.top
            L.push(k)
            try setProperty(env: env, object: u, key: k, value: v)
            L.setTop(u)
        }
        return 1
    }

    /// Stores a user field in the object's field table, with the checks __newindex makes.
    private func setUserField(_ u: Int32, key: Int32, value: Int32) throws {
        let k = L.absIndex(key), v = L.absIndex(value)
        if let name = L.string(k) {
            if name.hasPrefix("__") { throw LuaError.message("cannot set field '\(name)': names starting with '__' are reserved") }
            if tl_is_builtin(L, u, k) != 0 { throw LuaError.message("cannot replace built-in method '\(name)'") }
        }
        guard lua_type(L, k) != LUA_TLIGHTUSERDATA else { throw LuaError.message("cannot use a light userdata as a field name") }
        if !L.isNil(v), lua_type(L, v) != LUA_TFUNCTION, let name = L.string(k), callbackBit(name) != nil {
            throw LuaError.message("callback '\(name)' must be a function (or nil), got \(L.typeName(v))")
        }
        if L.isNil(v) {
            // Clears the field, if there is a field table at all.
            if pushFields(u, create: false) { L.pushValue(k); L.pushNil(); lua_rawset(L, -3); L.pop() }
            return
        }
        pushFields(u)
        L.pushValue(k)
        L.pushValue(v)
        lua_rawset(L, -3)
        L.pop()
        if lua_type(L, v) == LUA_TFUNCTION, let name = L.string(k), let bit = callbackBit(name),
           let env = L.box(u, as: TraitEnvironment.self) {
            env.hostCallbacks |= bit
        }
    }

    // MARK: - Properties

    private func getProperty(_ c: LuaCall) throws -> Int32 {
        let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
        guard let id = L.integer(3), let p = EnvironmentProperty(id: id) else { L.pushNil(); return 1 }
        let view = env as? View, vc = env as? ViewController
        func pushOpt(_ e: TraitEnvironment?) { if let e { push(e) } else { L.pushNil() } }
        func pushList(_ list: [TraitEnvironment]) {
            // (With room for an object per item: each may be made now. Left
            // empty when there is none; the trampoline raises.)
            guard L.newTable(narr: Int32(clamping: list.count)), L.roomForLua(96 * list.count) else { return }
            for (k, e) in list.enumerated() { push(e); lua_rawseti(L, -2, lua_Integer(k + 1)) }
        }
        switch p {
        case .name: if let n = env.name { L.push(n) } else { L.pushNil() }
        case .className: L.push(env.className)
        case .traitCollection:
            // Tracked reads always reach Swift (tl_env_index asks
            // `environmentCollection`, which declines them); others are served
            // from C once the collection's object exists.
            push(env.traitCollection, tracking: world.tracksReads(of: env))
        case .traitOverrides:
            if env is Screen { throw LuaError.message("a screen has no trait overrides; use screen:setTraits { ... }") }
            try world.require(.traitSystem, "traitOverrides")
            L.pushBox(OverridesBox(env), kind: .overrides)
            L.registryTable(refs.overridesMeta)
            lua_setmetatable(L, -2)
            L.pushValue(-1)
            setHostField(1, "traitOverrides")
        case .superview: pushOpt(view?.superview)
        case .subviews: pushList(view?.subviews ?? [])
        case .window: pushOpt(view?.window ?? vc?.viewIfLoaded?.window)
        case .view:
            guard let vc else { L.pushNil(); return 1 }
            push(try vc.loadViewIfNeeded())
        case .viewIfLoaded: pushOpt(vc?.viewIfLoaded)
        case .isViewLoaded: if let vc { L.push(vc.viewIfLoaded != nil) } else { L.pushNil() }
        case .parent: pushOpt(vc?.parent)
        case .children: pushList(vc?.children ?? [])
        case .presentedViewController: pushOpt(vc?.presentedViewControllerOfRequest)
        case .presentingViewController: pushOpt(vc?.presentingViewControllerOfNearestPresentedAncestor)
        case .presentationController: pushOpt(vc?.presentationController)
        case .rootViewController: pushOpt((env as? Window)?.rootViewController)
        case .windowScene: pushOpt((env as? Window)?.windowScene ?? view?.window?.windowScene)
        case .windows: if let s = env as? WindowScene { pushList(s.windows) } else { L.pushNil() }
        case .screen: pushOpt((env as? WindowScene)?.screen)
        case .backgroundColor:
            // The object that was assigned (it keeps a dynamic color's function alive).
            if pushHostField(1, "__backgroundColor") == LUA_TUSERDATA, L.box(-1, as: ColorBox.self) != nil { return 1 }
            L.pop()
            if let color = view?.backgroundColor { pushColor(color) } else { L.pushNil() }
        case .traitParent: pushOpt(env.traitParent)
        case .traitChildren: pushList(env.traitChildren)
        case .isConnected: if let s = env as? WindowScene { L.push(s.isConnected) } else { L.pushNil() }
        case .rootView, .contentConfiguration: pushHostingProperty(key: p.key, of: env)
        case .font, .adjustsFontForContentSizeCategory, .text, .textColor, .resolvedTextColor,
             .minimumContentSizeCategory, .maximumContentSizeCategory:
            try pushTypeProperty(p.key, of: env)
        case .tintColor, .resolvedBackgroundColor, .resolvedTintColor, .image, .resolvedImage:
            try pushResourceProperty(p.key, of: env)
        case .device: if let d = (env as? Screen)?.device { L.push(d.name) } else { L.pushNil() }
        case .orientation:
            if let s = env as? Screen, s.device != nil { L.push(s.orientation.rawValue) } else { L.pushNil() }
        case .size:
            if let s = env as? Screen {
                if let size = s.size { pushSize(size) } else { L.pushNil() }
            } else if let scene = env as? WindowScene {
                if case .custom(let size) = scene.size { pushSize(size) } else { L.push(scene.size.description) }
            } else {
                L.pushNil()
            }
        case .bounds:
            if let scene = env as? WindowScene, let g = scene.geometry { pushSize(g.size) }
            else if let s = env as? Screen, let size = s.size { pushSize(size) }
            else { L.pushNil() }
        case .modalPresentationStyle: if let vc { L.push(vc.modalPresentationStyle.rawValue) } else { L.pushNil() }
        case .definesPresentationContext: if let vc { L.push(vc.definesPresentationContext) } else { L.pushNil() }
        case .overrideUserInterfaceStyle:
            if view != nil || vc != nil { L.push(env.overrideUserInterfaceStyle) } else { L.pushNil() }
        case .overrideTraitCollection:
            if let tc = (env as? PresentationController)?.overrideTraitCollection { push(tc) } else { L.pushNil() }
        case .presentationStyle: if let pc = env as? PresentationController { L.push(pc.presentationStyle.rawValue) } else { L.pushNil() }
        case .adaptivePresentationStyle:
            if let pc = env as? PresentationController { L.push(pc.adaptivePresentationStyle.rawValue) } else { L.pushNil() }
        }
        return 1
    }

    /// `{ width = W, height = H }` in points.
    func pushSize(_ size: Size) {
        L.newTable(nrec: 2)
        for (key, v) in [("width", size.width), ("height", size.height)] {
            // Whole points read as integers ({ width = 932, height = 430 }).
            if v == v.rounded(), abs(v) < 1e15 { L.push(Int(v)) } else { L.push(v) }
            L.rawSet(-2, key)
        }
    }

    /// An orientation's name at `index`.
    func orientationValue(at index: Int32) throws -> Orientation {
        guard lua_type(L, index) == LUA_TSTRING, let s = L.string(index), let o = Orientation(rawValue: s) else {
            let names = Orientation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw LuaError.message("orientation must be one of \(names), got \(L.string(index).map { "\"\($0)\"" } ?? L.typeName(index))")
        }
        return o
    }

    /// A scene size at `index`: "full", "2/3", "1/2", "1/3", "slideOver" or
    /// `{ width = W, height = H }` (points).
    func sceneSizeValue(at index: Int32) throws -> SceneSize {
        let i = L.absIndex(index)
        if lua_type(L, i) == LUA_TSTRING, let s = L.string(i) {
            guard let size = SceneSize(name: s) else {
                throw LuaError.message("a scene size is \"full\", \"2/3\", \"1/2\", \"1/3\", \"slideOver\" or { width = W, height = H }, got \"\(s)\"")
            }
            return size
        }
        guard lua_type(L, i) == LUA_TTABLE else {
            throw LuaError.message("a scene size is \"full\", \"2/3\", \"1/2\", \"1/3\", \"slideOver\" or { width = W, height = H }, got \(L.typeName(i))")
        }
        var w: Double?, h: Double?
        if L.rawGet(i, "width") == LUA_TNUMBER { w = L.number(-1) }
        L.pop()
        if L.rawGet(i, "height") == LUA_TNUMBER { h = L.number(-1) }
        L.pop()
        guard let w, let h else { throw LuaError.message("a scene size table needs numbers width and height (points)") }
        return .custom(Size(w, h))
    }

    private func setProperty(_ c: LuaCall) throws -> Int32 {
        let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
        let key = try c.string(2)
        if EnvironmentProperty(rawValue: key) == nil, callbackBit(key) != nil {
            try setUserField(1, key: 2, value: 3)
            return 0
        }
        try setProperty(env: env, object: 1, key: key, value: 3)
        return 0
    }

    private func setProperty(env: TraitEnvironment, object: Int32, key: String, value v: Int32) throws {
        let readOnly = { LuaError.message("property '\(key)' of \(env.className) is read-only") }
        let notHere = { LuaError.message("\(env.className) has no property '\(key)'") }
        guard let p = EnvironmentProperty(rawValue: key) else { throw notHere() }
        switch p {
        case .name:
            if L.isNil(v) { env.name = nil; return }
            guard let s = try L.keptString(v) else { throw LuaError.message("name must be a string, got \(L.typeName(v))") }
            env.name = s
        case .rootViewController:
            guard let w = env as? Window else { throw notHere() }
            if L.isNil(v) { try w.setRootViewController(nil); return }
            guard let vc = L.box(v, as: ViewController.self) else {
                throw LuaError.message("rootViewController must be a ViewController, got \(L.typeName(v))")
            }
            try w.setRootViewController(vc)
        case .windowScene:
            guard let w = env as? Window else { throw readOnly() }
            if L.isNil(v) { w.setWindowScene(nil); return }
            guard let s = L.box(v, as: WindowScene.self) else {
                throw LuaError.message("windowScene must be a WindowScene, got \(L.typeName(v))")
            }
            w.setWindowScene(s)
        case .backgroundColor:
            guard let view = env as? View else { throw notHere() }
            let color = L.box(v, as: ColorBox.self)
            if color == nil && !L.isNil(v) {
                throw LuaError.message("backgroundColor must be a ui.Color, got \(L.typeName(v))")
            }
            view.backgroundColor = color?.value
            // The view's Lua object keeps the color object (and a dynamic color's
            // function) alive: a function capturing the view is a Lua-only cycle.
            L.pushValue(v)
            setHostField(object, "__backgroundColor")
        case .rootView, .contentConfiguration:
            try setHostingProperty(p.key, of: env, object: object, value: v)
        case .font, .adjustsFontForContentSizeCategory, .text, .textColor, .minimumContentSizeCategory, .maximumContentSizeCategory:
            try setTypeProperty(p.key, of: env, object: object, value: v)
        case .tintColor, .image:
            try setResourceProperty(p.key, of: env, object: object, value: v)
        case .orientation:
            guard let screen = env as? Screen else { throw notHere() }
            try screen.rotate(to: try orientationValue(at: v))
        case .size:
            guard let scene = env as? WindowScene else { throw readOnly() }
            try scene.resize(to: try sceneSizeValue(at: v))
        case .modalPresentationStyle:
            guard let vc = env as? ViewController else { throw notHere() }
            guard let name = L.string(v), let style = PresentationStyle(rawValue: name) else {
                let cases = PresentationStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw LuaError.message("modalPresentationStyle must be one of \(cases), got \(L.string(v).map { "\"\($0)\"" } ?? L.typeName(v))")
            }
            vc.modalPresentationStyle = style
        case .definesPresentationContext:
            guard let vc = env as? ViewController else { throw notHere() }
            guard lua_type(L, v) == LUA_TBOOLEAN else { throw LuaError.message("definesPresentationContext must be a boolean, got \(L.typeName(v))") }
            vc.definesPresentationContext = lua_toboolean(L, v) != 0
        case .overrideUserInterfaceStyle:
            guard env is View || env is ViewController else { throw notHere() }
            try env.setOverrideUserInterfaceStyle(L.isNil(v) ? .string("unspecified") : try traitValue(at: v))
        case .overrideTraitCollection:
            guard let pc = env as? PresentationController else { throw notHere() }
            if L.isNil(v) { pc.overrideTraitCollection = nil; return }
            guard let tc = collection(at: v) else {
                throw LuaError.message("overrideTraitCollection must be a TraitCollection or nil, got \(L.typeName(v))")
            }
            pc.overrideTraitCollection = tc
        default:
            throw readOnly()
        }
    }

    // MARK: - Methods

    private func environmentMethods() -> [(String, LuaFunction)] {
        [
            ("registerForTraitChanges", { c in
                try c.host.world.require(.traitSystem, "registerForTraitChanges")
                return try c.host.register(c)
            }),
            ("unregisterForTraitChanges", { c in
                let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
                let token = try c.object(2, TraitChangeRegistration.self, "TraitChangeRegistration")
                // (The token's own environment only: handler ids are per host.)
                if env.unregisterForTraitChanges(token) {
                    if let id = token.delegateTag { c.host.dropHandler(env: 1, id: id) }
                } else if token.isActive {
                    // Unregistering twice is harmless; through another object, a mistake that would leave it registered.
                    throw c.argError(2, "this registration was not made on \(env); unregister it on the object that registered")
                }
                return 0
            }),
            ("updateTraitsIfNeeded", { c in
                let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
                try c.host.world.require(.traitSystem, "updateTraitsIfNeeded")
                try env.updateTraitsIfNeeded()
                return 0
            }),
            ("subclass", { c in try c.host.subclass(c) }),
        ]
    }

    private func viewMethods() -> [(String, LuaFunction)] {
        func view(_ c: LuaCall) throws -> View { try c.environment(1, View.self, "View") }
        return [
            ("addSubview", { c in
                let v = try view(c)
                try v.addSubview(try c.environment(2, View.self, "View"))
                return 0
            }),
            ("insertSubview", { c in
                let v = try view(c)
                let sub = try c.environment(2, View.self, "View")
                guard let i = c.L.integer(3) else { throw c.typeError(3, "integer index") }
                // Checked before converting to 0-based: i may be math.mininteger.
                let upper = v.subviews.count + (sub.superview === v ? 0 : 1)
                guard i >= 1, i <= upper else {
                    throw LuaError.message("subview index \(i) is out of range (1 to \(upper))")
                }
                try v.insertSubview(sub, at: i - 1)
                return 0
            }),
            ("removeFromSuperview", { c in try view(c).removeFromSuperview(); return 0 }),
            ("setNeedsLayout", { c in try view(c).setNeedsLayout(); return 0 }),
            ("setNeedsDisplay", { c in try view(c).setNeedsDisplay(); return 0 }),
            ("setNeedsUpdateProperties", { c in
                let v = try view(c)
                try c.host.world.require(.updateProperties, "setNeedsUpdateProperties")
                v.setNeedsUpdateProperties()
                return 0
            }),
            ("layoutIfNeeded", { c in try view(c).layoutIfNeeded(); return 0 }),
            ("updatePropertiesIfNeeded", { c in
                let v = try view(c)
                try c.host.world.require(.updateProperties, "updatePropertiesIfNeeded")
                try v.updatePropertiesIfNeeded()
                return 0
            }),
            ("setNeedsUpdateConstraints", { c in try view(c).setNeedsUpdateConstraints(); return 0 }),
            ("updateConstraintsIfNeeded", { c in try view(c).updateConstraintsIfNeeded(); return 0 }),
        ]
    }

    private func viewControllerMethods() -> [(String, LuaFunction)] {
        func vc(_ c: LuaCall, _ i: Int32 = 1) throws -> ViewController { try c.environment(i, ViewController.self, "ViewController") }
        return [
            ("addChild", { c in try vc(c).addChild(try vc(c, 2)); return 0 }),
            ("removeFromParent", { c in try vc(c).removeFromParent(); return 0 }),
            ("present", { c in try vc(c).present(try vc(c, 2)); return 0 }),
            ("dismiss", { c in try vc(c).dismiss(); return 0 }),
            ("loadViewIfNeeded", { c in _ = try vc(c).loadViewIfNeeded(); return 0 }),
            ("setNeedsUpdateProperties", { c in
                let v = try vc(c)
                try c.host.world.require(.updateProperties, "setNeedsUpdateProperties")
                v.setNeedsUpdateProperties()
                return 0
            }),
            ("updatePropertiesIfNeeded", { c in
                let v = try vc(c)
                try c.host.world.require(.updateProperties, "updatePropertiesIfNeeded")
                try v.updatePropertiesIfNeeded()
                return 0
            }),
            ("setOverrideTraitCollection", { c in
                let parent = try vc(c)
                let tc: TraitCollection?
                if c.L.isNil(2) { tc = nil } else {
                    guard let given = c.host.collection(at: 2) else { throw c.typeError(2, "TraitCollection or nil") }
                    tc = given
                }
                try parent.setOverrideTraitCollection(tc, forChild: try vc(c, 3))
                return 0
            }),
            ("overrideTraitCollection", { c in
                let parent = try vc(c)
                if let tc = parent.overrideTraitCollection(forChild: try vc(c, 2)) { c.host.push(tc) } else { c.L.pushNil() }
                return 1
            }),
        ]
    }

    private func subclass(_ c: LuaCall) throws -> Int32 {
        guard let info = classInfo(at: 1) else { throw LuaError.message("subclass must be called on a class, as ui.View:subclass(name, methods)") }
        guard info.kind != nil, info.kind != .presentationController else { throw LuaError.message("class \(info.name) cannot be subclassed") }
        let name = try c.string(2)
        guard !name.isEmpty else { throw c.argError(2, "class name must not be empty") }
        if !L.isNil(3) {
            try c.table(3)
            try L.forEachPair(3) {
                if let k = L.string(-2), k.hasPrefix("__") { throw c.argError(3, "method names starting with '__' are reserved ('\(k)')") }
                if let problem = classFieldProblem(parent: 1, key: -2, value: -1) { throw c.argError(3, problem) }
            }
        }
        L.pushValue(1)
        let parentRef = L.ref()
        defer { L.unref(parentRef) }
        let ref = makeClass(name: name, kind: info.kind, parent: parentRef, methods: [], luaMethods: L.isNil(3) ? nil : 3)
        L.registryTable(ref)
        L.unref(ref)
        return 1
    }

    // MARK: - Overrides

    func installOverridesMeta() {
        func env(_ c: LuaCall) throws -> TraitEnvironment { try c.object(1, OverridesBox.self, "TraitOverrides").env }
        refs.overridesMeta = makeMeta(name: "TraitOverrides", index: ("overrides.index", { c in
            let e = try env(c)
            let d = try c.host.definition(forKey: 2)
            guard let v = e.traitOverride(d) else {
                throw LuaError.message("\(e) has no override for trait '\(d.name)' (check with traitOverrides:contains first)")
            }
            c.host.push(v)
            return 1
        }), methods: [
            "contains": ("TraitOverrides:contains", { c in
                let e = try env(c)
                c.L.push(e.containsTraitOverride(try c.host.definition(forKey: 2)))
                return 1
            }),
            "remove": ("TraitOverrides:remove", { c in
                let e = try env(c)
                e.removeTraitOverride(try c.host.definition(forKey: 2))
                return 0
            }),
        ], newindex: { c in
            let e = try env(c)
            let d = try c.host.definition(forKey: 2)
            try e.setTraitOverride(d, try c.host.traitValue(at: 3))
            return 0
        }, tostring: { c in
            let e = try env(c)
            try c.host.chargeEngine(c.host.textCost(of: e.traitOverrideEntries.map(\.value), times: 2))
            let parts = e.traitOverrideEntries.map { "\($0.definition.property) = \(TraitEngine.describe($0.value))" }
            c.L.push("TraitOverrides of \(e) { " + parts.joined(separator: ", ") + (parts.isEmpty ? "}" : " }"))
            return 1
        }, extra: [("__pairs", "overrides.pairs", { c in
            c.host.pushEntryIterator(try env(c).traitOverrideEntries)
            return 3
        })])
    }

    // MARK: - Registrations

    private func register(_ c: LuaCall) throws -> Int32 {
        let env = try c.object(1, TraitEnvironment.self, "TraitEnvironment")
        // UITraitChangeObservable's conformers are UIWindowScene, UIWindow,
        // UIPresentationController, UIViewController and UIView
        // (https://developer.apple.com/documentation/uikit/uitraitchangeobservable);
        // UIScreen is a trait environment but not observable.
        if env is Screen {
            throw LuaError.message("a screen takes no registerForTraitChanges (UIScreen is not UITraitChangeObservable); register on a window scene, window, presentation controller, view controller or view")
        }
        let defs = try definitionList(at: 2, in: c)
        guard !defs.isEmpty else { throw LuaError.message("Must pass one or more traits to register for") }
        for d in defs where d.isSystem { try SystemTraitAvailability.require(d, in: world.os) }
        // A list of traits (one Lua table of many traits may be registered
        // any number of times); a registration of one trait takes less
        // than its Lua object.
        if defs.count > 1 { try chargeEngine(64 + 16 * defs.count) }
        // What the registration calls, kept in the environment's field table so a
        // closure capturing its own environment stays a Lua-only cycle.
        L.setTop(3)
        switch lua_type(L, 3) {
        case LUA_TFUNCTION:
            break
        case LUA_TTABLE:
            guard collection(at: 3) == nil else { throw c.typeError(3, "function or { target =, action = } table") }
            _ = L.rawGet(3, "action")
            guard let action = L.string(-1), !action.isEmpty else {
                throw c.argError(3, "target-action registration needs an 'action' method name")
            }
            L.pop()
            _ = L.rawGet(3, "target")
            let targetType = lua_type(L, -1)
            if targetType != LUA_TNIL && targetType != LUA_TTABLE && targetType != LUA_TUSERDATA {
                throw c.argError(3, "target must be a table or an object, got \(L.typeName(-1))")
            }
            L.pop()
            try L.forEachPair(3) {
                guard let k = L.string(-2), k == "action" || k == "target" else {
                    throw c.argError(3, "unknown field in target-action table (fields: target, action)")
                }
            }
        default:
            throw c.typeError(3, "function or { target =, action = } table")
        }
        // The world's delegate (this host) delivers it: no closure per
        // registration. A function is kept as the environment's lone handler
        // when it has no field table yet (no table for one function), else
        // in the field table under a new id.
        let r: TraitChangeRegistration
        if tl_env_set_lone_handler(L, 1, 3) != 0 {
            do {
                r = try env.addTraitChangeRegistration(for: defs, delegateTag: Int(TL_LONE_HANDLER))
            } catch {
                tl_env_drop_lone_handler(L, 1)
                throw error
            }
        } else {
            let id = nextHandlerID
            nextHandlerID += 1
            r = try env.addTraitChangeRegistration(for: defs, delegateTag: id)
            storeHandler(env: 1, id: id, handler: 3)
        }
        L.pushBox(r, kind: .registration)
        L.registryTable(refs.tokenMeta)
        lua_setmetatable(L, -2)
        return 1
    }

    /// The key of a function handler in its environment's field table: a
    /// light userdata standing for the id, which no script can make or reach
    /// (a handler call then takes one lookup in the table it was found in).
    /// (Registration ids count from 1, far below any heap address, so these
    /// keys never meet the ones `hold` stores: owned objects' addresses.)
    static func handlerKey(_ id: Int) -> UnsafeRawPointer { UnsafeRawPointer(bitPattern: id)! }

    /// fields[handlerKey(id)] = function, or handlers[id] = { action = name,
    /// target = true } with the target itself in the weak targets table.
    private func storeHandler(env u: Int32, id: Int, handler h: Int32) {
        pushFields(u)
        let f = L.top
        if lua_type(L, h) == LUA_TFUNCTION {
            L.pushValue(h)
            tl_rawsetp(L, f, LuaHost.handlerKey(id))
            L.setTop(f - 1)
            return
        }
        func subtable(_ key: String, weak: Bool) {
            if L.rawGet(f, key) != LUA_TTABLE {
                L.pop()
                L.newTable()
                if weak {
                    L.newTable(); L.push("v"); L.rawSet(-2, "__mode"); lua_setmetatable(L, -2)
                }
                L.pushValue(-1)
                L.rawSet(f, key)
            }
        }
        subtable(handlersKey, weak: false)
        L.newTable()
        _ = L.rawGet(h, "action"); L.rawSet(-2, "action")
        if L.rawGet(h, "target") != LUA_TNIL {
            L.push(true); L.rawSet(-3, "target")
            subtable(targetsKey, weak: true)
            L.pushValue(-2)
            lua_rawseti(L, -2, lua_Integer(id))
            L.pop(2)
        } else {
            L.pop()
        }
        lua_rawseti(L, -2, lua_Integer(id))
        L.setTop(f - 1)
    }

    func dropHandler(env u: Int32, id: Int) {
        if id == Int(TL_LONE_HANDLER) { return tl_env_drop_lone_handler(L, u) }
        let base = L.top
        defer { L.setTop(base) }
        guard pushFields(u, create: false) else { return }
        L.pushNil()
        tl_rawsetp(L, -2, LuaHost.handlerKey(id))
        for key in [handlersKey, targetsKey] where L.rawGet(-1, key) == LUA_TTABLE {
            L.pushNil()
            lua_rawseti(L, -2, lua_Integer(id))
            L.pop()
        }
    }

    /// Calls a Lua registration. Returns false when its target was collected.
    public func environment(_ env: TraitEnvironment, deliver id: Int, previous: TraitCollection) throws -> Bool {
        do { return try deliverRegistration(env, id: id, previous: previous) } catch let e as LuaError {
            throw e.inCallback("a registerForTraitChanges handler", of: env)
        }
    }

    private func deliverRegistration(_ env: TraitEnvironment, id: Int, previous: TraitCollection) throws -> Bool {
        // A function handler is found and called from C (tl_env_call); the
        // previous collection's object is the recent slot (siblings share it).
        let previousRef = recentSlot(holding: previous)
        switch tl_env_call(L, refs.objects, Unmanaged.passUnretained(env).toOpaque(), env.hostSlot, refs.keyHandlers,
                           lua_Integer(id), previousRef) {
        case LUA_OK: return true
        case TL_ENV_CALL_NONE: return false
        case TL_ENV_CALL_SLOW: break
        default: throw popErrorValue()
        }
        let base = L.top
        defer { L.setTop(base) }
        push(env)
        let u = L.top
        func callHandler() throws -> Bool {   // (the function on top)
            L.pushValue(u)
            push(previous)
            try call(2)
            return true
        }
        if id == Int(TL_LONE_HANDLER) {
            return tl_env_push_lone_handler(L, u) != 0 ? try callHandler() : false
        }
        guard pushFields(u, create: false) else { return false }
        let f = L.top
        if tl_rawgetp(L, f, LuaHost.handlerKey(id)) == LUA_TFUNCTION { return try callHandler() }
        L.pop()
        L.registryGet(refs.keyHandlers)
        guard lua_rawget(L, f) == LUA_TTABLE else { return false }
        guard lua_rawgeti(L, -1, lua_Integer(id)) == LUA_TTABLE else { return false }
        let entry = L.top
        _ = L.rawGet(entry, "action")
        let action = L.string(-1) ?? ""
        let target: Int32
        if L.rawGet(entry, "target") != LUA_TNIL {
            guard L.rawGet(f, targetsKey) == LUA_TTABLE, lua_rawgeti(L, -1, lua_Integer(id)) != LUA_TNIL else {
                dropHandler(env: u, id: id)
                return false
            }
            target = L.top
        } else {
            target = u
        }
        // Looked up as Lua code would (target[action]: an __index function
        // runs, and its error is the error), at delivery time.
        L.push(action)
        guard tl_pindex(L, target) == LUA_OK else { throw popErrorValue() }
        guard lua_type(L, -1) == LUA_TFUNCTION else {
            let what = L.isNil(-1) ? "not found" : "is a \(L.typeName(-1)), not a function,"
            throw LuaError.message("trait change action '\(action)' \(what) on \(L.typeName(target) == "table" ? "the target table" : L.typeName(target)) (registered on \(env))")
        }
        let fn = L.top
        var nargs: Int32 = 2
        if lua_iscfunction(L, fn) == 0 {
            var ar = lua_Debug()
            L.pushValue(fn)
            lua_getinfo(L, ">u", &ar)
            if ar.isvararg == 0 { nargs = min(2, max(0, Int32(ar.nparams) - 1)) }
        } else {
            nargs = 0
        }
        L.pushValue(target)
        if nargs >= 1 { L.pushValue(u) }
        if nargs >= 2 { push(previous) }
        try call(1 + nargs)
        return true
    }
}

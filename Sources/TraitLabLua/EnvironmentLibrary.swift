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
let handlersKey = "__handlers"
let targetsKey = "__targets"

extension LuaHost {
    // MARK: - Classes

    /// The names `ui` gives its environment classes.
    static let environmentClassNames: Set<String> = [
        "Screen", "WindowScene", "View", "ImageView", "Label", "Window",
        "ViewController", "HostingController", "PresentationController",
    ]

    /// Makes the environment classes (`ui.View` and the rest) if they are not
    /// made yet: at the first read of one from `ui`, `pairs(ui)`, or the first
    /// environment pushed to Lua (a script that never touches them, like
    /// `traitlab -e ''`, never pays for them). Leaves the stack as it was.
    package func ensureEnvironmentClasses() {
        guard refs.pendingUI != LUA_NOREF else { return }
        let ref = refs.pendingUI
        refs.pendingUI = LUA_NOREF   // (first: pushing the main screen below comes back here)
        _ = lua_checkstack(L, 64)    // (called from wherever an environment is first pushed)
        let base = L.top
        L.registryTable(ref)
        installEnvironmentClasses(into: L.top)
        L.setTop(base)
        L.unref(ref)
    }

    func installEnvironmentClasses(into ui: Int32) {
        // The properties (name -> number), and what __newindex sends to
        // Swift: the properties, and callbacks (whose bits an update reads
        // instead of looking the name up). Each name is made once, for both.
        let properties = EnvironmentProperty.allCases
        let callbacks = ["traitCollectionDidChange"] + LifecycleEvent.allCases.map(\.rawValue)
        L.newTable(nrec: Int32(clamping: properties.count))
        let propertyTable = L.top
        L.newTable(nrec: Int32(clamping: properties.count + callbacks.count))
        for (i, p) in properties.enumerated() {
            L.push(p.key)
            L.push(i + 1)
            L.pushValue(-2)
            L.pushValue(-2)
            lua_rawset(L, propertyTable)
            lua_rawset(L, -3)
        }
        lua_rotate(L, -2, 1)   // (the property table on top)
        refs.properties = L.ref()
        // (Every callback name: some share a bit, so callbackNames lists only one of them.)
        for name in callbacks {
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
            // (What a script stored under the name with rawset before the
            // classes were made stays, as it would have replaced the class.)
            if L.rawGet(ui, name) == LUA_TNIL {
                L.registryTable(ref)
                L.rawSet(ui, name)
            }
            L.pop()
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
        // (Tables are made at their final size: filled one field at a time
        // they were rehashed as they grew, a sixth of start-up.)
        L.newTable(nrec: Int32(clamping: methods.count + (luaMethods.map { L.fieldCount($0) } ?? 0)))
        let c = L.top
        // The built-in methods: in the class table (Class.method reads them)
        // and in a copy no script reaches, which instances consult first, so
        // that no assignment to a class table replaces one for its objects.
        var inherited: Int32?
        if let parent {
            L.registryTable(refs.classes)
            L.registryTable(parent)
            if lua_rawget(L, -2) == LUA_TTABLE, L.rawGet(-1, "builtins") == LUA_TTABLE { inherited = L.top }
        }
        L.newTable(nrec: Int32(clamping: methods.count + (inherited.map { L.fieldCount($0) } ?? 0)))
        var builtins = L.top
        if let inherited {
            L.forEachPair(inherited) {
                L.pushValue(-2)
                L.pushValue(-2)
                lua_rawset(L, builtins)
            }
        }
        if parent != nil {
            lua_copy(L, -1, c + 1)
            L.setTop(c + 1)
            builtins = c + 1
        }
        for (k, f) in methods {
            L.push(k)   // (made once, for both tables)
            L.pushFunction(LuaFunctions.id("\(name):\(k)", f))
            L.pushValue(-2)
            L.pushValue(-2)
            lua_rawset(L, builtins)
            lua_rawset(L, c)
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
        L.newTable(nrec: 5)
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
        L.newTable(nrec: 5)
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
            if let k = L.string(-2), lua_type(L, -2) == LUA_TSTRING, callbackBit(k) == nil, let meant = nearMissProperty(k) {
                throw LuaError.message("unknown field '\(k)' for \(info.name) (did you mean '\(meant)'?)")
            }
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

    /// The property (or callback) a constructor's field was probably meant to
    /// name, or nil when it is an ordinary user field: one edit away from it
    /// (for names of five letters or fewer, a changed or swapped letter only:
    /// `nmae`), or the last word of one property alone (`scene` for
    /// `windowScene`). A user field that is no near miss stays a user field.
    func nearMissProperty(_ field: String) -> String? {
        let f = field.lowercased()
        guard f.count >= 3, EnvironmentProperty(rawValue: field) == nil else { return nil }
        let names = EnvironmentProperty.allCases.map(\.rawValue) + callbackNames
        for name in names {
            let n = name.lowercased()
            if n == f { return name }   // another capitalisation
            if n.count <= 5 {
                if n.count == f.count, swapsOrChangesOne(Array(f.utf8), Array(n.utf8)) { return name }
            } else if editDistance(f, n) <= (n.count >= 10 ? 2 : 1) {
                return name
            }
        }
        // Its last word, when one property alone ends so: `scene` for
        // `windowScene` (`color` ends three: a user field).
        guard f.count >= 4 else { return nil }
        let endings = names.filter { name in
            guard name.count > field.count, name.lowercased().hasSuffix(f) else { return false }
            return name[name.index(name.endIndex, offsetBy: -field.count)].isUppercase
        }
        return endings.count == 1 ? endings[0] : nil
    }

    /// Stores a user field in the object's field table, with the checks __newindex makes.
    func setUserField(_ u: Int32, key: Int32, value: Int32) throws {
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
}

/// Whether `a` becomes `b` (of the same length) by changing one letter or
/// swapping two neighbours.
func swapsOrChangesOne(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    let diffs = (0..<a.count).filter { a[$0] != b[$0] }
    if diffs.count == 1 { return true }
    return diffs.count == 2 && diffs[1] == diffs[0] + 1 && a[diffs[0]] == b[diffs[1]] && a[diffs[1]] == b[diffs[0]]
}

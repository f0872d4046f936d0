import CLua
import CLuaShim
import TraitEngine

// The methods of trait environments (addSubview, present, setNeedsLayout ...)
// (EnvironmentLibrary.swift makes the classes).
extension LuaHost {
    // MARK: - Methods

    func environmentMethods() -> [(String, LuaFunction)] {
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

    func viewMethods() -> [(String, LuaFunction)] {
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

    func viewControllerMethods() -> [(String, LuaFunction)] {
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
}

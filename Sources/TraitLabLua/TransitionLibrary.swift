import CLua
import CLuaShim
import TraitEngine

// Transitions for scripts: the `viewWillTransition(self, size, coordinator)`
// and `willTransition(self, newCollection, coordinator)` callbacks of view
// controllers and presentation controllers, and the coordinator's
// `animate(alongside, completion)` (docs/guide.md, "Transitions"). The rules
// live in the engine (Sources/TraitEngine/Transitions.swift); this file only
// converts. Transitions are rare (a rotation, a resize), so callbacks are
// looked up by name when one is due, with no bit of their own.

/// Registry key of the coordinator's metatable, made on first use.
private let coordinatorMetaKey = "traitlab.transitionCoordinatorMeta"

extension LuaHost {
    public func environment(_ env: TraitEnvironment, viewWillTransitionTo size: Size,
                            with coordinator: TransitionCoordinator) throws {
        try callTransition(env, "viewWillTransition", coordinator) { $0.pushSize(size) }
    }

    public func environment(_ env: TraitEnvironment, willTransitionTo collection: TraitCollection,
                            with coordinator: TransitionCoordinator) throws {
        try callTransition(env, "willTransition", coordinator) { $0.push(collection) }
    }

    /// Calls `name(self, argument, coordinator)` on `env`'s object (its own
    /// field or its class's) when it is a function; errors name the callback.
    private func callTransition(_ env: TraitEnvironment, _ name: String, _ coordinator: TransitionCoordinator,
                                pushArgument: (LuaHost) -> Void) throws {
        try L.ensureStack(6)
        push(env)
        let u = L.top
        defer { L.setTop(u - 1) }
        L.push(name)
        let t = tl_rawlookup_at(L, u, -1)
        tl_remove(L, -2)
        if t == LUA_TNIL { return }
        guard t == LUA_TFUNCTION else {
            throw LuaError.message("callback '\(name)' of \(env) is a \(L.typeName(-1)), not a function")
        }
        L.pushValue(u)
        pushArgument(self)
        pushCoordinator(coordinator)
        do { try call(3) } catch let e as LuaError { throw e.inCallback(name, of: env) }
    }

    /// Pushes `coordinator` as a `TransitionCoordinator` userdata.
    func pushCoordinator(_ coordinator: TransitionCoordinator) {
        L.pushBox(coordinator, kind: .transitionCoordinator)
        if lua_getfield(L, tl_registryindex(), coordinatorMetaKey) == LUA_TNIL {
            L.pop()
            L.registryTable(makeCoordinatorMeta())
            L.pushValue(-1)
            lua_setfield(L, tl_registryindex(), coordinatorMetaKey)
        }
        lua_setmetatable(L, -2)
    }

    private func makeCoordinatorMeta() -> Int32 {
        makeMeta(name: "TransitionCoordinator", index: ("transitionCoordinator.index", { c in
            let coordinator = try c.object(1, TransitionCoordinator.self, "TransitionCoordinator")
            switch try c.string(2) {
            case "fromSize": c.host.pushSize(coordinator.fromSize)
            case "toSize": c.host.pushSize(coordinator.toSize)
            default:
                throw LuaError.message("TransitionCoordinator has no field '\(c.L.string(2) ?? "?")' (animate, fromSize, toSize)")
            }
            return 1
        }), methods: [
            // coordinator:animate(alongside, completion): either may be nil.
            "animate": ("TransitionCoordinator:animate", { c in
                let coordinator = try c.object(1, TransitionCoordinator.self, "TransitionCoordinator")
                for i: Int32 in 2...3 where !c.L.isNil(i) && lua_type(c.L, i) != LUA_TFUNCTION {
                    throw c.argError(i, "a function or nil expected, got \(c.L.typeName(i))")
                }
                guard coordinator.acceptsAnimations else { c.L.push(false); return 1 }
                // (Unowned: the world, which keeps the coordinator, goes with the host.)
                unowned let host = c.host
                let alongside = c.host.transitionFunction(at: 2)
                let completion = c.host.transitionFunction(at: 3)
                c.L.push(coordinator.animate(alongside: alongside.map { f in { try f(host, $0) } },
                                             completion: completion.map { f in { try f(host, $0) } }))
                return 1
            }),
        ], newindex: { _ in throw LuaError.message("a transition coordinator has no fields to set") }, tostring: { c in
            let coordinator = try c.object(1, TransitionCoordinator.self, "TransitionCoordinator")
            c.L.push("TransitionCoordinator(\(coordinator.fromSize) -> \(coordinator.toSize))")
            return 1
        })
    }

    /// The function at `i` kept in the registry until it runs once, called
    /// with the coordinator (nil when there is none).
    private func transitionFunction(at i: Int32) -> ((LuaHost, TransitionCoordinator) throws -> Void)? {
        guard lua_type(L, i) == LUA_TFUNCTION else { return nil }
        L.pushValue(i)
        let ref = L.ref()
        return { host, coordinator in
            try host.L.ensureStack(3)
            host.L.registryGet(ref)
            host.L.unref(ref)
            host.pushCoordinator(coordinator)
            try host.call(1)
        }
    }
}

import CLua
import CLuaShim
import TraitEngine

/// What the host keeps for `ui.Observable` (the objects themselves live in
/// Lua: the embedded observable.lua).
struct ObservationState {
    /// The module table ({ new, arm, check, isObservable }), once the first
    /// call of `ui.Observable` has loaded it.
    var module: Int32 = LUA_NOREF
    /// Until then, the module's `_ENV`, made at start (observable_new.lua):
    /// the values it keeps in locals as they were then, over the globals
    /// (which a script may have changed by the time it loads).
    var environment: Int32 = LUA_NOREF
    /// Some observable reads plainly: arm them before a tracked method of a
    /// script runs.
    var needsArming = false
}

extension LuaHost {
    /// Sets `ui.Observable` and `ui.available`. `ui.Observable` is a small
    /// function (observable_new.lua) that loads the embedded observable
    /// module on its first call and hands each call on to the module's `new`:
    /// a run that makes no observable never loads it (start-up,
    /// docs/performance.md). Under the sandbox, the module's `new` itself.
    func installObservable(into ui: Int32) throws {
        let ui = L.absIndex(ui)
        if options.refusesFiles {
            // Under the sandbox (--sandbox, traitlab test --sandbox) the module
            // loads now, with the globals as its _ENV, and ui.Observable is
            // its `new`, as before: a sandboxed script sees the library
            // exactly as it was.
            try loadObservableModule()
            L.registryTable(observation.module)
            _ = L.rawGet(-1, "new")
            tl_remove(L, -2)
        } else {
            try loadEmbedded("observable_new")
            // Its one argument: the host's loader, which returns the module's `new`.
            L.pushFunction(LuaFunctions.id("observable.load", { c in
                try c.host.loadObservableModule()
                c.L.registryTable(c.host.observation.module)
                _ = c.L.rawGet(-1, "new")
                guard lua_type(c.L, -1) == LUA_TFUNCTION else { throw LuaError.message("the observable module has no function 'new'") }
                return 1
            }))
            guard tl_pcall(L, 1, 2) == LUA_OK else {
                throw LuaError.message("cannot load ui.Observable: \(popError())")
            }
            guard lua_type(L, -2) == LUA_TFUNCTION, lua_type(L, -1) == LUA_TTABLE else {
                L.pop(2)
                throw LuaError.message("observable_new returned no function and environment")
            }
            observation.environment = L.ref()
        }
        L.rawSet(ui, "Observable")

        setFunction(ui, "ui", "available") { c in
            // #available(iOS 18.0, *): the world's major version is at least that.
            let major: Int
            if let s = c.L.string(1) {
                guard let m = LuaHost.majorVersion(s) else {
                    throw c.argError(1, "an iOS version like \"18.0\" expected, got \"\(s)\"")
                }
                major = m
            } else if let n = c.L.integer(1), lua_type(c.L, 1) == LUA_TNUMBER {
                major = n
            } else {
                throw c.typeError(1, "version string")
            }
            c.L.push(c.host.world.os.major >= major)
            return 1
        }
    }

    /// Loads the embedded observable module, once: its `_ENV` the values kept
    /// at start (the globals when it loads at start), its argument the host
    /// functions it reads with.
    func loadObservableModule() throws {
        guard observation.module == LUA_NOREF else { return }
        let base = L.top
        defer { L.setTop(base) }
        try loadEmbedded("observable")
        if observation.environment != LUA_NOREF {
            L.registryTable(observation.environment)
            guard lua_setupvalue(L, -2, 1) != nil else {
                throw LuaError.message("the observable module has no _ENV")
            }
        }
        L.newTable()
        let fns = L.top
        setFunction(fns, "observable", "current") { c in
            // The running tracked method: its environment, kind of work and run.
            let world = c.host.world
            guard world.tracksObservation, let env = world.trackingEnvironment else { return 0 }
            let run = env.noteObservedRead()
            c.host.push(env)
            c.L.push(world.trackingKind.index + 1)
            lua_pushinteger(c.L, lua_Integer(Int64(bitPattern: run)))
            return 3
        }
        setFunction(fns, "observable", "invalidate") { c in
            // (Values from the module's own tables; a dead or other world's environment is skipped,
            // and with tracking turned off, what was read while it was on no longer counts.)
            guard c.host.world.tracksObservation, let env = c.L.box(1, as: TraitEnvironment.self), env.world === c.host.world,
                  let k = c.L.integer(2), k >= 1, k <= TrackedWork.allCases.count,
                  let run = c.L.integer(3) else { return 0 }
            env.invalidateObserved(TrackedWork.allCases[k - 1], run: UInt64(bitPattern: Int64(run)))
            return 0
        }
        setFunction(fns, "observable", "live") { c in
            // Whether a read kept by the module (environment, kind of work, run) still counts:
            // that run is still the latest of its work. False for anything else, and for
            // everything while tracking is off.
            guard c.host.world.tracksObservation, let env = c.L.box(1, as: TraitEnvironment.self), env.world === c.host.world,
                  let k = c.L.integer(2), k >= 1, k <= TrackedWork.allCases.count,
                  let run = c.L.integer(3) else { c.L.push(false); return 1 }
            c.L.push(env.isLatestObservedRun(TrackedWork.allCases[k - 1], run: UInt64(bitPattern: Int64(run))))
            return 1
        }
        setFunction(fns, "observable", "tracking") { c in
            c.L.push(c.host.world.tracksObservation && c.host.world.trackingEnvironment != nil)
            return 1
        }
        setFunction(fns, "observable", "disarmed") { c in
            c.host.observation.needsArming = true
            return 0
        }
        setFunction(fns, "observable", "watching") { c in
            // Some disarmed object has properties work depends on: compare them before work is applied.
            c.host.world.checksBeforeApplyingWork = true
            return 0
        }
        guard tl_pcall(L, 1, 1) == LUA_OK else {
            throw LuaError.message("cannot load the observable module: \(popError())")
        }
        guard lua_type(L, -1) == LUA_TTABLE else {
            throw LuaError.message("the observable module returned no table")
        }
        observation.module = L.ref()
        L.unref(observation.environment)
        observation.environment = LUA_NOREF
    }

    /// The major version of "18", "18.0" or "18.2.1"; nil for anything else.
    static func majorVersion(_ s: String) -> Int? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return Int(parts[0])
    }

    /// Arms the observables before a script's tracked method runs (from the
    /// world's delegate), so that its reads reach the module.
    func armObservablesIfNeeded() throws {
        guard observation.needsArming, world.tracksObservation, world.trackingEnvironment != nil else { return }
        observation.needsArming = false
        L.registryTable(observation.module)
        _ = L.rawGet(-1, "arm")
        tl_remove(L, -2)
        guard lua_type(L, -1) == LUA_TFUNCTION else { L.pop(); return }
        try call(0)
        // Arming compared every watched object: none is left.
        world.checksBeforeApplyingWork = false
    }

    /// Before the engine applies pending work (an update, each of its
    /// passes, an IfNeeded call; only while some disarmed observable has
    /// properties that work depends on): compares them with the values that
    /// work read, invalidating it where they differ.
    public func worldWillApplyPendingWork(_ world: TraitWorld) throws {
        guard world === self.world, observation.module != LUA_NOREF else { return }
        L.registryTable(observation.module)
        _ = L.rawGet(-1, "check")
        tl_remove(L, -2)
        guard lua_type(L, -1) == LUA_TFUNCTION else { L.pop(); return }
        try call(0, results: 1)
        // (A value the module returned: anything but false keeps checking.)
        let more = lua_type(L, -1) != LUA_TBOOLEAN || L.bool(-1)
        L.pop()
        world.checksBeforeApplyingWork = more
    }

    // MARK: - ui.ios, ui.observationTracking

    /// Pushes the value of the version property `key` of `ui` (nil when
    /// `key` is none of them).
    func pushVersionProperty(_ key: String?) {
        switch key {
        case "ios": L.push(world.os.description)
        case "observationTracking": L.push(world.tracksObservation)
        default: L.pushNil()
        }
    }

    /// Sets the version property named by the key at 2 of `ui` to the value
    /// at 3; false when the key is not one of them.
    func setVersionProperty(_ c: LuaCall) throws -> Bool {
        switch c.L.string(2) {
        case "ios":
            throw LuaError.message("ui.ios is read-only (the iOS version is chosen on the command line: --ios)")
        case "observationTracking":
            guard lua_type(c.L, 3) == LUA_TBOOLEAN else {
                throw LuaError.message("ui.observationTracking must be true or false, got \(c.L.typeName(3))")
            }
            try setObservationTracking(c.L.bool(3))
            return true
        default:
            return false
        }
    }

    /// The `UIObservationTrackingEnabled` Info.plist key: an opt-in from
    /// iOS 18; iOS 26 always tracks and no longer reads the key (Apple's
    /// page for the key; WWDC25 "What's new in UIKit").
    func setObservationTracking(_ on: Bool) throws {
        let feature = OSVersion.Feature.observationTracking
        let os = world.os
        if os.has(feature) {
            if !on { throw LuaError.message("observation tracking is always on in iOS \(os.major) (UIObservationTrackingEnabled is only read by iOS 18)") }
            return
        }
        guard let from = feature.optInFrom, os.major >= from.major else {
            if on {
                throw LuaError.message("ui.observationTracking needs iOS \(feature.optInFrom?.major ?? feature.introduced.major) or later (this world runs iOS \(os.major))")
            }
            return
        }
        if on { world.optedIn.insert(feature) } else { world.optedIn.remove(feature) }
    }
}

import CLua
import CLuaShim
import TraitEngine

// registerForTraitChanges from Lua: closures, target-action and the
// handlers the world's delegate delivers.
extension LuaHost {
    // MARK: - Registrations

    func register(_ c: LuaCall) throws -> Int32 {
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

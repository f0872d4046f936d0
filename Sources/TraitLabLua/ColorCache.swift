import CLua
import CLuaShim
import TraitEngine

/// Resolved named colours kept per collection object, so that resolving a
/// system colour or a colour set again against the same collection stays in
/// Lua (the embedded color_cache.lua), as a trait read does.
///
/// The first resolution of a named colour against a collection object gives
/// that colour object a metatable of its own, whose `__index` is a table
/// (`name`, `isDynamic`, and a `resolvedColor` closure over the colour's
/// table of kept answers). Nothing here is read back by Swift but that table,
/// which is only ever written with `rawset`: a script that forges it with the
/// debug library changes only its own answers.
struct ColorCacheRefs {
    /// color_cache.lua's factory: (kept, me, ask) -> resolvedColor.
    var factory: Int32 = LUA_NOREF
    /// The metatable of the kept-answers tables (weak keys).
    var weakKeys: Int32 = LUA_NOREF
    /// The metatable of a promoted colour's field table: misses are errors.
    var fieldsMeta: Int32 = LUA_NOREF
    /// The uncached `resolvedColor`, which the closures ask on a miss.
    var ask: Int32 = LUA_NOREF
}

extension LuaHost {
    /// `color:resolvedColor([tc])`: the colour for `tc` (or `traits.current`).
    /// A promoted named colour's own method (color_cache.lua) asks this on a miss.
    static let resolveColor: LuaFunction = { c in
        let box = try c.object(1, ColorBox.self, "Color")
        // No argument: against traits.current (`resolvedColor(with: .current)`).
        let tc: TraitCollection
        if c.L.isNil(2) { tc = c.host.world.currentTraitCollection } else {
            guard let given = c.host.collection(at: 2) else { throw c.typeError(2, "TraitCollection") }
            tc = given
        }
        let tracking = !c.L.isNil(2) && c.host.isTrackingObject(2)
        let keep = try c.host.pushResolved(box, for: tc, tracking: tracking)
        // A system colour or a colour set gives the same answer for the
        // same collection object: kept, so the next call stays in Lua.
        if keep, !c.L.isNil(2) { c.host.keepResolution(color: 1, collection: 2, resolved: -1) }
        return 1
    }

    /// Pushes `box` resolved for `tc` (`resolvedColor(with:)`); true when the
    /// answer may be kept for `tc`'s object: a named colour (a system colour
    /// or a colour set, which give the same answer for the same collection)
    /// read through an object that does not track its reads.
    func pushResolved(_ box: ColorBox, for tc: TraitCollection, tracking: Bool) throws -> Bool {
        // A tracking object (automatic trait tracking) records the
        // traits a named colour reads, as reading them would.
        if tracking, case .named(let n) = box.value {
            for d in n.traitsRead { TraitCollection.recordRead(of: d, in: tc) }
        }
        // The provider runs with the collection it resolves against current, as UIKit's does.
        let color = try world.performAsCurrent(tc) { try box.value.resolved(with: tc) }
        pushColor(.fixed(color))
        if tracking { return false }
        if case .named = box.value { return true }
        return false
    }

    /// Loads color_cache.lua and makes the tables promoted colours share
    /// (on the first answer a colour keeps). Leaves the stack as it was.
    func installColorCache() throws {
        let base = L.top
        defer { L.setTop(base) }
        try loadEmbedded("color_cache")
        guard tl_pcall(L, 0, 1) == LUA_OK else { throw LuaError.message("cannot load the colour cache: \(popError())") }
        guard lua_type(L, -1) == LUA_TFUNCTION else { throw LuaError.message("the colour cache module returned no function") }
        let factory = L.ref()
        L.newTable()
        L.push("k"); L.rawSet(-2, "__mode")
        colorCache.weakKeys = L.ref()
        L.newTable()
        L.pushFunction(LuaFunctions.id("color.fieldMiss", { c in
            // (The field table of a named colour has every field it has.)
            let key = c.L.string(2) ?? c.L.typeName(2)
            throw LuaError.message("a dynamic color has no '\(key)'; resolve it first with color:resolvedColor(traitCollection)")
        }))
        L.rawSet(-2, "__index")
        L.push("Color"); L.rawSet(-2, "__metatable")
        colorCache.fieldsMeta = L.ref()
        L.pushFunction(LuaFunctions.id("Color:resolvedColor", LuaHost.resolveColor))
        colorCache.ask = L.ref()
        colorCache.factory = factory   // (last: what keepResolution checks)
    }

    /// Whether the collection object at `i` is a tracking object (automatic
    /// trait tracking: its reads are recorded, so nothing read through it is kept).
    func isTrackingObject(_ i: Int32) -> Bool {
        let t = lua_getiuservalue(L, i, 2)
        L.pop()
        return t != LUA_TNONE
    }

    /// Keeps the colour at `resolved` as the answer of the named colour object
    /// at `color` for the collection object at `collection`, promoting the
    /// colour object on its first kept answer. Leaves the stack as it was.
    func keepResolution(color: Int32, collection: Int32, resolved: Int32) {
        let color = L.absIndex(color), collection = L.absIndex(collection), resolved = L.absIndex(resolved)
        let base = L.top
        defer { L.setTop(base) }
        guard case .named(let named)? = L.box(color, as: ColorBox.self)?.value else { return }
        // Loaded on first use (not at every start); a colour that cannot
        // have it (no memory, a hook's error) just keeps nothing.
        if colorCache.factory == LUA_NOREF {
            guard (try? installColorCache()) != nil, colorCache.factory != LUA_NOREF else { return }
        }
        if lua_getiuservalue(L, color, 1) != LUA_TTABLE {
            L.pop()
            // The kept answers, weak in their keys (a collection object).
            L.newTable()
            L.registryTable(colorCache.weakKeys)
            lua_setmetatable(L, -2)
            let kept = L.top
            // Its resolvedColor: the factory's closure over (kept, this colour, ask).
            // (registryGet: a script may have replaced these through
            // debug.getregistry(); the call is protected and a non-function
            // result is refused)
            L.registryGet(colorCache.factory)
            L.pushValue(kept)
            L.pushValue(color)
            L.registryGet(colorCache.ask)
            guard tl_pcall(L, 3, 1) == LUA_OK, lua_type(L, -1) == LUA_TFUNCTION else { return }
            let method = L.top
            // Its fields, all known now.
            L.newTable(nrec: 3)
            let fields = L.top
            L.push(named.name); L.rawSet(fields, "name")
            L.push(true); L.rawSet(fields, "isDynamic")
            L.pushValue(method); L.rawSet(fields, "resolvedColor")
            L.registryTable(colorCache.fieldsMeta)
            lua_setmetatable(L, fields)
            // Its metatable: the shared one's events, with __index the fields.
            L.newTable(nrec: 10)
            let meta = L.top
            L.registryTable(refs.colorMeta)
            let shared = L.top
            L.pushNil()
            while lua_next(L, shared) != 0 {
                L.pushValue(-2)
                L.pushValue(-2)
                lua_rawset(L, meta)
                L.pop()
            }
            L.pop()
            L.pushValue(fields); L.rawSet(meta, "__index")
            L.pushValue(kept)
            guard tl_setuservalue(L, color) != 0 else { return }
            lua_setmetatable(L, color)
            L.pushValue(kept)
        }
        L.pushValue(collection)
        L.pushValue(resolved)
        lua_rawset(L, -3)
    }
}

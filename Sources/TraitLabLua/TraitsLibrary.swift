import CLua
import CLuaShim
import TraitEngine

/// A mutable-traits object handed to a mutation function; invalid once it returns.
final class MutableTraitsBox {
    var traits: MutableTraits
    var isValid = true
    init(_ t: MutableTraits) { traits = t }
}

/// Property names that collide with methods of collections or overrides.
let reservedTraitProperties: Set<String> = ["changedTraits", "modifyingTraits", "encode", "contains", "remove", "cases",
                                            "containsTraits", "hasDifferentColorAppearance", "performAsCurrent"]

extension LuaHost {
    // MARK: - Values

    /// The string at `i` as text. Trait values are text, as in Swift: a Lua
    /// string that is not valid UTF-8 is an error, where a repair would make
    /// distinct values equal (and their change invisible to handlers). Its
    /// copy is asked for first (``LuaStatePointer/keptString(_:)``) unless
    /// the caller did (`asked`).
    func text(at i: Int32, what: String = "trait string values", asked: Bool = false) throws -> String {
        var len = 0
        guard lua_type(L, i) == LUA_TSTRING, let p = tl_tostring(L, i, &len) else { return "" }
        if len > 15 && !asked { try chargeEngine(len) }
        let bytes = UnsafeRawBufferPointer(start: p, count: len)
        // ASCII (most values) is valid as it is, and String(decoding:) takes
        // its fast path; anything else is validated.
        var high: UInt8 = 0
        for b in bytes { high |= b }
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        // Where it stops being text, for the message (one pass).
        var iterator = bytes.makeIterator(), decoder = UTF8(), valid = 0
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): valid += UTF8.width(scalar)
            case .emptyInput, .error: break decoding
            }
        }
        throw LuaError.message("\(what) must be valid UTF-8 text (this one is not at byte \(valid + 1))")
    }

    /// Converts the Lua value at `i` to a trait value (plain data only). The
    /// engine's copy is asked for (``chargeEngine(_:)``) as it is made.
    func traitValue(at i: Int32) throws -> TraitValue {
        try traitValue(at: i, depth: 0)
    }

    /// A table entry in the making: the entries as read (with the room their
    /// array grows into), then the sorted copy.
    private static let tableEntryCost = 3 * MemoryLayout<TraitTable.Entry>.stride

    private func traitValue(at i: Int32, depth: Int) throws -> TraitValue {
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return .none
        case LUA_TBOOLEAN: return .bool(L.bool(i))
        case LUA_TNUMBER:
            if tl_isinteger(L, i) != 0, let n = L.integer(i) { return .int(n) }
            return .number(L.number(i) ?? 0)
        case LUA_TSTRING:
            return .string(try text(at: i))
        case LUA_TTABLE:
            if collection(at: i) != nil { throw LuaError.message("a trait collection is not a plain table value") }
            guard depth < 64 else { throw LuaError.message("table value is nested too deeply (or contains a cycle)") }
            try L.ensureStack(8)
            try chargeSmall(64)
            var entries: [TraitTable.Entry] = []
            try L.forEachPair(i) {
                try chargeSmall(LuaHost.tableEntryCost)
                let key: TraitTableKey
                switch lua_type(L, -2) {
                case LUA_TSTRING: key = .string(try text(at: -2))
                case LUA_TBOOLEAN: key = .bool(L.bool(-2))
                case LUA_TNUMBER:
                    if tl_isinteger(L, -2) != 0, let n = L.integer(-2) { key = .int(n) } else { key = .number(L.number(-2) ?? 0) }
                default: throw LuaError.message("table values may only have string, number or boolean keys, got a \(L.typeName(-2)) key")
                }
                entries.append(.init(key: key, value: try traitValue(at: L.top, depth: depth + 1)))
            }
            return .table(TraitTable(entries))
        case LUA_TUSERDATA where namedResource(at: i) != nil:
            return .string(namedResource(at: i) ?? "")
        default:
            throw LuaError.message("trait values must be plain data (boolean, number, string or table), a named colour or an image, got \(L.typeName(i))")
        }
    }

    /// The name a colour or image trait stores for the value at `i`: a system
    /// colour's or a colour set's name (`ui.Color.systemBackground`,
    /// `ui.Color.named("Brand")`), an image set's (`ui.Image.named("Hero")`);
    /// nil for anything else (a fixed or dynamic colour has no name).
    func namedResource(at i: Int32) -> String? {
        if let image = L.box(i, as: ImageBox.self) { return image.asset.name }
        if let color = L.box(i, as: ColorBox.self), case .named(let n) = color.value { return n.name }
        return nil
    }

    package func push(_ v: TraitValue) {
        if L.pushScalar(v) { return }
        switch v {
        case .none, .bool, .int, .number, .string: break
        case .table(let t):
            // Depth is bounded (64) when values are made, so growing cannot fail in practice.
            _ = lua_checkstack(L, 8)
            // (Left empty when the system has no room for it, nor for a short
            // string per entry; the trampoline raises.)
            guard L.newTable(narr: Int32(clamping: t.isSequence ? t.entries.count : 0), nrec: Int32(clamping: t.isSequence ? 0 : t.entries.count)),
                  L.roomForLua(48 * t.entries.count) else { return }
            for e in t.entries {
                switch e.key {
                case .string(let s): L.push(s)
                case .int(let n): L.push(n)
                case .number(let d): L.push(d)
                case .bool(let b): L.push(b)
                }
                push(e.value)
                lua_rawset(L, -3)
            }
        }
    }

    // MARK: - Definitions

    package func push(_ def: TraitDefinition) { pushPinned(def, kind: .definition, meta: refs.definitionMeta) }

    /// The definition named by the key at `i`: a definition object or a property name.
    package func definition(forKey i: Int32) throws -> TraitDefinition {
        let d = try anyDefinition(forKey: i)
        // A system trait the world's iOS version lacks is refused wherever it
        // is used, as compiling against that deployment target would.
        if d.isSystem { try SystemTraitAvailability.require(d, in: world.os) }
        return d
    }

    /// The definition a key names, whatever the world's version.
    private func anyDefinition(forKey i: Int32) throws -> TraitDefinition {
        let i = L.absIndex(i)
        if lua_type(L, i) == LUA_TSTRING {
            // Property names seen before: one raw lookup with the Lua string
            // itself, no Swift string and no hashing on the Swift side.
            L.registryTable(refs.definitionsByProperty)
            L.pushValue(i)
            lua_rawget(L, -2)
            if let d = L.box(-1, as: TraitDefinition.self) { L.pop(2); return d }
            L.pop(2)
        }
        if let d = L.box(i, as: TraitDefinition.self) { return d }
        if let p = L.string(i) {
            if let d = world.registry.definition(forProperty: p) {
                L.registryTable(refs.definitionsByProperty)
                L.pushValue(i)
                push(d)
                lua_rawset(L, -3)
                L.pop()
                return d
            }
            throw LuaError.message("unknown trait property '\(p)'\(suggestion(for: p))")
        }
        throw LuaError.message("expected a trait definition or property name, got \(L.typeName(i))")
    }

    /// The collections `a:method(b)` compares; a tracked callback's `a`
    /// counts as read whole.
    func comparedCollections(_ c: LuaCall) throws -> (TraitCollection, TraitCollection) {
        guard let a = collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
        guard let b = collection(at: 2) else { throw c.typeError(2, "TraitCollection") }
        try readsEveryTrait(of: a)
        return (a, b)
    }

    /// " (did you mean 'x'?)" for a near miss among the registered properties.
    func suggestion(for p: String) -> String {
        didYouMean(p, among: world.registry.definitions.map(\.property))
    }

    /// The trait definitions in an array (or a single definition) at `i`.
    func definitionList(at i: Int32, in call: LuaCall) throws -> [TraitDefinition] {
        if let d = L.box(i, as: TraitDefinition.self) { return [d] }
        guard lua_type(L, i) == LUA_TTABLE, collection(at: i) == nil else {
            throw call.typeError(i, "array of trait definitions")
        }
        var defs: [TraitDefinition] = []
        let n = L.rawLength(i)
        for k in 1...max(n, 1) where n > 0 {
            lua_rawgeti(L, i, lua_Integer(k))
            defer { L.pop() }
            guard let d = L.box(-1, as: TraitDefinition.self) else {
                throw call.argError(i, "entry \(k) is \(L.typeName(-1) == "nil" ? "nil" : "a " + L.typeName(-1)), not a trait definition")
            }
            defs.append(d)
        }
        return defs
    }

    // MARK: - Library functions

    func installTraits() {
        L.newTable()
        let t = L.top
        func fn(_ name: String, _ body: @escaping LuaFunction) { setFunction(t, "traits", name, body) }
        fn("enum") { c in try c.host.defineEnum(c) }
        fn("define") { c in try c.host.defineTrait(c) }
        fn("collection") { c in try c.host.makeCollection(c) }
        fn("decode") { c in
            guard lua_type(c.L, 1) == LUA_TSTRING else { throw c.typeError(1, "string") }
            // The document's copy in Swift is asked for before it is made (the
            // parser asks for its own).
            try c.host.chargeEngine(c.L.rawLength(1))
            let json = try c.host.text(at: 1, what: "a JSON document")   // (a repair would make "\xff" and "\xfe" decode equal)
            let tc = try TraitCollection.decode(json: json, registry: c.host.world.registry, budget: c.host.memoryBudget)
            c.host.push(tc)
            return 1
        }
        fn("definitions") { c in
            let defs = c.host.world.registry.definitions
            c.L.newTable(narr: Int32(clamping: defs.count))
            for (k, d) in defs.enumerated() { c.host.push(d); lua_rawseti(c.L, -2, lua_Integer(k + 1)) }
            return 1
        }
        fn("named") { c in
            let key = try c.string(1)
            if let d = c.host.world.registry.definition(forProperty: key)
                ?? c.host.world.registry.definitions.first(where: { $0.name == key }) {
                c.host.push(d)
            } else {
                c.L.pushNil()
            }
            return 1
        }
        for d in SystemTraits.all {
            push(d)
            L.rawSet(t, d.name)
        }
        func list(_ name: String, _ defs: [TraitDefinition]) {
            L.newTable(narr: Int32(clamping: defs.count))
            for (k, d) in defs.enumerated() { push(d); lua_rawseti(L, -2, lua_Integer(k + 1)) }
            L.rawSet(t, name)
        }
        list("systemTraitsAffectingColorAppearance", SystemTraits.affectingColorAppearance)
        list("systemTraitsAffectingImageLookup", SystemTraits.affectingImageLookup)
        installCurrentTraitCollection(t)
    }

    /// `traits.current` (`UITraitCollection.current`), read-only: a field
    /// the traits table's protected metatable serves.
    private func installCurrentTraitCollection(_ t: Int32) {
        L.newTable()
        L.pushFunction(LuaFunctions.id("traits.index", { c in
            guard c.L.string(2) == "current" else { c.L.pushNil(); return 1 }
            c.host.push(c.host.world.currentTraitCollection)
            return 1
        }))
        L.rawSet(-2, "__index")
        L.pushFunction(LuaFunctions.id("traits.newindex", { c in
            if c.L.string(2) == "current" {
                throw LuaError.message("traits.current is read-only; use tc:performAsCurrent(function() ... end)")
            }
            c.L.setTop(3)
            guard c.L.isTableKey(2) else { throw LuaError.message(c.L.isNil(2) ? "table index is nil" : "table index is NaN") }
            lua_rawset(c.L, 1)
            return 0
        }))
        L.rawSet(-2, "__newindex")
        L.push(false)
        L.rawSet(-2, "__metatable")
        lua_setmetatable(L, t)
    }

    func installTraitMetatables() {
        // Definitions: read-only fields.
        refs.definitionMeta = makeMeta(name: "TraitDefinition", index: ("def.index", { c in try c.host.definitionField(c) }),
                                       methods: [:], newindex: { _ in throw LuaError.message("trait definitions are read-only") },
                                       tostring: { c in
            let d = try c.object(1, TraitDefinition.self, "TraitDefinition")
            c.L.push("TraitDefinition(\(d.name))")
            return 1
        })
        refs.enumMeta = makeMeta(name: "TraitEnum", index: ("enum.index", { c in try c.host.enumField(c) }),
                                 methods: [:], newindex: { _ in throw LuaError.message("trait enums are read-only") },
                                 tostring: { c in
            let e = try c.object(1, TraitEnum.self, "TraitEnum")
            c.L.push("TraitEnum(\(e.name): \(e.caseList))")
            return 1
        }, extra: [("__len", "enum.len", { c in
            c.L.push(try c.object(1, TraitEnum.self, "TraitEnum").cases.count)
            return 1
        })])
        let collectionMethods: [String: (String, LuaFunction)] = [
                                        "changedTraits": ("TraitCollection:changedTraits", { c in try c.host.changedTraits(c) }),
                                        "modifyingTraits": ("TraitCollection:modifyingTraits", { c in try c.host.modifyingTraits(c) }),
                                        "containsTraits": ("TraitCollection:containsTraits", { c in
                                            let (a, b) = try c.host.comparedCollections(c)
                                            c.L.push(a.containsTraits(in: b))
                                            return 1
                                        }),
                                        "hasDifferentColorAppearance": ("TraitCollection:hasDifferentColorAppearance", { c in
                                            let (a, b) = try c.host.comparedCollections(c)
                                            c.L.push(a.hasDifferentColorAppearance(comparedTo: b))
                                            return 1
                                        }),
                                        "performAsCurrent": ("TraitCollection:performAsCurrent", { c in
                                            guard let tc = c.host.collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
                                            try c.function(2)
                                            c.L.setTop(2)
                                            c.L.pushValue(2)
                                            try c.host.world.performAsCurrent(tc) { try c.host.call(0, results: LUA_MULTRET) }
                                            return c.L.top - 2
                                        }),
                                        "encode": ("TraitCollection:encode", { c in
                                            guard let tc = c.host.collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
                                            try c.host.readsEveryTrait(of: tc)
                                            // What decode could not read back as it was is an error, not a lossy document.
                                            if let problem = tc.encodingProblem { throw LuaError.message(problem) }
                                            // (The JSON values made first, then the text: asked for.)
                                            try c.host.chargeEngine(c.host.textCost(of: tc.entries.map(\.value), times: 4))
                                            c.L.push(tc.encodedJSON())
                                            return 1
                                        }),
                                       ]
        refs.collectionMeta = makeMeta(name: "TraitCollection", index: ("collection.index", { c in try c.host.collectionField(c) }),
                                       methods: collectionMethods,
                                       newindex: { _ in throw LuaError.message("trait collections are immutable; use modifyingTraits to make a changed copy") },
                                       tostring: { c in
            guard let tc = c.host.collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
            try c.host.readsEveryTrait(of: tc)
            try c.host.chargeEngine(c.host.textCost(of: tc.entries.map(\.value), times: 2))
            c.L.push(c.host.describe(tc))
            return 1
        }, extra: [
            ("__eq", "collection.eq", { c in
                guard let a = c.host.collection(at: 1), let b = c.host.collection(at: 2) else { c.L.push(false); return 1 }
                try c.host.readsEveryTrait(of: a)
                try c.host.readsEveryTrait(of: b)
                c.L.push(a == b)
                return 1
            }),
            ("__pairs", "collection.pairs", { c in
                guard let tc = c.host.collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
                try c.host.readsEveryTrait(of: tc)
                c.host.pushEntryIterator(tc.entries)
                return 3
            }),
        ])
        // The indexer: values read before (the box's user value), methods, then Swift.
        // Tracking objects share a copy of the metatable whose indexer never caches.
        L.newTable()
        let methods = L.top
        for (k, f) in collectionMethods {
            L.pushFunction(LuaFunctions.id(f.0, f.1))
            L.rawSet(methods, k)
        }
        L.registryTable(refs.collectionMeta)
        let meta = L.top
        tl_push_collection_indexer(L, LuaFunctions.id("collection.index", { c in try c.host.collectionField(c) }), methods, 0)
        L.pushValue(-1)
        L.rawSet(meta, "__index")
        // The shared metatable of promoted objects' caches: a miss goes on to the same indexer.
        L.newTable()
        L.pushValue(-2)
        L.rawSet(-2, "__index")
        L.push("TraitCollection")
        L.rawSet(-2, "__metatable")
        refs.collectionCacheMeta = L.ref()
        L.pop()
        L.newTable()
        let tm = L.top
        L.forEachPair(meta) {
            L.pushValue(-2)
            L.pushValue(-2)
            lua_rawset(L, tm)
        }
        tl_push_collection_indexer(L, LuaFunctions.id("collection.trackedIndex", { c in try c.host.collectionField(c, cache: false) }), methods, 1)
        L.rawSet(tm, "__index")
        refs.trackingCollectionMeta = L.ref()
        L.setTop(methods - 1)
        let h = tl_gethost(L)!
        h.pointee.collection_meta_ref = refs.collectionMeta
        h.pointee.collection_cache_meta_ref = refs.collectionCacheMeta
        h.pointee.tracking_meta_ref = refs.trackingCollectionMeta
        h.pointee.retain_collection = { collection in
            if let collection { _ = Unmanaged<TraitCollection>.fromOpaque(collection).retain() }
        }
        refs.mutableMeta = makeMeta(name: "MutableTraits", index: ("mutable.index", { c in
            let m = try c.host.liveMutable(c)
            let d = try c.host.definition(forKey: 2)
            c.host.push(m.traits[d])
            return 1
        }), methods: [:], newindex: { c in
            let m = try c.host.liveMutable(c)
            let d = try c.host.definition(forKey: 2)
            try m.traits.set(d, try c.host.traitValue(at: 3))
            return 0
        }, tostring: { c in
            c.L.push("MutableTraits")
            return 1
        })
    }

    /// Builds a metatable with an indexer (methods first, then a Swift field
    /// reader), a __newindex, a __tostring and extra metamethods; returns its ref.
    func makeMeta(name: String, index: (String, LuaFunction), methods: [String: (String, LuaFunction)],
                  newindex: @escaping LuaFunction, tostring: @escaping LuaFunction,
                  extra: [(String, String, LuaFunction)] = [], gc: Bool = true) -> Int32 {
        L.newTable(nrec: Int32(clamping: 6 + extra.count))
        let mt = L.top
        L.newTable(nrec: Int32(clamping: methods.count))
        let m = L.top
        for (k, f) in methods {
            L.pushFunction(LuaFunctions.id(f.0, f.1))
            L.rawSet(m, k)
        }
        tl_pushindexer(L, LuaFunctions.id(index.0, index.1), m)
        L.rawSet(mt, "__index")
        L.pop()
        L.pushFunction(LuaFunctions.id(name + ".newindex", newindex)); L.rawSet(mt, "__newindex")
        L.pushFunction(LuaFunctions.id(name + ".tostring", tostring)); L.rawSet(mt, "__tostring")
        for (event, fname, body) in extra {
            L.pushFunction(LuaFunctions.id(fname, body))
            L.rawSet(mt, event)
        }
        if gc { tl_pushboxgc(L); L.rawSet(mt, "__gc") }
        L.push(name); L.rawSet(mt, "__name")
        // Protected: getmetatable(object) gives the type's name, not this table.
        L.push(name); L.rawSet(mt, "__metatable")
        return L.ref()
    }

    private func liveMutable(_ c: LuaCall) throws -> MutableTraitsBox {
        let m = try c.object(1, MutableTraitsBox.self, "MutableTraits")
        guard m.isValid else { throw LuaError.message("mutable traits can only be used inside the function they were passed to") }
        return m
    }

    /// Pushes (next, snapshot, nil) for `pairs`: a plain table of property = value.
    func pushEntryIterator(_ entries: [TraitCollection.Entry]) {
        L.registryGet(refs.next)
        L.newTable(nrec: Int32(clamping: entries.count))
        for e in entries {
            push(e.value)
            L.rawSet(-2, e.definition.property)
        }
        L.pushNil()
    }

    /// Pushes the Lua object for an enum (the same value every time).
    package func push(_ e: TraitEnum) { pushPinned(e, kind: .enumeration, meta: refs.enumMeta) }

    // MARK: traits.enum / traits.define

    /// A case in an enum's list and in its set of cases.
    private var caseCost: Int { 2 * MemoryLayout<String>.stride }

    private func defineEnum(_ c: LuaCall) throws -> Int32 {
        let name = try c.string(1)
        guard !name.isEmpty else { throw c.argError(1, "enum name must not be empty") }
        try c.table(2)
        let n = L.rawLength(2)
        guard n > 0 else { throw c.argError(2, "an enum needs one or more cases") }
        // The cases in a list and a set (texts past 15 bytes are asked for
        // as they are read): one Lua table of cases may make any number of enums.
        try chargeEngine(128 + 2 * caseCost * n)
        var cases: [String] = []
        var seen = Set<String>()
        for k in 1...n {
            lua_rawgeti(L, 2, lua_Integer(k))
            defer { L.pop() }
            guard lua_type(L, -1) == LUA_TSTRING, L.rawLength(-1) > 0 else {
                throw c.argError(2, "case \(k) must be a non-empty string, got \(L.typeName(-1))")
            }
            if L.rawLength(-1) > 15 { try chargeEngine(L.rawLength(-1)) }
            guard let s = try? text(at: -1, asked: true) else { throw c.argError(2, "case \(k) must be valid UTF-8 text") }
            if s == "cases" || s == "name" { throw c.argError(2, "'\(s)' cannot be a case name (it is an enum field)") }
            if !seen.insert(s).inserted { throw c.argError(2, "case '\(s)' appears twice") }
            cases.append(s)
        }
        let swift = try swiftDeclaration(at: 3, of: "enum '\(name)'")
        if let swift, !swift.caseNames.isEmpty, swift.caseNames.count != cases.count {
            throw c.argError(3, "swift.cases names \(swift.caseNames.count) Swift cases for \(cases.count) cases")
        }
        if let swift, !swift.rawValues.isEmpty, swift.rawValues.count != cases.count {
            throw c.argError(3, "swift.rawValues gives \(swift.rawValues.count) raw values for \(cases.count) cases")
        }
        let e = TraitEnum(name: name, cases: cases, swift: swift)
        definedEnums.append(e)
        push(e)
        return 1
    }

    /// `e.cases` as a new Lua array; empty when the system has no room for
    /// it (the trampoline raises).
    private func pushCases(_ e: TraitEnum) {
        guard L.newTable(narr: Int32(clamping: e.cases.count)),
              L.roomForLua(e.cases.reduce(32 * e.cases.count) { $0 + $1.utf8.count }) else { return }
        for (k, s) in e.cases.enumerated() { L.push(s); lua_rawseti(L, -2, lua_Integer(k + 1)) }
    }

    private func enumField(_ c: LuaCall) throws -> Int32 {
        let e = try c.object(1, TraitEnum.self, "TraitEnum")
        let key = try c.string(2)
        switch key {
        case "name": L.push(e.name)
        case "cases":
            pushCases(e)
        default:
            guard e.contains(key) else { throw LuaError.message("enum \(e.name) has no case '\(key)' (cases: \(e.caseList))") }
            lastEnumCaseRead = (e, key)
            L.push(key)
        }
        return 1
    }

    private func defineTrait(_ c: LuaCall) throws -> Int32 {
        try world.require(.traitSystem, "traits.define (a custom UITraitDefinition)")
        try c.table(1)
        // The definition and its entries in the registry (its texts are
        // asked for as they are read: definitions are never collected).
        try chargeEngine(1024)
        let def = try definitionSpec(at: 1, owner: plugins.loading, call: c)
        if let old = try replacementDuringReload(def) ?? redefinitionAtPrompt(def) {
            push(old)
            return 1
        }
        try world.registry.register(def)
        plugins.recordDefinition(def)
        push(def)
        return 1
    }

    /// Reads a `traits.define` table into a (not yet registered) definition.
    func definitionSpec(at i: Int32, owner: String?, call c: LuaCall) throws -> TraitDefinition {
        let known: Set<String> = ["name", "default", "type", "identifier", "affectsColorAppearance", "property", "swift"]
        try L.forEachPair(i) {
            guard let k = L.string(-2), known.contains(k) else {
                throw c.argError(i, "unknown field \(L.string(-2).map { "'\($0)'" } ?? L.typeName(-2)) in trait definition (fields: name, default, type, identifier, affectsColorAppearance, property, swift)")
            }
        }
        func field(_ k: String) -> Int32 { _ = L.rawGet(i, k); return L.top }
        let top = L.top
        defer { L.setTop(top) }
        guard let name = try L.keptString(field("name")), !name.isEmpty else {
            throw c.argError(i, "trait definition needs a 'name' string")
        }
        let defaultIndex = field("default")
        let typeIndex = field("type")
        let (type, isOptional) = try declaredValueType(type: typeIndex, default: defaultIndex,
                                                       of: "trait '\(name)'", noun: "trait")
        let identifierIndex = field("identifier")
        var identifier: String?
        if !L.isNil(identifierIndex) {
            guard let s = try L.keptString(identifierIndex) else { throw LuaError.message("trait '\(name)': identifier must be a string") }
            identifier = s
        }
        let propIndex = field("property")
        var property: String?
        if !L.isNil(propIndex) {
            guard let s = try L.keptString(propIndex) else { throw LuaError.message("trait '\(name)': property must be a string") }
            property = s
        } else if name.utf8.count > 15 {
            try chargeEngine(name.utf8.count)   // the property made from the name
        }
        let prop = property ?? TraitDefinition.defaultProperty(for: name)
        if prop.isEmpty { throw LuaError.message("trait '\(name)': property must not be empty") }
        if prop.hasPrefix("__") {
            throw LuaError.message("trait '\(name)': property '\(prop)' is reserved (names starting with '__' belong to Lua and the host); give another with property = ...")
        }
        if reservedTraitProperties.contains(prop) {
            throw LuaError.message("trait '\(name)': property '\(prop)' is reserved (it names a method); give another with property = ...")
        }
        let affectsIndex = field("affectsColorAppearance")
        if !L.isNil(affectsIndex) && lua_type(L, affectsIndex) != LUA_TBOOLEAN {
            throw LuaError.message("trait '\(name)': affectsColorAppearance must be a boolean")
        }
        let defaultValue = try traitValue(at: defaultIndex)
        let def = try TraitDefinition(name: name, valueType: type, defaultValue: defaultValue, isOptional: isOptional,
                                      identifier: identifier, property: property, affectsColorAppearance: L.bool(affectsIndex))
        def.owner = owner
        def.swift = try swiftDeclaration(at: field("swift"), of: "trait '\(name)'")
        return def
    }

    /// The value type and optionality a `type`/`default` pair declares, for
    /// `traits.define` and `swiftui.EnvironmentKey`: `type` is a type name or an
    /// enum (no default then means optional); otherwise the default's type, where
    /// a string that is a case of a script-defined enum makes an enum. `what`
    /// ("trait 'Theme'") and `noun` ("trait") word the errors.
    func declaredValueType(type typeIndex: Int32, default defaultIndex: Int32,
                           of what: String, noun: String) throws -> (TraitValueType, Bool) {
        if !L.isNil(typeIndex) {
            if let e = L.box(typeIndex, as: TraitEnum.self) { return (.enumeration(e), L.isNil(defaultIndex)) }
            guard let s = L.string(typeIndex) else {
                throw LuaError.message("\(what): type must be a type name or an enum, got \(L.typeName(typeIndex))")
            }
            let named: [String: TraitValueType] = ["boolean": .boolean, "integer": .integer, "number": .number,
                                                   "string": .string, "table": .table, "color": .color, "image": .image]
            guard let type = named[s] else {
                throw LuaError.message("\(what): unknown type '\(s)' (boolean, integer, number, string, table, color, image or an enum)")
            }
            return (type, L.isNil(defaultIndex))
        }
        switch lua_type(L, defaultIndex) {
        case LUA_TBOOLEAN: return (.boolean, false)
        case LUA_TNUMBER: return (tl_isinteger(L, defaultIndex) != 0 ? .integer : .number, false)
        case LUA_TSTRING:
            let s = L.string(defaultIndex) ?? ""
            // A case is a plain string, so `default = E.x` cannot say which enum
            // it came from. The enum whose case was read last, when it is this
            // one (`E.x` is read just before the call), else the enum defined
            // last with such a case: enums often share case names ("standard").
            if let read = lastEnumCaseRead, read.name == s, read.e.contains(s) { return (.enumeration(read.e), false) }
            if let e = definedEnums.last(where: { $0.contains(s) }) { return (.enumeration(e), false) }
            return (.string, false)
        case LUA_TTABLE: return (.table, false)
        case LUA_TUSERDATA where namedResource(at: defaultIndex) != nil:
            return (L.box(defaultIndex, as: ImageBox.self) != nil ? .image : .color, false)
        case LUA_TNIL, LUA_TNONE:
            throw LuaError.message("\(what) needs a default value (or a type, for an optional \(noun))")
        default:
            throw LuaError.message("\(what): default must be plain data, got \(L.typeName(defaultIndex))")
        }
    }

    private func definitionField(_ c: LuaCall) throws -> Int32 {
        let d = try c.object(1, TraitDefinition.self, "TraitDefinition")
        let key = try c.string(2)
        switch key {
        case "name": L.push(d.name)
        case "default": push(d.defaultValue)
        case "identifier": if let i = d.identifier { L.push(i) } else { L.pushNil() }
        case "affectsColorAppearance": L.push(d.affectsColorAppearance)
        case "property": L.push(d.property)
        case "isOptional": L.push(d.isOptional)
        case "isSystem": L.push(d.isSystem)
        case "type":
            if case .enumeration(let e) = d.valueType { push(e) } else { L.push(d.valueType.name) }
        case "cases":
            guard case .enumeration(let e) = d.valueType else { L.pushNil(); return 1 }
            pushCases(e)
        default:
            throw LuaError.message("TraitDefinition has no field '\(key)' (name, default, type, identifier, affectsColorAppearance, property, cases, isOptional, isSystem)")
        }
        return 1
    }

    // MARK: Collections

    /// Runs `fn` (at `fnIndex`) with a mutable-traits object over `base` and returns the result.
    func mutate(_ base: TraitCollection, with fnIndex: Int32) throws -> TraitCollection {
        let box = MutableTraitsBox(MutableTraits(base: base))
        defer { box.isValid = false }
        L.pushValue(fnIndex)
        L.pushBox(box, kind: .mutableTraits)
        L.registryTable(refs.mutableMeta)
        lua_setmetatable(L, -2)
        try call(1)
        try chargeCollection(box.traits)
        return box.traits.makeCollection()
    }

    /// Asks for the collection `traits.makeCollection()` is about to make:
    /// a collection of every trait set may be made again and again from
    /// one Lua table, or from one collection.
    func chargeCollection(_ traits: MutableTraits) throws {
        let n = traits.entryCountBound
        if n > 0 { try chargeSmall(64 + n * MemoryLayout<TraitCollection.Entry>.stride) }
    }

    private func makeCollection(_ c: LuaCall) throws -> Int32 {
        if lua_type(L, 1) == LUA_TTABLE {
            let first = lua_rawgeti(L, 1, 1) != LUA_TNIL && collection(at: -1) != nil
            L.pop()
            if first { return try collectionFromList(c) }
        }
        switch lua_type(L, 1) {
        case LUA_TFUNCTION:
            push(try mutate(.empty, with: 1))
        case LUA_TTABLE:
            var m = MutableTraits(base: .empty)
            try L.forEachPair(1) {
                let d = try definition(forKey: -2)
                try chargeSmall(2 * MemoryLayout<TraitCollection.Entry>.stride)   // (the list of writes)
                try m.set(d, try traitValue(at: L.top))
            }
            try chargeCollection(m)
            push(m.makeCollection())
        case LUA_TNONE, LUA_TNIL:
            push(TraitCollection.empty)
        default:
            throw c.typeError(1, "function or table")
        }
        return 1
    }

    /// `traits.collection { tcA, tcB }`: `UITraitCollection(traitsFrom:)`,
    /// for each trait the last collection that specifies it wins.
    private func collectionFromList(_ c: LuaCall) throws -> Int32 {
        func problem(_ got: String) -> String { "a list of trait collections holds only collections, at 1, 2, ... (got \(got))" }
        var count = 0
        try L.forEachPair(1) {
            guard L.integer(-2) != nil, collection(at: -1) != nil else {
                throw c.argError(1, problem(L.typeName(-1)))
            }
            count += 1
        }
        var list: [TraitCollection] = []
        for k in 1...count {
            lua_rawgeti(L, 1, lua_Integer(k))
            defer { L.pop() }
            guard let tc = collection(at: -1) else { throw c.argError(1, problem("a gap at \(k)")) }
            list.append(tc)
        }
        push(TraitCollection(traitsFrom: list))
        return 1
    }

    /// `tc[d]` pushed onto `L` for the C indexer's direct path (1), or 0 with
    /// nothing pushed for a table value, which the general path copies.
    /// Reads are recorded as any read is (automatic trait tracking).
    func pushTraitValue(_ tc: TraitCollection, _ d: TraitDefinition, onto L: LuaStatePointer,
                        cacheable: UnsafeMutablePointer<Int32>?) -> Int32 {
        // (A trait the world's version lacks: Swift's indexer raises the error.)
        guard SystemTraitAvailability.isAvailable(d, in: world.os), L.pushScalar(tc[d]) else { return 0 }
        cacheable?.pointee = world.readIsTracked(in: tc) ? 0 : 1
        return 1
    }

    private func collectionField(_ c: LuaCall, cache: Bool = true) throws -> Int32 {
        guard let tc = collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
        // `tc[color]`: the colour resolved for this collection, as
        // `color:resolvedColor(tc)` gives it; a named colour's answer is kept
        // in the object's cache like a trait's value, so the next
        // `tc[color]` is one table read (docs/guide.md, "Colours and images").
        if let box = L.box(2, as: ColorBox.self) {
            let keep = try pushResolved(box, for: tc, tracking: !cache || isTrackingObject(1))
            if keep && cache && !world.readIsTracked(in: tc) { tl_collection_keep(L, 1, 2, L.top) }
            return 1
        }
        let d = try definition(forKey: 2)
        let v = tc[d]
        push(v)
        // Immutable values are cached, so the next read of them never leaves
        // the VM (tl_collection_keep). Tables are copied on every read.
        if case .table = v { return 1 }
        if cache && !world.readIsTracked(in: tc) { tl_collection_keep(L, 1, 2, L.top) }
        return 1
    }

    private func changedTraits(_ c: LuaCall) throws -> Int32 {
        guard let a = collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
        guard let b = collection(at: 2) else { throw c.typeError(2, "TraitCollection") }
        try readsEveryTrait(of: a)
        try readsEveryTrait(of: b)
        let defs = a.changedTraits(from: b)
        L.newTable(narr: Int32(clamping: defs.count))
        for (k, d) in defs.enumerated() { push(d); lua_rawseti(L, -2, lua_Integer(k + 1)) }
        return 1
    }

    private func modifyingTraits(_ c: LuaCall) throws -> Int32 {
        guard let tc = collection(at: 1) else { throw c.typeError(1, "TraitCollection") }
        try c.function(2)
        try readsEveryTrait(of: tc)
        push(try mutate(tc, with: 2))
        return 1
    }

    /// A use of `tc` that depends on every trait (pairs, tostring, ==,
    /// changedTraits, modifyingTraits, encode): tracked, inside a callback
    /// that tracks `tc`, as a read of every trait (docs/guide.md, "Automatic
    /// tracking and observable models": such uses are tracked as reads of all).
    /// The callback's list of what it read may then hold every definition:
    /// asked for first.
    func readsEveryTrait(of tc: TraitCollection) throws {
        if world.trackingEnvironment != nil { try chargeSmall(8 * world.registry.definitions.count) }
        TraitCollection.recordReadOfEveryTrait(in: tc, registry: world.registry)
    }

    /// What writing `values` as text takes, `times` over (its pieces, and
    /// the text they are joined into), to ask for before it is written
    /// (``TraitValue/textSizeEstimate``, with a trait's name beside each).
    func textCost(of values: [TraitValue], times: Int) -> Int {
        times * values.reduce(64) { $0 + 64 + $1.textSizeEstimate }
    }

    /// `TraitCollection { horizontalSizeClass = "compact", myAppTheme = "bold" }`.
    func describe(_ tc: TraitCollection) -> String {
        if tc.entries.isEmpty { return "TraitCollection {}" }
        return "TraitCollection { " + tc.entries.map { "\($0.definition.property) = \(TraitEngine.describe($0.value))" }.joined(separator: ", ") + " }"
    }
}

/// " (did you mean 'x'?)" naming the closest of `names` within two edits, or "".
public func didYouMean(_ name: String, among names: [String]) -> String {
    let lower = name.lowercased()
    var best: (String, Int)?
    for n in names {
        let d = editDistance(lower, n.lowercased())
        if d <= 2, d < (best?.1 ?? Int.max) { best = (n, d) }
    }
    return best.map { " (did you mean '\($0.0)'?)" } ?? ""
}

/// Levenshtein distance, for "did you mean" hints.
package func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf8), b = Array(b.utf8)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = prev
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}

extension LuaStatePointer {
    /// Pushes a value that is no table (true), or pushes nothing (false).
    func pushScalar(_ v: TraitValue) -> Bool {
        switch v {
        case .none: pushNil()
        case .bool(let b): push(b)
        case .int(let n): push(n)
        case .number(let d): push(d)
        case .string(let s): push(s)
        case .table: return false
        }
        return true
    }
}

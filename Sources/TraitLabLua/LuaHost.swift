import CLua
import CLuaShim
import TraitEngine

/// Options for a new host (the command line's flags).
public struct LuaHostOptions {
    /// Cap on Lua's allocations in bytes (`--memory-limit`); nil for none.
    public var memoryLimit: Int?
    /// Untrusted-script mode (`--sandbox`).
    public var sandbox = false
    /// `traitlab test --sandbox`: TraitLab's own functions follow the
    /// sandbox's rules (no file read or written) while the globals stay
    /// whole for busted, which gives spec code sandboxed globals itself.
    public var sandboxedLibrary = false
    /// Whether TraitLab's functions refuse to touch files.
    public var refusesFiles: Bool { sandbox || sandboxedLibrary }
    /// `--hierarchy`; nil for the flow of the OS version.
    public var hierarchyMode: HierarchyMode?
    /// `--ios`: the iOS version the world models.
    public var os: OSVersion = .newest
    /// `--device`: what `ui.Screen.main` is (nil: the catalogue's default).
    public var device: Device?
    /// `--orientation`: the orientation `ui.Screen.main` starts in (nil: portrait).
    public var orientation: Orientation?
    /// `--scene-size`: the size window scenes on `ui.Screen.main` start at (nil: full).
    public var sceneSize: SceneSize?
    /// `--screen TRAIT=VALUE`: system traits set on `ui.Screen.main`.
    public var screenSettings: [TraitCollection.Entry] = []
    /// Folders searched for plugins before `TRAITLAB_PLUGIN_PATH` (`--plugin-path`).
    public var pluginPaths: [String] = []
    /// `--assets PATH`: the asset catalogue `ui.assets` holds (the app's main bundle's).
    public var assetCatalogPath: String?
    public init() {}
}

/// A Lua 5.4 state with TraitLab's globals (`traits`, `ui`, `swiftui`,
/// `plugins`) around one ``TraitWorld``.
///
/// The host owns its state unless it was attached to an existing one (the
/// `traitlab.so` module inside `lua5.4`), and closes it in ``close()``.
public final class LuaHost {
    /// The thread Swift code works on: the main state, or during a call from
    /// Lua the coroutine that made it (stack indices are per thread).
    /// Unchecked exclusivity: the host runs on one thread and never holds an
    /// access across a call; the run-time checks were 6% of a Lua-built update.
    @exclusivity(unchecked) public internal(set) var L: LuaStatePointer
    /// The state this host was created with (closed with it).
    public let mainState: LuaStatePointer
    /// The engine world. ``resetWorld()`` replaces it (a fresh one per spec file).
    @exclusivity(unchecked) public private(set) var world = TraitWorld()
    @exclusivity(unchecked) public private(set) var options: LuaHostOptions
    private let ownsState: Bool
    private(set) var isClosed = false
    @exclusivity(unchecked) var refs = Refs()
    /// The collection whose object `refs.recentCollection` holds (a handler's
    /// `previous` is the same for every view of an update).
    @exclusivity(unchecked) var recentCollection: UnsafeMutableRawPointer?
    /// Trait enums defined by scripts, newest last (for inferring enum types from defaults).
    var definedEnums: [TraitEnum] = []
    /// The enum case a script read last (`E.x`), which tells which enum a
    /// `default = E.x` means when several enums have that case.
    var lastEnumCaseRead: (e: TraitEnum, name: String)?
    var plugins = PluginRegistry()
    var traceRef: Int32 = LUA_NOREF
    var nextHandlerID = 1
    /// The busted driver's state while `traitlab test` runs (see SpecRunner).
    package var specDriver: AnyObject?
    /// The REPL: `traits.define` of a name defined earlier at the prompt
    /// replaces that trait (``redefinitionAtPrompt(_:)``).
    public var redefinesTraits = false
    /// The globals plugin files run with, as a registry reference
    /// (`traitlab test --sandbox`: the spec's sandboxed globals), or
    /// LUA_NOREF for the state's own.
    package var pluginEnvironment: Int32 = LUA_NOREF
    /// `ui.Observable`'s module and whether its objects need arming (ObservableLibrary).
    var observation = ObservationState()
    /// The colours kept per collection object (ColorCache.swift).
    var colorCache = ColorCacheRefs()
    /// What ``chargeSmall(_:)`` asked for ahead.
    @exclusivity(unchecked) private var memoryMeter = BudgetMeter(nil)

    /// Registry references to the tables and functions the binding reuses.
    struct Refs {
        var objects: Int32 = LUA_NOREF      // slot (TraitEnvironment.hostSlot, TraitCollection.hostKey) -> environment or collection object (weak values)
        var anchors: Int32 = LUA_NOREF      // userdata -> true, for environments the world holds
        var collectionCache: Int32 = LUA_NOREF  // collection pointer -> object, for collections another host keys (weak values)
        var definitions: Int32 = LUA_NOREF  // definition pointer -> userdata
        var classes: Int32 = LUA_NOREF      // class table -> { name, kind, meta }
        var properties: Int32 = LUA_NOREF   // environment property name -> id
        var collectionMeta: Int32 = LUA_NOREF
        var trackingCollectionMeta: Int32 = LUA_NOREF  // shared by tracking objects: reads always reach Swift
        var collectionCacheMeta: Int32 = LUA_NOREF     // shared by promoted objects' caches
        var trackingCache: Int32 = LUA_NOREF    // collection pointer -> tracking object (weak values)
        var recentCollection: Int32 = LUA_NOREF // the object of the collection pushed last (a strong slot)
        var errorValue: Int32 = LUA_NOREF       // the error value in flight through Swift (LuaError.value)
        // Interned keys for the update-time paths (no Swift string conversion).
        var keyHandlers: Int32 = LUA_NOREF      // "__handlers"
        var definitionsByProperty: Int32 = LUA_NOREF  // property name -> definition userdata
        var callbackKeys: [Int32] = []          // callback names by bit position (hostCallbacks)
        var eventKeys: [Int32] = []             // lifecycle callback names by LifecycleEvent.ordinal
        var keyTraitCollection: Int32 = LUA_NOREF  // "traitCollection"
        var definitionMeta: Int32 = LUA_NOREF
        var enumMeta: Int32 = LUA_NOREF
        var mutableMeta: Int32 = LUA_NOREF
        var overridesMeta: Int32 = LUA_NOREF
        var tokenMeta: Int32 = LUA_NOREF
        var colorMeta: Int32 = LUA_NOREF
        var envNewindex: Int32 = LUA_NOREF
        var setterKeys: Int32 = LUA_NOREF   // property and callback names: what __newindex sends to Swift
        var envToString: Int32 = LUA_NOREF
        var library: Int32 = LUA_NOREF      // { traits, ui, swiftui, plugins }
        var next: Int32 = LUA_NOREF         // the standard `next`, for __pairs
        var dynamicColorFunctions: Int32 = LUA_NOREF  // id -> function (weak values)
        var baseClasses: [EnvironmentKind: Int32] = [:]
        /// The `ui` table, while its environment classes are not made yet
        /// (``ensureEnvironmentClasses()``); LUA_NOREF once they are.
        var pendingUI: Int32 = LUA_NOREF
    }

    /// Creates a state of its own with the standard libraries and TraitLab's globals.
    public init(options: LuaHostOptions = LuaHostOptions()) throws {
        LuaFunctions.install()
        guard let L = tl_newstate(options.memoryLimit.map { max(0, $0) } ?? 0) else {
            throw LuaError.message("cannot create a Lua state: out of memory")
        }
        self.L = L
        self.mainState = L
        self.options = options
        self.ownsState = true
        tl_gethost(L).pointee.swift_host = Unmanaged.passUnretained(self).toOpaque()
        // The owner's Swift code drives this state from outside any trampoline:
        // allocations it makes must not fail with a longjmp (see tl_alloc);
        // Lua code run through tl_pcall still gets "not enough memory".
        tl_gethost(L).pointee.in_swift = 1
        if tl_openlibs(L) != LUA_OK {
            let msg = L.string(-1) ?? "unknown error"
            tl_close(L)
            isClosed = true
            throw LuaError.message("cannot open the standard libraries: \(msg)")
        }
        try setUp()
        tl_engine_baseline(L)
    }

    /// The host of a state owned by someone else (the `traitlab.so` module),
    /// created on first use. The state keeps it alive until it closes.
    public static func attached(to L: LuaStatePointer) throws -> LuaHost {
        if let existing = LuaHost.from(L) { return existing }
        let host = try LuaHost(attachingTo: L)
        L.pushBox(host, kind: .plugin)
        L.newTable()
        tl_pushboxgc(L)
        L.rawSet(-2, "__gc")
        lua_setmetatable(L, -2)
        _ = L.ref()
        return host
    }

    private init(attachingTo L: LuaStatePointer) throws {
        LuaFunctions.install()
        guard let h = tl_attach(L) else { throw LuaError.message("cannot attach to the Lua state: out of memory") }
        self.L = L
        self.mainState = L
        self.options = LuaHostOptions()
        self.ownsState = false
        h.pointee.swift_host = Unmanaged.passUnretained(self).toOpaque()
        try setUp()
    }

    private func setUp() throws {
        memoryMeter = BudgetMeter(memoryBudget)
        configure(world)
        createRegistryTables()
        LuaFunctions.beginSetUp()
        defer { LuaFunctions.endSetUp() }
        try installLibrary()
        // (Under the sandbox the library is whole before it is wrapped.)
        if options.sandbox { ensureEnvironmentClasses(); try applySandbox() }
    }

    /// What every world of this host starts with (the first and each reset).
    private func configure(_ w: TraitWorld) {
        w.owningDelegate = self   // (the host tears its world down in close())
        w.os = options.os
        if let mode = options.hierarchyMode { w.hierarchyMode = mode }
        if options.device != nil || options.orientation != nil || options.sceneSize != nil || !options.screenSettings.isEmpty {
            // (Checked when the command line was read: cannot fail here.)
            try? w.configureMainScreen(device: options.device ?? DeviceCatalogue.main, orientation: options.orientation ?? .portrait,
                                       sceneSize: options.sceneSize ?? .full, settings: options.screenSettings)
        }
        w.recordsRecentChanges = true   // dumps mark what the last update changed
        w.memoryBudget = memoryBudget
    }

    deinit { close() }

    /// Starts over with a fresh engine world, as `traitlab test` does before
    /// each spec file (and the `traitlab.busted` helper under busted): no
    /// trait definition, environment key, scene, plugin or trace carries over.
    /// Environment objects of the old world that Lua still references stop
    /// working (using one is an error), so no tree mixes two worlds.
    public func resetWorld() {
        world.tearDown()
        let fresh = TraitWorld()
        configure(fresh)
        world = fresh
        // The tables that map engine objects to their Lua objects start empty,
        // but for the system traits and their enums, which every world shares
        // (`traits.HorizontalSizeClass` stays the same object).
        var shared = Set<UnsafeMutableRawPointer>()
        for def in SystemTraits.all {
            shared.insert(Unmanaged.passUnretained(def).toOpaque())
            if case .enumeration(let e) = def.valueType { shared.insert(Unmanaged.passUnretained(e).toOpaque()) }
        }
        for e in BuiltinEnvironmentKeys.valueTypes { shared.insert(Unmanaged.passUnretained(e).toOpaque()) }
        // Environment objects of the old world that Lua still holds stop
        // working: no tree may mix two worlds.
        var released: [UnsafeMutableRawPointer] = []
        // (Collection objects, kept there too, stay valid: a collection is a value.)
        L.registryTable(refs.objects)
        L.pushNil()
        while lua_next(L, -2) != 0 {
            var kind: Int32 = 0
            if let p = tl_tobox(L, -1, &kind), kind == BoxKind.environment.rawValue {
                tl_setbox(L, -1, nil)
                released.append(p)
            }
            L.pop()
        }
        L.pop()
        // The slot of the last pushed collection object goes too: its collection
        // may be freed once the boxes are dropped, and its address reused.
        recentCollection = nil
        L.push(true)
        lua_rawseti(L, tl_registryindex(), lua_Integer(refs.recentCollection))
        if let h = tl_gethost(L) {
            h.pointee.recent_tracking = nil
            L.push(true)
            lua_rawseti(L, tl_registryindex(), lua_Integer(h.pointee.recent_tracking_ref))
        }
        for ref in [refs.objects, refs.anchors, refs.collectionCache,
                    refs.definitions, refs.dynamicColorFunctions, refs.trackingCache, refs.definitionsByProperty] {
            L.clearRegistryTable(ref) {
                ref == refs.definitions && lua_touserdata(L, -1).map { shared.contains($0) } == true
            }
        }
        for p in plugins.plugins.values { L.unref(p.manifestRef) }
        plugins = PluginRegistry()
        definedEnums = []
        lastEnumCaseRead = nil
        if traceRef != LUA_NOREF { L.unref(traceRef); traceRef = LUA_NOREF }
        LuaFunctions.deferredReleases += released
        // ui.Screen.main is the new world's.
        if let screen = refs.baseClasses[.screen] {
            L.registryTable(screen)
            push(world.mainScreen)
            L.rawSet(-2, "main")
            L.pop()
        }
    }

    /// Takes the options that shape each world (`--device`, `--ios`,
    /// `--screen`, `--hierarchy` and the rest) from `newOptions`, then starts
    /// a fresh world with them. What the state was created with (the memory
    /// cap, the sandbox) stays. A `traitlab test` worker forked from a loaded
    /// process takes its matrix combination this way.
    public func reconfigureWorlds(_ newOptions: LuaHostOptions) {
        var o = newOptions
        o.memoryLimit = options.memoryLimit
        o.sandbox = options.sandbox
        o.sandboxedLibrary = options.sandboxedLibrary
        options = o
        resetWorld()
    }

    /// Closes the state (finalizing every object) if this host owns it.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if ownsState {
            tl_close(mainState)
            LuaFunctions.drainReleases()
        }
        world.tearDown()
    }

    /// The host attached to or owning a state, if there is one yet.
    public static func existing(for L: LuaStatePointer) -> LuaHost? { from(L) }

    /// The host that owns a state, if any.
    static func from(_ L: LuaStatePointer) -> LuaHost? {
        guard let h = tl_gethost(L), let p = h.pointee.swift_host else { return nil }
        return Unmanaged<LuaHost>.fromOpaque(p).takeUnretainedValue()
    }

    /// Bytes Lua has allocated now.
    public var memoryInUse: Int { Int(tl_memory_in_use(L)) }

    /// Bytes the engine holds for the script beyond Lua's heap, as counted
    /// against `--memory-limit` (0 without a cap).
    public var engineMemoryInUse: Int { Int(tl_engine_bytes(L)) }

    /// Refuses up front work that would make the engine hold about `bytes`
    /// more than the memory cap allows (copied trait values, definitions,
    /// environments, dumps, SwiftUI trees), or than the system can still
    /// give (see ``LuaStatePointer/chargeEngine(_:)``).
    func chargeEngine(_ bytes: Int) throws { try L.chargeEngine(bytes) }

    /// The engine's side of the memory cap: what it asks before it allocates
    /// for the script (collections an update makes, parsed JSON). Small
    /// allocations are asked for a step ahead: a 64th of the cap, at most 64 KB.
    public var memoryBudget: MemoryBudget {
        let step = options.memoryLimit.map { min(64 << 10, max(1 << 10, $0 / 64)) } ?? 64 << 10
        // (Unretained, as LuaCall holds it: the world and the host's own
        // meter ask it only while the host runs them. A weak reference would
        // give the host a side table, and every retain of it a slow path.)
        return MemoryBudget(step: step) { [unowned(unsafe) self] bytes in try self.chargeEngine(bytes) }
    }

    /// Asks for small allocations the binding makes for the script (table
    /// values, the entries of collections), a step ahead (``memoryBudget``).
    func chargeSmall(_ bytes: Int) throws { try memoryMeter.charge(bytes) }

    private func createRegistryTables() {
        func table(mode: String?) -> Int32 {
            L.newTable()
            if let mode {
                L.newTable()
                L.push(mode)
                L.rawSet(-2, "__mode")
                lua_setmetatable(L, -2)
            }
            return L.ref()
        }
        refs.objects = table(mode: "v")
        refs.anchors = table(mode: nil)
        refs.collectionCache = table(mode: "v")
        refs.trackingCache = table(mode: "v")
        // `object.traitCollection` from C (tl_env_index): the environment's
        // collection, unless a tracked callback must see the read.
        let h = tl_gethost(L)!
        h.pointee.collection_objects_ref = refs.collectionCache
        h.pointee.env_objects_ref = refs.objects
        h.pointee.tracking_objects_ref = refs.trackingCache
        h.pointee.trait_collection_property = lua_Integer(EnvironmentProperty.allCases.firstIndex(of: .traitCollection)! + 1)
        h.pointee.env_collection = { hostPointer, environment, tracked, key in
            guard let hostPointer, let environment else { return nil }
            // A box of kind environment holds a retained TraitEnvironment; the
            // host outlives its state. Neither is retained here (a read per call).
            return Unmanaged<LuaHost>.fromOpaque(hostPointer)._withUnsafeGuaranteedRef { host in
                var isTracked = false, hostKey: UInt64 = 0
                // (The world, unretained: nothing replaces it during this call.)
                let c = Unmanaged.passUnretained(host.world)._withUnsafeGuaranteedRef {
                    $0.collectionForHostRead(of: Unmanaged.fromOpaque(environment), tracked: &isTracked, hostKey: &hostKey)
                }
                tracked?.pointee = isTracked ? 1 : 0
                key?.pointee = hostKey
                return c.toOpaque()
            }
        }
        h.pointee.set_collection_key = { collection, key in
            guard let collection else { return }
            Unmanaged<TraitCollection>.fromOpaque(collection)._withUnsafeGuaranteedRef { $0.hostKey = key }
        }
        h.pointee.env_caches_collection = { environment in
            guard let environment else { return }
            Unmanaged<TraitEnvironment>.fromOpaque(environment)._withUnsafeGuaranteedRef {
                $0.hostCallbacks |= TraitEnvironment.hostCachesCollection
            }
        }
        // A trait read from a collection object (tl_collection_index): the
        // value, pushed straight onto the reading thread's stack.
        h.pointee.collection_value = { hostPointer, L, collection, definition, cacheable in
            guard let hostPointer, let L, let collection, let definition else { return 0 }
            return Unmanaged<LuaHost>.fromOpaque(hostPointer)._withUnsafeGuaranteedRef { host in
                Unmanaged<TraitCollection>.fromOpaque(collection)._withUnsafeGuaranteedRef { tc in
                    Unmanaged<TraitDefinition>.fromOpaque(definition)._withUnsafeGuaranteedRef { d in
                        host.pushTraitValue(tc, d, onto: L, cacheable: cacheable)
                    }
                }
            }
        }
        h.pointee.record_read = { _, collection, definition in
            guard let collection, let definition else { return }
            Unmanaged<TraitCollection>.fromOpaque(collection)._withUnsafeGuaranteedRef { tc in
                Unmanaged<TraitDefinition>.fromOpaque(definition)._withUnsafeGuaranteedRef { d in
                    TraitCollection.recordRead(of: d, in: tc)
                }
            }
        }
        L.push(true)
        refs.recentCollection = L.ref()
        L.push(false)
        refs.errorValue = L.ref()
        L.push(true)
        h.pointee.recent_tracking_ref = L.ref()
        L.push("__handlers")
        refs.keyHandlers = L.ref()
        L.push("traitCollection")
        h.pointee.trait_collection_key = lua_tolstring(L, -1, nil)   // (the registry keeps the string)
        refs.keyTraitCollection = L.ref()
        L.push("__index")
        h.pointee.index_key_ref = L.ref()
        L.push("__metatable")
        h.pointee.metatable_key_ref = L.ref()
        refs.definitionsByProperty = table(mode: nil)
        h.pointee.definitions_by_property_ref = refs.definitionsByProperty
        refs.callbackKeys = (0..<16).map { bit in
            L.push(callbackNames[bit])
            return L.ref()
        }
        // (Some events share a bit: a lifecycle callback is looked up by its own name.)
        refs.eventKeys = LifecycleEvent.allCases.sorted { $0.ordinal < $1.ordinal }.map { event in
            L.push(event.rawValue)
            return L.ref()
        }
        refs.definitions = table(mode: nil)
        refs.dynamicColorFunctions = table(mode: "v")
        refs.classes = table(mode: nil)
    }

    // MARK: - Running code

    /// Loads and runs a chunk in protected mode. On failure returns the error
    /// message with its traceback.
    @discardableResult
    public func run(_ code: String, name: String, results: Int32 = 0) -> String? {
        tl_recover(L)
        var code = code
        let status = code.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, name, "t") }
        }
        if status != LUA_OK { return popError() }
        if tl_pcall(L, 0, results) != LUA_OK { return popError() }
        return nil
    }

    /// Pops the error value on top of the stack as a message.
    public func popError() -> String {
        let msg = L.string(-1) ?? "(error object is a \(L.typeName(-1)) value)"
        L.pop()
        return msg
    }

    /// Calls the function below `nargs` arguments in protected mode, turning a
    /// Lua error into a Swift error: a message with its traceback, or the
    /// value raised, kept to be raised again as it is (``popErrorValue()``).
    func call(_ nargs: Int32, results: Int32 = 0) throws {
        if tl_pcall_callback(L, nargs, results) != LUA_OK {
            throw popErrorValue()
        }
    }

    /// The value raised by the last Lua error (kept while `errorSerial` is its own).
    private var errorSerial = 0

    /// Pops the error value on top of the stack as a Swift error. A message
    /// is carried as text; any other value is kept in the host's slot for the
    /// error in flight, so that when the error reaches Lua again it is that
    /// very value (`pcall(ui.update)` returns the table a handler raised, and
    /// busted tells a failed assertion from an error). The slot holds one
    /// value: a later error takes it, and the earlier one is then raised as
    /// its description.
    func popErrorValue() -> LuaError {
        if lua_type(L, -1) == LUA_TSTRING { return .raised(popError()) }
        let description = "(error object is a \(L.typeName(-1)) value)"
        // (Setting a key the registry has allocates nothing, so cannot raise.)
        lua_rawseti(L, tl_registryindex(), lua_Integer(refs.errorValue))
        errorSerial &+= 1
        return .value(serial: errorSerial, description: description)
    }

    /// Pushes the value of a ``LuaError/value(serial:description:)`` error:
    /// the value itself while the slot still holds it (then emptied), else its description.
    func pushErrorValue(serial: Int, description: String) {
        if serial == errorSerial {
            L.registryGet(refs.errorValue)
            L.push(false)
            lua_rawseti(L, tl_registryindex(), lua_Integer(refs.errorValue))
            errorSerial &+= 1
        } else {
            L.push(description)
        }
    }

    // MARK: - Environments

    /// Pushes the Lua object for `env`, creating it on first use. An
    /// environment is always the same Lua value while it lives.
    package func push(_ env: TraitEnvironment, classTable: Int32? = nil) {
        // Exposing an environment exposes its owners too (recursively, up the tree).
        _ = lua_checkstack(L, 16)
        let key = Unmanaged.passUnretained(env).toOpaque()
        L.registryTable(refs.objects)
        if tl_env_object(L, -1, key, env.hostSlot) != 0 {
            tl_remove(L, -2)
            return
        }
        L.pop()
        ensureEnvironmentClasses()
        let classIndex: Int32
        if let classTable {
            classIndex = L.absIndex(classTable)
        } else {
            L.registryTable(refs.baseClasses[EnvironmentKind(env)] ?? LUA_REFNIL)
            classIndex = L.top
        }
        L.pushBox(env, kind: .environment, userValues: 1)
        let u = L.top
        // The class's instance metatable, shared by all its objects; the field
        // table (the user value) is made when something is first stored.
        // Callback bits (inherited ones included) live in the class's description,
        // kept current by the classes' __newindex: an update never looks a callback up by name.
        env.hostCallbacks = classCallbacks(at: classIndex)
        L.registryTable(refs.classes)
        L.pushValue(classIndex)
        if lua_rawget(L, -2) == LUA_TTABLE, L.rawGet(-1, "meta") == LUA_TTABLE {
            lua_setmetatable(L, u)
        }
        L.setTop(u)
        L.registryTable(refs.objects)
        env.hostSlot = tl_env_adopt(L, -1, u)
        L.pop()
        env.isExposed = true
        env.forEachTreeOwner { owner in hold(u, by: owner, true) }
        if classTable == nil { tl_remove(L, classIndex) }
    }

    /// Keeps (or stops keeping) the environment object at `u` alive from its
    /// owner's field table, under the environment's address as a light
    /// userdata (a key no script can use: `F[env] = u`, one node per owned
    /// object and no table of its own), or from the registry when the owner
    /// is the world. Exposes the owner if it has no Lua object yet.
    func hold(_ u: Int32, by owner: TraitEnvironment?, _ on: Bool) {
        let u = L.absIndex(u)
        let base = L.top
        defer { L.setTop(base) }
        if let owner {
            guard let key = tl_tobox(L, u, nil) else { return }
            push(owner)
            guard tl_pushfields(L, -1, on ? 1 : 0) != 0 else { return }
            if on { L.pushValue(u) } else { L.pushNil() }
            tl_rawsetp(L, -2, key)
        } else {
            L.registryTable(refs.anchors)
            L.pushValue(u)
            if on { L.push(true) } else { L.pushNil() }
            lua_rawset(L, -3)
        }
    }

    /// Pushes the field table of the environment object at `i`, making it
    /// unless `create` is false (then nil when it has none). The host keeps its
    /// own entries there under "__" names, which no script can read or write.
    /// Returns whether a table was pushed.
    @discardableResult
    func pushFields(_ i: Int32, create: Bool = true) -> Bool {
        tl_pushfields(L, i, create ? 1 : 0) != 0
    }

    /// Pushes `fields[key]` of the environment at `i` (nil without a field table); returns its type.
    @discardableResult
    func pushHostField(_ i: Int32, _ key: String) -> Int32 {
        guard pushFields(i, create: false) else { return LUA_TNIL }
        let t = L.rawGet(-1, key)
        tl_remove(L, -2)
        return t
    }

    /// `fields[key] = top` for the environment at `i`; pops the value. Storing
    /// nil makes no field table.
    func setHostField(_ i: Int32, _ key: String) {
        let i = L.absIndex(i)
        guard pushFields(i, create: !L.isNil(-1)) else { L.pop(2); return }
        L.pushValue(-2)
        L.rawSet(-2, key)
        L.pop(2)
    }

    // MARK: - Collections

    /// Pushes the Lua object for a collection: one box retaining it, with the
    /// shared, protected collection metatable (its C indexer serves values
    /// read before from the box's user value, methods, then Swift; see
    /// CLuaShim.h). Objects are cached per collection (weak values). A tracking
    /// object (automatic trait tracking) is the same box with the tracking
    /// metatable, whose reads always reach Swift, where they are recorded; it
    /// is cached per collection too, so a layoutSubviews reading a trait
    /// allocates nothing.
    package func push(_ tc: TraitCollection, tracking: Bool = false) {
        let key = Unmanaged.passUnretained(tc).toOpaque()
        if !tracking {
            // The slot keeps the object (and so the collection) alive: the key cannot be reused meanwhile.
            if key == recentCollection { L.registryGet(refs.recentCollection); return }
            pushObject(tc, key: key, tracking: false)
            L.pushValue(-1)
            lua_rawseti(L, tl_registryindex(), lua_Integer(refs.recentCollection))
            recentCollection = key
            return
        }
        pushObject(tc, key: key, tracking: true)
    }

    /// The registry slot of the last pushed collection object, made to hold
    /// `tc`'s (a C path then pushes it from there).
    func recentSlot(holding tc: TraitCollection) -> Int32 {
        if Unmanaged.passUnretained(tc).toOpaque() != recentCollection { push(tc); L.pop() }
        return refs.recentCollection
    }

    private func pushObject(_ tc: TraitCollection, key: UnsafeMutableRawPointer, tracking: Bool) {
        // A collection object is kept by slot in the table of objects when
        // this host keys the collection or none does yet (tl_env_index makes
        // them so too), else by address; a tracking object always by address.
        let h = tl_gethost(L)!
        let bySlot = !tracking && tl_collection_keyed_here(h, tc.hostKey) != 0
        L.registryTable(tracking ? refs.trackingCache : bySlot ? refs.objects : refs.collectionCache)
        // A box whose __gc a script called (debug.getmetatable) is dead: replace it.
        if tl_collection_object(L, -1, key, bySlot ? 1 : 0, tc.hostKey) != 0, tl_tobox(L, -1, nil) != nil {
            tl_remove(L, -2)
            return
        }
        L.pop()
        let objects = L.top
        L.pushBox(tc, kind: .collection, userValues: tracking ? 2 : 1)
        L.registryTable(tracking ? refs.trackingCollectionMeta : refs.collectionMeta)
        lua_setmetatable(L, -2)
        if bySlot {
            tc.hostKey = tl_collection_host_key(h, tl_env_adopt(L, objects, -1))
        } else {
            L.pushValue(-1)
            tl_rawsetp(L, objects, key)
        }
        tl_remove(L, objects)
    }

    /// The collection a Lua value stands for, if any.
    func collection(at i: Int32) -> TraitCollection? {
        var kind: Int32 = 0
        guard let p = tl_tobox(L, i, &kind), kind == BoxKind.collection.rawValue else { return nil }
        return Unmanaged<TraitCollection>.fromOpaque(p).takeUnretainedValue()
    }

    static func kindName(of obj: AnyObject) -> String {
        switch obj {
        case is TraitCollection: return "TraitCollection"
        case is TraitDefinition: return "TraitDefinition"
        case is TraitEnum: return "TraitEnum"
        case is MutableTraitsBox: return "MutableTraits"
        case is OverridesBox: return "TraitOverrides"
        case is ColorBox: return "Color"
        case is TraitChangeRegistration: return "TraitChangeRegistration"
        case let v as SwiftUIView: return v.className
        case is EnvironmentKeyDefinition: return "EnvironmentKey"
        case is HostingConfiguration: return "HostingConfiguration"
        case is EnvironmentValues: return "EnvironmentValues"
        default: return "userdata"
        }
    }
}

/// The kinds of environment, each with its own base class in Lua.
enum EnvironmentKind: String {
    case screen, windowScene, window, view, viewController, hostingController, presentationController

    init(_ env: TraitEnvironment) {
        switch env {
        case is Screen: self = .screen
        case is WindowScene: self = .windowScene
        case is Window: self = .window
        case is View: self = .view
        case is HostingController: self = .hostingController
        case is ViewController: self = .viewController
        default: self = .presentationController
        }
    }
}

// MARK: - The world's delegate

extension LuaHost: TraitWorldDelegate {
    /// Pushes the callback for `bit` of the object at `u` (its own field or
    /// its class's), with an interned key; true when it is a function.
    private func lookUpCallback(_ u: Int32, _ bit: UInt16, key: Int32? = nil) throws -> Bool {
        L.registryGet(key ?? refs.callbackKeys[bit.trailingZeroBitCount])
        let t = tl_rawlookup_at(L, u, -1)
        tl_remove(L, -2)
        if t != LUA_TFUNCTION && t != LUA_TNIL, let env = L.box(u, as: TraitEnvironment.self) {
            throw notAFunction(env, bit, L.typeName(-1), key: key)
        }
        return t == LUA_TFUNCTION
    }

    public func environment(_ env: TraitEnvironment, owner: TraitEnvironment?, holds: Bool) {
        push(env)
        hold(-1, by: owner, holds)
        L.pop()
    }

    /// Called only while the object caches a collection (``TraitEnvironment/hostCachesCollection``).
    public func environmentDidUpdateTraits(_ env: TraitEnvironment) {
        dropCachedCollection(env)
    }

    /// Drops the `traitCollection` the object's field table caches.
    func dropCachedCollection(_ env: TraitEnvironment) {
        env.hostCallbacks &= ~TraitEnvironment.hostCachesCollection
        push(env)
        L.pushNil()
        setHostField(-2, "traitCollection")
        L.pop()
    }

    /// Calls the callback for `bit` from C when the object exists (the usual
    /// case); false when Swift must make the object and look it up itself.
    private func callCallback(_ env: TraitEnvironment, _ bit: UInt16, previous: TraitCollection?, key: Int32? = nil) throws -> Bool {
        var previousRef = LUA_NOREF
        if let previous {
            previousRef = recentSlot(holding: previous)
        }
        switch tl_env_call(L, refs.objects, Unmanaged.passUnretained(env).toOpaque(), env.hostSlot,
                           key ?? refs.callbackKeys[bit.trailingZeroBitCount], 0, previousRef) {
        case LUA_OK, TL_ENV_CALL_NONE: return true
        case TL_ENV_CALL_SLOW: return false
        case TL_ENV_CALL_NOT_FUNCTION:
            let type = popError()
            throw notAFunction(env, bit, type, key: key)
        default: throw popErrorValue()
        }
    }

    /// A callback that is there but is no function (a class field assigned
    /// raw, past the class's checks) is an error, not a callback silently skipped.
    private func notAFunction(_ env: TraitEnvironment, _ bit: UInt16, _ type: String, key: Int32? = nil) -> LuaError {
        let name = key.flatMap { k in refs.eventKeys.firstIndex(of: k).map { i in LifecycleEvent.allCases.first { $0.ordinal == i }!.rawValue } }
        return .message("callback '\(name ?? callbackNames[bit.trailingZeroBitCount])' of \(env) is a \(type), not a function")
    }

    public func environment(_ env: TraitEnvironment, traitCollectionDidChange previous: TraitCollection) throws {
        do { try callTraitCollectionDidChange(env, previous) } catch let e as LuaError {
            throw e.inCallback("traitCollectionDidChange", of: env)
        }
    }

    private func callTraitCollectionDidChange(_ env: TraitEnvironment, _ previous: TraitCollection) throws {
        if try callCallback(env, TraitEnvironment.hostTraitCollectionDidChange, previous: previous) { return }
        push(env)
        let u = L.top
        defer { L.setTop(u - 1) }
        guard try lookUpCallback(u, TraitEnvironment.hostTraitCollectionDidChange) else { return }
        L.pushValue(u)
        push(previous)
        try call(2)
    }

    public func environment(_ env: TraitEnvironment, lifecycle event: LifecycleEvent) throws {
        do { try callLifecycle(env, event) } catch let e as LuaError {
            throw e.inCallback(event.rawValue, of: env)
        }
    }

    private func callLifecycle(_ env: TraitEnvironment, _ event: LifecycleEvent) throws {
        if observation.needsArming { try armObservablesIfNeeded() }
        // Reads during tracked work must reach Swift, not the cached object.
        if event.isTracked && env.hostCallbacks & TraitEnvironment.hostCachesCollection != 0 { dropCachedCollection(env) }
        let key = refs.eventKeys[event.ordinal]
        if try callCallback(env, event.hostBit, previous: nil, key: key) { return }
        push(env)
        let u = L.top
        defer { L.setTop(u - 1) }
        guard try lookUpCallback(u, event.hostBit, key: key) else { return }
        L.pushValue(u)
        try call(1)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitEngine

/// Plugins loaded into one host, and the state of a load or reload in progress.
struct PluginRegistry {
    struct Plugin {
        var name: String
        var version: String
        var path: String
        var manifestRef: Int32
        var definitions: [TraitDefinition]
    }

    var plugins: [String: Plugin] = [:]
    var order: [String] = []
    /// Plugins whose setup is running, innermost last (for owners and cycles).
    var stack: [String] = []
    /// During a reload: definitions that will replace old ones on success,
    /// and new ones registered that must go again on failure.
    var replacements: [(old: TraitDefinition, new: TraitDefinition)] = []
    var added: [TraitDefinition] = []
    var reloading: String?
    /// Folders added by scripts with `plugins.addPath`, searched first.
    var extraPaths: [String] = []

    var loading: String? { stack.last }

    mutating func recordDefinition(_ def: TraitDefinition) {
        guard loading != nil else { return }
        added.append(def)
    }
}

extension LuaHost {
    func installPlugins() {
        L.newTable()
        let t = L.top
        func fn(_ name: String, _ body: @escaping LuaFunction) { setFunction(t, "plugins", name, body) }
        fn("load") { c in
            let name = try c.string(1)
            // The sandbox reads no file: only the plugins the command line loaded.
            if c.host.options.refusesFiles, c.host.plugins.plugins[name] == nil {
                throw LuaError.message("plugins.load: the sandbox loads no plugin files; '\(name)' was not loaded by --plugin")
            }
            try c.host.loadPlugin(name)
            return 1
        }
        fn("list") { c in
            let reg = c.host.plugins
            c.L.newTable(narr: Int32(clamping: reg.order.count))
            for (k, name) in reg.order.enumerated() {
                guard let p = reg.plugins[name] else { continue }
                c.L.newTable(nrec: 3)
                c.L.push(p.name); c.L.rawSet(-2, "name")
                c.L.push(p.version); c.L.rawSet(-2, "version")
                c.L.push(p.path); c.L.rawSet(-2, "path")
                lua_rawseti(c.L, -2, lua_Integer(k + 1))
            }
            return 1
        }
        fn("reload") { c in
            let name = try c.string(1)
            if c.host.options.refusesFiles { throw LuaError.message("plugins.reload reads a file: not available in the sandbox") }
            return try c.host.reloadPlugin(name)
        }
        fn("addPath") { c in
            let dir = try c.string(1)
            if c.host.options.refusesFiles { throw LuaError.message("plugins.addPath: the sandbox reads no files") }
            guard isDirectory(dir) else { throw c.argError(1, "'\(dir)' is not a folder") }
            if !c.host.plugins.extraPaths.contains(dir) { c.host.plugins.extraPaths.insert(dir, at: 0) }
            return 0
        }
        fn("path") { c in
            let dirs = c.host.options.refusesFiles ? [] : c.host.pluginSearchPath()
            c.L.newTable(narr: Int32(clamping: dirs.count))
            for (k, d) in dirs.enumerated() { c.L.push(d); lua_rawseti(c.L, -2, lua_Integer(k + 1)) }
            return 1
        }
    }

    /// Where plugins are looked for, in order.
    public func pluginSearchPath() -> [String] {
        var dirs = plugins.extraPaths + options.pluginPaths
        if let env = getenv("TRAITLAB_PLUGIN_PATH") {
            dirs += String(cString: env).split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        dirs.append("./plugins")
        if let xdg = getenv("XDG_CONFIG_HOME"), xdg.pointee != 0 {
            dirs.append(String(cString: xdg) + "/traitlab/plugins")
        } else if let home = getenv("HOME") {
            dirs.append(String(cString: home) + "/.config/traitlab/plugins")
        }
        return dirs
    }

    /// The file for a plugin name (NAME.lua or NAME/init.lua in `near`, then on
    /// the path), or a path given directly.
    func findPlugin(_ nameOrPath: String, near: String? = nil) -> String? {
        func exists(_ p: String) -> Bool { access(p, R_OK) == 0 && !isDirectory(p) }
        if nameOrPath.hasSuffix(".lua") || nameOrPath.contains("/") {
            if exists(nameOrPath) { return nameOrPath }
            if exists(nameOrPath + "/init.lua") { return nameOrPath + "/init.lua" }
            return nil
        }
        return findPlugin(nameOrPath, in: (near.map { [$0] } ?? []) + pluginSearchPath())
    }

    /// NAME.lua or NAME/init.lua in the first of `dirs` that has one.
    func findPlugin(_ name: String, in dirs: [String]) -> String? {
        func exists(_ p: String) -> Bool { access(p, R_OK) == 0 && !isDirectory(p) }
        for dir in dirs {
            for candidate in ["\(dir)/\(name).lua", "\(dir)/\(name)/init.lua"] where exists(candidate) {
                return candidate
            }
        }
        return nil
    }

    private func pluginName(forPath path: String) -> String {
        var parts = path.split(separator: "/").map(String.init)
        if parts.last == "init.lua", parts.count > 1 { parts.removeLast(); return parts.last ?? path }
        let file = parts.last ?? path
        return file.hasSuffix(".lua") ? String(file.dropLast(4)) : file
    }

    /// Loads a plugin's requirement: a plugin name, never a path (a manifest
    /// could otherwise name any file). Found beside the requiring plugin, then
    /// on the plugin path; under the sandbox, which reads no file the command
    /// line did not name, only among loaded plugins and in `--plugin-path`
    /// folders.
    private func loadRequirement(_ req: String, of plugin: String, near: String) throws {
        guard isPluginName(req) else {
            let shown = req.count > 80 ? String(req.prefix(80)) + "..." : req
            throw LuaError.message("plugin '\(plugin)': requirement '\(shown)' is not a plugin name (requirements are names on the plugin path, never paths)")
        }
        if options.refusesFiles, plugins.plugins[req] == nil {
            guard let path = findPlugin(req, in: options.pluginPaths) else {
                throw LuaError.message("plugin '\(req)' not found (required by plugin '\(plugin)'); the sandbox looks for requirements only in --plugin-path folders: \(options.pluginPaths.isEmpty ? "none given" : options.pluginPaths.joined(separator: ", "))")
            }
            try loadPlugin(path)
            return
        }
        try loadPlugin(req, near: near)
    }

    /// A plugin name: letters, digits, `_`, `-` and inner dots, no path.
    func isPluginName(_ s: String) -> Bool {
        guard let first = s.utf8.first, first != UInt8(ascii: "."), s.utf8.last != UInt8(ascii: "."),
              s.utf8.count <= 200, !s.hasSuffix(".lua") else { return false }
        return s.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        } && !s.contains("..")
    }

    /// Loads a plugin once (requirements first) and pushes its manifest.
    public func loadPlugin(_ nameOrPath: String, near: String? = nil) throws {
        let guessed = nameOrPath.hasSuffix(".lua") || nameOrPath.contains("/") ? nil : nameOrPath
        if let n = guessed, let p = plugins.plugins[n] {
            L.registryTable(p.manifestRef)
            return
        }
        if let n = guessed, let at = plugins.stack.firstIndex(of: n) {
            let cycle = (plugins.stack[at...] + [n]).joined(separator: " -> ")
            throw LuaError.message("plugin requirement cycle: \(cycle)")
        }
        guard let path = findPlugin(nameOrPath, near: near) else {
            let requiredBy = plugins.loading.map { " (required by plugin '\($0)')" } ?? ""
            throw LuaError.message("plugin '\(nameOrPath)' not found\(requiredBy); searched: \(pluginSearchPath().joined(separator: ", "))")
        }
        if let existing = plugins.plugins.values.first(where: { $0.path == path }) {
            L.registryTable(existing.manifestRef)
            return
        }
        let started = plugins.stack.isEmpty
        if started { plugins.added = [] }
        let enumCount = definedEnums.count
        do {
            try runPlugin(path: path, fallbackName: guessed ?? pluginName(forPath: path), reloading: false)
        } catch {
            if started {
                for d in plugins.added { world.registry.remove(d) }
                plugins.added = []
                forgetEnums(after: enumCount)
            }
            throw error
        }
        if started { plugins.added = [] }
    }

    /// Runs a plugin file: loads its manifest, its requirements, then `setup(api)`.
    /// Leaves the manifest on the stack.
    private func runPlugin(path: String, fallbackName: String, reloading: Bool) throws {
        let base = L.top
        if luaL_loadfilex(L, path, "t") != LUA_OK {
            throw LuaError.message("cannot load plugin \(path): \(popError())")
        }
        if pluginEnvironment != LUA_NOREF {
            L.registryTable(pluginEnvironment)
            _ = lua_setupvalue(L, -2, 1)   // a main chunk's one upvalue is _ENV
        }
        try call(0, results: 1)
        guard lua_type(L, -1) == LUA_TTABLE else {
            let got = L.typeName(-1)
            L.setTop(base)
            throw LuaError.message("plugin \(path) must return a manifest table, got \(got)")
        }
        let m = L.top
        let name = (L.rawGet(m, "name") == LUA_TSTRING ? L.string(-1) : nil) ?? fallbackName
        let version = L.rawGet(m, "version") == LUA_TNIL ? "0.0.0" : (L.string(-1) ?? "")
        L.setTop(m)
        if !reloading, let at = plugins.stack.firstIndex(of: name) {
            L.setTop(base)
            throw LuaError.message("plugin requirement cycle: \((plugins.stack[at...] + [name]).joined(separator: " -> "))")
        }
        if !reloading, plugins.plugins[name] != nil {
            L.setTop(base)
            throw LuaError.message("a plugin named '\(name)' is already loaded (from \(plugins.plugins[name]?.path ?? "?"))")
        }
        plugins.stack.append(name)
        defer { plugins.stack.removeLast() }
        // Requirements first.
        if L.rawGet(m, "requires") != LUA_TNIL {
            guard lua_type(L, -1) == LUA_TTABLE else { throw LuaError.message("plugin '\(name)': requires must be an array of plugin names") }
            let n = L.rawLength(-1)
            for k in 0..<n {
                lua_rawgeti(L, m + 1, lua_Integer(k + 1))
                guard let req = L.string(-1) else { throw LuaError.message("plugin '\(name)': requirement \(k + 1) must be a string") }
                L.pop()
                try loadRequirement(req, of: name, near: directory(of: path))
                L.pop()
            }
        }
        L.setTop(m)
        let before = plugins.added.count
        if L.rawGet(m, "setup") != LUA_TNIL {
            guard lua_type(L, -1) == LUA_TFUNCTION else { throw LuaError.message("plugin '\(name)': setup must be a function") }
            pushLibrary()
            try call(1)
        }
        L.setTop(m)
        let defs = Array(plugins.added[before...]) + (reloading ? plugins.replacements.map(\.old) : [])
        if !reloading {
            L.pushValue(m)
            plugins.plugins[name] = .init(name: name, version: version, path: path, manifestRef: L.ref(), definitions: defs)
            plugins.order.append(name)
        } else if var p = plugins.plugins[name] {
            L.unref(p.manifestRef)
            L.pushValue(m)
            p.manifestRef = L.ref()
            p.version = version
            p.definitions = defs
            plugins.plugins[name] = p
        }
    }

    /// `plugins.reload(name)`: runs the plugin again; its new definitions replace
    /// the old ones in place. On failure nothing changes and the error is raised.
    /// Returns the manifest and an array of messages about dropped overrides.
    func reloadPlugin(_ name: String) throws -> Int32 {
        guard let p = plugins.plugins[name] else {
            throw LuaError.message("plugin '\(name)' is not loaded (loaded: \(plugins.order.isEmpty ? "none" : plugins.order.joined(separator: ", ")))")
        }
        guard plugins.reloading == nil else { throw LuaError.message("plugin '\(name)' cannot be reloaded while a reload is running") }
        plugins.reloading = name
        plugins.replacements = []
        plugins.added = []
        defer {
            plugins.reloading = nil
            plugins.replacements = []
            plugins.added = []
        }
        let previous = p.definitions
        let enumCount = definedEnums.count
        do {
            try runPlugin(path: p.path, fallbackName: name, reloading: true)
        } catch {
            for d in plugins.added { world.registry.remove(d) }
            forgetEnums(after: enumCount)
            throw error
        }
        // Commit: replace in place, drop what the plugin no longer defines.
        for (old, new) in plugins.replacements { try world.registry.replace(old, with: new) }
        let kept = Set(plugins.replacements.map { ObjectIdentifier($0.old) })
        for d in previous where !kept.contains(ObjectIdentifier(d)) { world.registry.remove(d) }
        var dropped: [String] = []
        world.forEachEnvironment { e in
            for n in e.revalidateOverrides(keeping: { d in world.registry.definitions.contains { $0 === d } }) {
                dropped.append("\(e): override of \(n) dropped")
            }
        }
        world.invalidateAllTraits()
        clearCollectionCaches()
        clearPropertyNames()
        L.newTable(narr: Int32(clamping: dropped.count))
        for (k, s) in dropped.enumerated() { L.push(s); lua_rawseti(L, -2, lua_Integer(k + 1)) }
        return 2
    }

    /// A failed load or reload changes nothing: the enums its setup defined
    /// no longer decide what later defaults mean (see `valueType`).
    private func forgetEnums(after count: Int) {
        if definedEnums.count > count { definedEnums.removeSubrange(count...) }
        if let read = lastEnumCaseRead, !definedEnums.contains(where: { $0 === read.e }) { lastEnumCaseRead = nil }
    }

    /// During a reload, `traits.define` for a trait the plugin already defined
    /// returns the old definition and queues the replacement. Returns nil when
    /// this is not such a case.
    func replacementDuringReload(_ def: TraitDefinition) throws -> TraitDefinition? {
        guard let name = plugins.reloading, plugins.loading == name, let p = plugins.plugins[name] else { return nil }
        let old = p.definitions.first { o in
            if let id = def.identifier { return o.identifier == id }
            return o.property == def.property || o.name == def.name
        }
        guard let old else { return nil }
        try world.registry.checkReplacement(def, replacing: old)
        plugins.replacements.append((old, def))
        return old
    }

    /// In the REPL (``LuaHost/redefinesTraits``), `traits.define` with the
    /// name of a trait defined earlier at the prompt replaces it the way
    /// `plugins.reload` replaces a plugin's: the same object, overrides that
    /// still fit kept, environments updated at the next update. Scripts keep
    /// the error (a second definition is a mistake there). Nil when `def` is
    /// no redefinition.
    func redefinitionAtPrompt(_ def: TraitDefinition) throws -> TraitDefinition? {
        guard redefinesTraits, plugins.loading == nil else { return nil }
        let fromPlugins = Set(plugins.plugins.values.flatMap { $0.definitions.map(ObjectIdentifier.init) })
        let system = Set(SystemTraits.all.map(ObjectIdentifier.init))
        guard let old = world.registry.definitions.first(where: { o in
            o.name == def.name && !fromPlugins.contains(ObjectIdentifier(o)) && !system.contains(ObjectIdentifier(o))
        }) else { return nil }
        try world.registry.replace(old, with: def)
        world.forEachEnvironment { e in
            _ = e.revalidateOverrides(keeping: { d in world.registry.definitions.contains { $0 === d } })
        }
        world.invalidateAllTraits()
        clearCollectionCaches()
        clearPropertyNames()
        return old
    }

    /// Forgets which definition each property name was found to name (a
    /// reload may drop a definition or give its replacement another name);
    /// the next use of a name asks the registry again.
    func clearPropertyNames() {
        L.clearRegistryTable(refs.definitionsByProperty)
    }

    /// Forgets cached values of every collection object (definitions changed).
    func clearCollectionCaches() {
        // (The table of objects keeps environments too.)
        for ref in [refs.objects, refs.collectionCache, refs.trackingCache] {
            L.registryTable(ref)
            L.pushNil()
            while lua_next(L, -2) != 0 {
                var kind: Int32 = 0
                if tl_tobox(L, -1, &kind) != nil, kind == BoxKind.collection.rawValue { tl_collection_clear_cache(L, -1) }
                L.pop()
            }
            L.pop()
        }
    }
}

/// "a/b/c.lua" -> "a/b"; "c.lua" -> ".".
public func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

public func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

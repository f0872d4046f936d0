#if canImport(Glibc)
import Glibc
#endif
import CLua
import CLuaShim
import TraitEngine

// What traits resolve to: UIKit's system colours (`ui.Color.systemBackground`),
// an app's asset catalogue (`ui.AssetCatalog`, `ui.assets`, `ui.Color.named`,
// `ui.Image.named`), and the views that show them (`tintColor`,
// `resolvedBackgroundColor`, `ui.ImageView`'s `image` and `resolvedImage`).

/// A `ui.AssetCatalog` value.
final class CatalogBox {
    let catalog: AssetCatalog
    init(_ c: AssetCatalog) { catalog = c }
}

/// A `ui.Image` value: an image set of a catalogue.
final class ImageBox {
    let asset: ImageAsset
    init(_ a: ImageAsset) { asset = a }
}

/// Registry keys of this library's metatables and objects.
private let catalogMetaKey = "traitlab.AssetCatalog"
private let imageMetaKey = "traitlab.Image"
private let assetsKey = "traitlab.assets"
private let imageViewClassKey = "traitlab.ImageView"

extension LuaHost {
    // MARK: - Installing

    /// `ui.Color.<system colour>` and `ui.Color.named`: the `__index` of
    /// `ui.Color`'s metatable at `meta`.
    func installColorNames(meta: Int32) {
        let meta = L.absIndex(meta)
        L.pushFunction(LuaFunctions.id("ui.Color.index", { c in
            guard let key = c.L.string(2) else { c.L.pushNil(); return 1 }
            guard let color = SystemColors.color(named: key, os: c.host.world.os) else {
                throw LuaError.message("ui.Color has no system colour '\(key)' (ui.Color.names lists them; asset colours: ui.Color.named(name))")
            }
            c.host.pushColor(.named(color))
            return 1
        }))
        L.rawSet(meta, "__index")
    }

    /// `ui.AssetCatalog`, `ui.Image`, `ui.Color.named` and `ui.assets` (the
    /// `--assets` catalogue; without one, an empty catalogue, as an app's
    /// main bundle without an asset catalogue has no named colours).
    func installResources(into ui: Int32) throws {
        let ui = L.absIndex(ui)
        installResourceMetas()
        setFunction(ui, "ui", "AssetCatalog") { c in
            let path = try c.string(1)
            if c.host.options.refusesFiles {
                // Under the sandbox: only the catalogue the command line named.
                guard path == c.host.options.assetCatalogPath, c.host.pushAssets() else {
                    throw LuaError.message("ui.AssetCatalog reads files: under the sandbox only the catalogue the command line named (--assets) is read")
                }
                return 1
            }
            let catalog = try c.host.loadCatalog(path)
            c.host.pushCatalog(catalog)
            return 1
        }
        L.newTable()
        setFunction(L.top, "ui.Image", "named") { c in
            let name = try c.string(1)
            guard let catalog = try c.host.catalogArgument(c, 2) else { c.L.pushNil(); return 1 }
            guard let asset = catalog.image(named: name) else { c.L.pushNil(); return 1 }
            c.host.pushImage(asset)
            return 1
        }
        L.rawSet(ui, "Image")
        if L.rawGet(ui, "Color") == LUA_TTABLE {
            setFunction(L.top, "ui.Color", "named") { c in try c.host.colorNamed(c) }
        }
        L.pop()
        // The app's main bundle: the --assets catalogue, else one with nothing in it.
        let catalog = try options.assetCatalogPath.map { try loadCatalog($0) }
            ?? AssetCatalog(path: "(no catalogue: traitlab --assets PATH)", files: NoCatalogFiles())
        pushCatalog(catalog)
        L.pushValue(-1)
        lua_setfield(L, tl_registryindex(), assetsKey)
        L.rawSet(ui, "assets")
    }

    /// Notes the class `ui.ImageView` (a registry ref), whose instances have an `image`.
    func rememberImageViewClass(_ ref: Int32) {
        L.registryTable(ref)
        lua_setfield(L, tl_registryindex(), imageViewClassKey)
    }

    /// Pushes `ui.assets` (the `--assets` catalogue); false, pushing nothing, when there is none.
    func pushAssets() -> Bool {
        if lua_getfield(L, tl_registryindex(), assetsKey) == LUA_TUSERDATA { return true }
        L.pop()
        return false
    }

    /// Whether the class table at `i` is `ui.ImageView` or one of its subclasses.
    func isImageViewClass(_ i: Int32) -> Bool { isClass(i, derivedFrom: imageViewClassKey) }

    /// Whether the class table at `i` is the class the registry keeps under
    /// `key`, or one of its subclasses (a class's metatable's `__index` is its
    /// parent class). The walk keeps the stack as it is, however deep.
    func isClass(_ i: Int32, derivedFrom key: String) -> Bool {
        let t = L.absIndex(i)
        let base = L.top
        defer { L.setTop(base) }
        guard lua_getfield(L, tl_registryindex(), key) == LUA_TTABLE else { return false }
        let target = L.top
        L.pushValue(t)
        let current = L.top
        for _ in 0..<256 {
            if lua_rawequal(L, current, target) != 0 { return true }
            guard lua_getmetatable(L, current) != 0, L.rawGet(-1, "__index") == LUA_TTABLE else { return false }
            lua_copy(L, -1, current)
            L.setTop(current)
        }
        return false
    }

    private func installResourceMetas() {
        let catalogMeta = makeMeta(name: "AssetCatalog", index: ("catalog.index", { c in
            let catalog = try c.object(1, CatalogBox.self, "AssetCatalog").catalog
            switch try c.string(2) {
            case "path": c.L.push(catalog.path)
            case "colors": c.host.pushStrings(catalog.colorNames)
            case "images": c.host.pushStrings(catalog.imageNames)
            case "warnings": c.host.pushStrings(catalog.warnings)
            case let k: throw LuaError.message("AssetCatalog has no field '\(k)' (path, colors, images, warnings)")
            }
            return 1
        }), methods: [:], newindex: { _ in throw LuaError.message("asset catalogues are read-only") }, tostring: { c in
            let catalog = try c.object(1, CatalogBox.self, "AssetCatalog").catalog
            c.L.push("AssetCatalog(\(catalog.path): \(catalog.colorNames.count) colours, \(catalog.imageNames.count) images)")
            return 1
        }, extra: [("__eq", "catalog.eq", { c in
            c.L.push(c.L.box(1, as: CatalogBox.self)?.catalog === c.L.box(2, as: CatalogBox.self)?.catalog)
            return 1
        })])
        L.registryGet(catalogMeta)
        lua_setfield(L, tl_registryindex(), catalogMetaKey)
        let imageMeta = makeMeta(name: "Image", index: ("image.index", { c in
            let asset = try c.object(1, ImageBox.self, "Image").asset
            switch try c.string(2) {
            case "name": c.L.push(asset.name)
            case "renderingIntent": if let r = asset.renderingIntent { c.L.push(r) } else { c.L.pushNil() }
            case "variants":
                c.L.newTable(narr: Int32(clamping: asset.variants.count))
                for (k, v) in asset.variants.enumerated() {
                    c.host.pushVariant(v)
                    lua_rawseti(c.L, -2, lua_Integer(k + 1))
                }
            case "traitsRead":
                c.L.newTable(narr: Int32(clamping: asset.traitsRead.count))
                for (k, d) in asset.traitsRead.enumerated() { c.L.push(d.property); lua_rawseti(c.L, -2, lua_Integer(k + 1)) }
            case let k: throw LuaError.message("Image has no field '\(k)' (name, variants, traitsRead, renderingIntent, resolved)")
            }
            return 1
        }), methods: [
            "resolved": ("Image:resolved", { c in
                let asset = try c.object(1, ImageBox.self, "Image").asset
                let tc = try c.host.collectionArgument(c, 2)
                if let v = asset.variant(for: tc) { c.host.pushVariant(v) } else { c.L.pushNil() }
                return 1
            }),
        ], newindex: { _ in throw LuaError.message("images are read-only") }, tostring: { c in
            c.L.push("Image(\(try c.object(1, ImageBox.self, "Image").asset.name))")
            return 1
        }, extra: [("__eq", "image.eq", { c in
            c.L.push(c.L.box(1, as: ImageBox.self)?.asset === c.L.box(2, as: ImageBox.self)?.asset)
            return 1
        })])
        L.registryGet(imageMeta)
        lua_setfield(L, tl_registryindex(), imageMetaKey)
    }

    // MARK: - Values

    func pushCatalog(_ catalog: AssetCatalog) {
        L.pushBox(CatalogBox(catalog), kind: .color)   // (the kind is only read for environments and collections)
        lua_getfield(L, tl_registryindex(), catalogMetaKey)
        lua_setmetatable(L, -2)
    }

    func pushImage(_ asset: ImageAsset) {
        L.pushBox(ImageBox(asset), kind: .color)
        lua_getfield(L, tl_registryindex(), imageMetaKey)
        lua_setmetatable(L, -2)
    }

    func pushStrings(_ list: [String]) {
        guard L.newTable(narr: Int32(clamping: list.count)), L.roomForLua(32 * list.count) else { return }
        for (k, s) in list.enumerated() { L.push(s); lua_rawseti(L, -2, lua_Integer(k + 1)) }
    }

    /// `{ file, path, scale, traits = { property = value, ... } }`.
    func pushVariant(_ v: ImageVariant) {
        L.newTable(nrec: 4)
        L.push(v.file); L.rawSet(-2, "file")
        L.push(v.path); L.rawSet(-2, "path")
        if let s = v.keys.scale { L.push(s) } else { L.pushNil() }
        L.rawSet(-2, "scale")
        L.newTable(nrec: Int32(clamping: v.traits.count))
        for e in v.traits {
            switch e.value {
            case .string(let s): L.push(s)
            case .number(let n): L.push(Int(n))
            default: L.push("\(e.value)")
            }
            L.rawSet(-2, e.definition.property)
        }
        L.rawSet(-2, "traits")
    }

    /// The trait collection argument at `i`, or `traits.current` when absent.
    func collectionArgument(_ c: LuaCall, _ i: Int32) throws -> TraitCollection {
        if c.L.isNil(i) { return world.currentTraitCollection }
        guard let tc = collection(at: i) else { throw c.typeError(i, "TraitCollection") }
        return tc
    }

    /// The catalogue argument at `i`, or `ui.assets` when absent (nil when there is none).
    func catalogArgument(_ c: LuaCall, _ i: Int32) throws -> AssetCatalog? {
        if c.L.isNil(i) {
            guard pushAssets() else { return nil }
            defer { c.L.pop() }
            return c.L.box(-1, as: CatalogBox.self)?.catalog
        }
        return try c.object(i, CatalogBox.self, "AssetCatalog").catalog
    }

    /// `ui.Color.named(name [, catalog])`: `UIColor(named:in:compatibleWith:)`'s colour, or nil.
    func colorNamed(_ c: LuaCall) throws -> Int32 {
        let name = try c.string(1)
        guard let catalog = try catalogArgument(c, 2), let color = catalog.color(named: name) else {
            c.L.pushNil()
            return 1
        }
        pushColor(.named(color))
        return 1
    }

    /// Reads the catalogue at `path`: errors name the file and what is wrong.
    func loadCatalog(_ path: String) throws -> AssetCatalog {
        do {
            return try AssetCatalog(path: path, files: try PosixCatalogFiles(path), budget: memoryBudget, os: world.os)
        } catch let e as TraitError {
            throw LuaError.message("asset catalogue: \(e.message)")
        }
    }

    // MARK: - View properties

    /// Reads `tintColor`, `resolvedBackgroundColor`, `resolvedTintColor`,
    /// `image` and `resolvedImage` of the environment object at 1.
    func pushResourceProperty(_ key: String, of env: TraitEnvironment) throws {
        guard let view = env as? View else { L.pushNil(); return }
        switch key {
        case "tintColor":
            if pushHostField(1, "__tintColor") == LUA_TUSERDATA, L.box(-1, as: ColorBox.self) != nil { return }
            L.pop()
            if let c = view.tintColor { pushColor(c) } else { L.pushNil() }
        case "resolvedBackgroundColor":
            if let r = try world.performAsCurrent(view.traitCollection, { try view.resolvedBackgroundColor() }) {
                pushColor(.fixed(r.color))
            } else {
                L.pushNil()
            }
        case "resolvedTintColor":
            pushColor(.fixed(try world.performAsCurrent(view.traitCollection) { try view.resolvedTintColor() }.color))
        case "image":
            if let a = view.image { pushImage(a) } else { L.pushNil() }
        case "resolvedImage":
            if let v = view.resolvedImage { pushVariant(v) } else { L.pushNil() }
        default:
            L.pushNil()
        }
    }

    /// Sets `tintColor` or an image view's `image` on the object at `object`.
    func setResourceProperty(_ key: String, of env: TraitEnvironment, object: Int32, value v: Int32) throws {
        guard let view = env as? View else { throw LuaError.message("\(env.className) has no property '\(key)'") }
        switch key {
        case "tintColor":
            let color = L.box(v, as: ColorBox.self)
            if color == nil && !L.isNil(v) { throw LuaError.message("tintColor must be a ui.Color, got \(L.typeName(v))") }
            view.tintColor = color?.value
            // (The object keeps a dynamic colour's function alive, as backgroundColor's does.)
            L.pushValue(v)
            setHostField(object, "__tintColor")
        case "image":
            guard view.isImageView else {
                throw LuaError.message("\(env.className) has no property 'image' (images are shown by ui.ImageView)")
            }
            if L.isNil(v) { view.image = nil; return }
            guard let box = L.box(v, as: ImageBox.self) else {
                throw LuaError.message("image must be a ui.Image (ui.Image.named(name)), got \(L.typeName(v))")
            }
            view.image = box.asset
        default:
            throw LuaError.message("property '\(key)' of \(env.className) is read-only")
        }
    }
}

// MARK: - Text of resolved values (dumps, :traits, :why)

/// What a view shows, one line per thing: `backgroundColor systemBackground
/// → #1C1C1E (dark, elevated)`, `tintColor systemBlue → #0A84FF (dark,
/// inherited from View "card")`, `image Hero → hero-dark@3x.png (dark, @3x)`.
/// The names in the folder at `path` (not "." and ".."), or nil when it
/// cannot be read.
package func folderEntryNames(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let ent = readdir(dir) {
        let name = withUnsafePointer(to: ent.pointee.d_name) { p in
            p.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

package func resolvedResourceLines(_ e: TraitEnvironment) -> [String] {
    guard let view = e as? View else { return [] }
    var lines: [String] = []
    func describe(_ property: String, _ value: ColorValue, note: String = "") {
        let text: String
        do {
            let r = try view.world.performAsCurrent(view.traitCollection) { try value.resolution(with: view.traitCollection) }
            if case .fixed = value { text = r.color.hexString } else {
                text = "\(value.displayName) → \(r.color.hexString) (\(r.traitsDescription)\(note))"
            }
        } catch {
            text = "\(value.displayName) (cannot resolve: \(error))"
        }
        lines.append("\(property) \(text)")
    }
    if let bg = view.backgroundColor { describe("backgroundColor", bg) }
    if let tint = view.tintColor { describe("tintColor", tint) }
    if let image = view.image {
        if let v = view.resolvedImage {
            let keys = ColorResolution(color: .clear, chosenBy: v.traits).traitsDescription
            lines.append("image \(image.name) → \(v.file) (\(keys))")
        } else {
            lines.append("image \(image.name) → none (no variant for these traits)")
        }
    }
    return lines
}

// MARK: - Files

/// The main bundle's catalogue when the command line names none: empty.
struct NoCatalogFiles: AssetCatalogFiles {
    func entries(of path: String) throws -> [(name: String, isFolder: Bool)] { [] }
    func contents(of path: String, budget: MemoryBudget?) throws -> [UInt8]? { nil }
    func fileExists(_ path: String) throws -> Bool { false }
}

/// A catalogue's files on disk. Every path is checked to stay inside the
/// catalogue once symbolic links are followed; a file is asked for from the
/// memory budget (its size) before it is read. Nothing is written.
struct PosixCatalogFiles: AssetCatalogFiles {
    let display: String
    let root: String

    init(_ path: String) throws {
        display = path
        guard let real = PosixCatalogFiles.realPath(path) else {
            throw TraitError("\(path): \(PosixCatalogFiles.errorText()) (an asset catalogue is a folder such as App/Assets.xcassets)")
        }
        var st = stat()
        guard stat(real, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw TraitError("\(path): not a folder (an asset catalogue is a folder such as App/Assets.xcassets)")
        }
        root = real
    }

    static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    func shown(_ rel: String) -> String { rel.isEmpty ? display : display + "/" + rel }

    /// The real path of `rel`, checked to be inside the catalogue; nil when it does not exist.
    func inside(_ rel: String) throws -> String? {
        let full = rel.isEmpty ? root : root + "/" + rel
        guard let real = PosixCatalogFiles.realPath(full) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw TraitError("\(shown(rel)): \(PosixCatalogFiles.errorText())")
        }
        guard real == root || real.hasPrefix(root + "/") else {
            throw TraitError("\(shown(rel)): a symbolic link out of the catalogue (to \(real)); a catalogue's files are its own")
        }
        return real
    }

    func entries(of path: String) throws -> [(name: String, isFolder: Bool)] {
        guard let real = try inside(path), let names = folderEntryNames(real) else {
            throw TraitError("\(shown(path)): cannot read the folder: \(PosixCatalogFiles.errorText())")
        }
        var out: [(name: String, isFolder: Bool)] = []
        for name in names {
            // (Dot files are the file system's and Finder's, never Xcode's.)
            if name.hasPrefix(".") { continue }
            var st = stat()
            let isFolder = stat(real + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
            out.append((name, isFolder))
        }
        return out
    }

    func contents(of path: String, budget: MemoryBudget?) throws -> [UInt8]? {
        guard let real = try inside(path) else { return nil }
        guard let f = fopen(real, "rb") else { throw TraitError("\(shown(path)): cannot read: \(PosixCatalogFiles.errorText())") }
        defer { fclose(f) }
        var st = stat()
        guard fstat(fileno(f), &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw TraitError("\(shown(path)): not a file")
        }
        let size = Int(st.st_size)
        do { try budget?.charge(size + 64) } catch {
            throw TraitError("\(shown(path)): not enough memory to read its \(size) bytes (--memory-limit)")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let n = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, f) }
        guard n == size else { throw TraitError("\(shown(path)): could not read all of it") }
        return bytes
    }

    func fileExists(_ path: String) throws -> Bool {
        guard let real = try inside(path) else { return false }
        var st = stat()
        return stat(real, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }
}

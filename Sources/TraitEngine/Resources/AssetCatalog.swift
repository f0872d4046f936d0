/// What an asset catalogue is read through: its folders and files, by paths
/// relative to the catalogue (`""` is the catalogue itself, `Brand/Accent.colorset`).
///
/// The engine reads no files itself; the host gives it one of these (the
/// command line's refuses a path that leaves the catalogue through a
/// symbolic link, and asks the memory budget before it reads a file).
public protocol AssetCatalogFiles {
    /// The entries of the folder at `path`: each name, and whether it is a folder.
    func entries(of path: String) throws -> [(name: String, isFolder: Bool)]
    /// The bytes of the file at `path`, or nil when there is no such file.
    /// With a budget, the file's size is asked for before it is read.
    func contents(of path: String, budget: MemoryBudget?) throws -> [UInt8]?
    /// Whether a file exists at `path` (inside the catalogue).
    func fileExists(_ path: String) throws -> Bool
}

/// An app's asset catalogue (Xcode's `.xcassets` folder), read as Xcode
/// writes it: colour sets (`.colorset`) and image sets (`.imageset`), with
/// folders that provide a namespace (Asset Catalog Format Reference,
/// "Folder Structure", "Named Colors", "Image Set Type", "Group"
/// `provides-namespace`).
///
/// Each set's variants are chosen for a trait collection as
/// `UIColor(named:in:compatibleWith:)` and `UIImageAsset.image(with:)`
/// choose them: see ``AssetVariant`` for the rule. A catalogue Xcode would
/// reject (malformed JSON, an unknown value of a key, a missing image file)
/// is a ``TraitError`` naming the file and what is wrong. Reading never
/// writes a file.
///
/// ```swift
/// let catalog = try AssetCatalog(path: "App/Assets.xcassets", files: files)
/// catalog.color(named: "AccentColor")?.resolvedColor(with: dark)
/// catalog.image(named: "Hero")?.variant(for: phoneDark3x)?.file   // "hero-dark@3x.png"
/// ```
public final class AssetCatalog {
    /// The path the catalogue was read from.
    public let path: String
    /// The colour sets' names, sorted; a namespace folder's sets as `Folder/Name`.
    public private(set) var colorNames: [String] = []
    /// The image sets' names, sorted, namespaces included.
    public private(set) var imageNames: [String] = []
    /// What was read but not used, in words (a second set of a name already
    /// taken: Xcode warns and uses one of them).
    public private(set) var warnings: [String] = []
    private var colorSets: [String: NamedColor] = [:]
    private var imageSets: [String: ImageAsset] = [:]

    /// Reads the catalogue at `path` through `files`.
    /// - Parameters:
    ///   - path: The catalogue's path, as messages name it.
    ///   - files: Its folders and files.
    ///   - budget: Asked before each `Contents.json` is read and parsed.
    ///   - os: The iOS version whose system colours a colour set's reference resolves to.
    public init(path: String, files: AssetCatalogFiles, budget: MemoryBudget? = nil, os: OSVersion = .newest) throws {
        self.path = path
        var reader = CatalogReader(catalog: path, files: files, budget: budget, os: os)
        try reader.readFolder("", namespace: "", depth: 0, owner: self)
        colorNames = colorSets.keys.sorted()
        imageNames = imageSets.keys.sorted()
        warnings = reader.warnings
    }

    /// The colour set `name` as a colour (`UIColor(named:in:compatibleWith:)`), or nil.
    public func color(named name: String) -> NamedColor? { colorSets[name] }

    /// The image set `name` (`UIImage(named:in:with:)`'s asset), or nil.
    public func image(named name: String) -> ImageAsset? { imageSets[name] }

    fileprivate func add(color: NamedColor, at place: String, warnings: inout [String]) {
        if colorSets[color.name] != nil {
            warnings.append("\(place): a colour set named '\(color.name)' was read already; this one is not used")
            return
        }
        colorSets[color.name] = color
    }

    fileprivate func add(image: ImageAsset, at place: String, warnings: inout [String]) {
        if imageSets[image.name] != nil {
            warnings.append("\(place): an image set named '\(image.name)' was read already; this one is not used")
            return
        }
        imageSets[image.name] = image
    }
}

/// An image set of an asset catalogue: its variants, and the one a trait
/// collection gets (`UIImageAsset.image(with:)`).
public final class ImageAsset {
    /// The set's name, namespace included (`Icons/Star`).
    public let name: String
    /// The catalogue it belongs to, while something holds it (weak: the
    /// catalogue holds its image sets).
    public private(set) weak var catalog: AssetCatalog?
    /// The variants that have a file, in `Contents.json`'s order.
    public let variants: [ImageVariant]
    /// The traits whose values can change the variant chosen.
    public let traitsRead: [TraitDefinition]
    /// `properties.template-rendering-intent` of the set, when given (`template`, `original`).
    public let renderingIntent: String?
    @exclusivity(unchecked) private var lastCollection: TraitCollection?
    @exclusivity(unchecked) private var lastVariant: ImageVariant?

    init(name: String, catalog: AssetCatalog, variants: [ImageVariant], renderingIntent: String?) {
        self.name = name
        self.catalog = catalog
        self.variants = variants
        self.renderingIntent = renderingIntent
        traitsRead = AssetVariant.traitsRead(by: variants.map(\.keys), scales: true)
    }

    /// The variant `traits` gets, or nil when none is compatible (an image
    /// set with only iPad images, asked for on an iPhone).
    public func variant(for traits: TraitCollection) -> ImageVariant? {
        if let c = lastCollection {
            if c === traits { return lastVariant }
            if traitsRead.allSatisfy({ c.rawValue($0) == traits.rawValue($0) }) {
                lastCollection = traits
                return lastVariant
            }
        }
        let v = AssetVariant.best(variants, keys: \.keys, for: traits)
        lastCollection = traits
        lastVariant = v
        return v
    }
}

/// One image of an image set: its file and the keys that say when it is used.
public struct ImageVariant: Equatable {
    /// The file name, as `Contents.json` gives it (`hero-dark@3x.png`).
    public let file: String
    /// The file's path inside the catalogue (`Hero.imageset/hero-dark@3x.png`).
    public let path: String
    /// The variant's keys.
    public let keys: AssetVariant

    /// The traits this variant specifies, with the values it asks for.
    public var traits: [TraitCollection.Entry] { keys.entries }
}

/// The keys of one variant of a colour set or image set that a trait
/// decides (Asset Catalog Format Reference: `idiom`, `appearances` with
/// `luminosity` and `contrast`, `display-gamut`, `width-class`,
/// `height-class`, `language-direction`, `scale`).
///
/// The choice, as `UIImageAsset.image(with:)` ("the variant of the image
/// that best matches the specified trait collection") and
/// `UIColor(named:in:compatibleWith:)` make it:
/// 1. A variant is compatible when every key it gives matches the
///    collection: `iphone` a `phone` idiom, `ipad` a `pad`, `dark` a dark
///    style (an unspecified style matches `light`), contrast `high` only
///    high contrast, `display-P3` only a P3 gamut (`sRGB` any), a size
///    class only that size class, `right-to-left` only that direction.
///    A key a variant leaves out (universal, any appearance) matches
///    everything: that variant is the fallback.
/// 2. Of the compatible variants the most specific wins, key by key in this
///    order: idiom, width class, height class, luminosity, contrast,
///    display gamut, language direction. (Apple documents "best matches";
///    the order in which keys outrank each other is TraitLab's.)
/// 3. Then the nearest scale: the collection's `displayScale` exactly (a
///    single-scale image fits every scale), else the nearest larger, else
///    the nearest smaller; an unspecified scale looks up `1x`.
public struct AssetVariant: Equatable {
    /// `idiom`: `universal`, `iphone`, `ipad`, `tv`, `car`, `mac`, `vision`, `watch`, or a marketing idiom.
    public var idiom = "universal"
    /// `appearances` luminosity: `light` or `dark`; nil for any.
    public var luminosity: String?
    /// `appearances` contrast: `high`; nil for any.
    public var contrast: String?
    /// `display-gamut`: `sRGB` or `display-P3`; nil for any.
    public var gamut: String?
    /// `width-class`: `compact` or `regular`; nil for any.
    public var widthClass: String?
    /// `height-class`: `compact` or `regular`; nil for any.
    public var heightClass: String?
    /// `language-direction`: `left-to-right` or `right-to-left`; nil for any.
    public var direction: String?
    /// `scale`: 1, 2 or 3; nil for a single-scale image (and for colours).
    public var scale: Int?

    static let idioms: [String: String?] = [
        "universal": nil, "iphone": "phone", "ipad": "pad", "tv": "tv", "car": "carPlay", "mac": "mac",
        "vision": "vision", "watch": nil, "ios-marketing": nil, "watch-marketing": nil, "mac-catalyst": "mac",
    ]

    /// The specificity of this variant for `tc`, key by key (see the type's
    /// rule; higher is more specific), or nil when it is not compatible.
    func score(_ tc: TraitCollection) -> Int? {
        func value(_ d: TraitDefinition) -> String {
            if case .string(let s) = tc.rawValue(d) { return s }
            return ""
        }
        var idiomScore = 0
        if idiom != "universal" {
            guard let trait = AssetVariant.idioms[idiom] ?? nil, value(SystemTraits.userInterfaceIdiom) == trait else { return nil }
            idiomScore = 1
        }
        func exact(_ key: String?, _ trait: TraitDefinition) -> Int? {
            guard let key else { return 0 }
            return value(trait) == key ? 1 : nil
        }
        guard let w = exact(widthClass, SystemTraits.horizontalSizeClass),
              let h = exact(heightClass, SystemTraits.verticalSizeClass) else { return nil }
        var lum = 0
        if let luminosity {
            let dark = value(SystemTraits.userInterfaceStyle) == "dark"
            guard (luminosity == "dark") == dark else { return nil }
            lum = 1
        }
        guard let con = exact(contrast, SystemTraits.accessibilityContrast) else { return nil }
        var gam = 0
        if let gamut {
            let p3 = value(SystemTraits.displayGamut) == "P3"
            if gamut == "display-P3" { guard p3 else { return nil }; gam = 2 } else { gam = 1 }
        }
        var dir = 0
        if let direction {
            let rtl = value(SystemTraits.layoutDirection) == "rightToLeft"
            guard (direction == "right-to-left") == rtl else { return nil }
            dir = 1
        }
        // One number, key by key in the rule's order (each key's score is 0 to 2).
        return ((((((idiomScore * 4 + w) * 4 + h) * 4 + lum) * 4 + con) * 4 + gam) * 4 + dir)
    }

    /// How near this variant's scale is to `target`: lower is better.
    func scaleRank(_ target: Int) -> Int {
        guard let scale else { return 0 }
        if scale == target { return 0 }
        return scale > target ? scale - target : 10 + target - scale
    }

    /// The best of `items` for `tc` (the type's rule), or nil.
    static func best<T>(_ items: [T], keys: KeyPath<T, AssetVariant>, for tc: TraitCollection) -> T? {
        var scale = 1
        if case .number(let s) = tc.rawValue(SystemTraits.displayScale), s >= 1, s <= 10 { scale = Int(s.rounded()) }
        var best: T?
        var bestScore = 0
        var bestRank = Int.max
        for item in items {
            let k = item[keyPath: keys]
            guard let s = k.score(tc) else { continue }
            let rank = k.scaleRank(scale)
            if best == nil || s > bestScore || (s == bestScore && rank < bestRank) {
                best = item
                bestScore = s
                bestRank = rank
            }
        }
        return best
    }

    /// The traits a set of variants can be told apart by.
    static func traitsRead(by variants: [AssetVariant], scales: Bool) -> [TraitDefinition] {
        var read: [TraitDefinition] = []
        func add(_ d: TraitDefinition, if cond: Bool) { if cond && !read.contains(where: { $0 === d }) { read.append(d) } }
        for v in variants {
            add(SystemTraits.userInterfaceIdiom, if: v.idiom != "universal")
            add(SystemTraits.userInterfaceStyle, if: v.luminosity != nil)
            add(SystemTraits.accessibilityContrast, if: v.contrast != nil)
            add(SystemTraits.displayGamut, if: v.gamut != nil)
            add(SystemTraits.horizontalSizeClass, if: v.widthClass != nil)
            add(SystemTraits.verticalSizeClass, if: v.heightClass != nil)
            add(SystemTraits.layoutDirection, if: v.direction != nil)
            add(SystemTraits.displayScale, if: scales && v.scale != nil)
        }
        return read
    }

    /// The keys given, as trait values (`userInterfaceStyle = dark`, `displayScale = 3`).
    public var entries: [TraitCollection.Entry] {
        var out: [TraitCollection.Entry] = []
        func add(_ d: TraitDefinition, _ v: String?) { if let v { out.append(.init(definition: d, value: .string(v))) } }
        add(SystemTraits.userInterfaceIdiom, AssetVariant.idioms[idiom] ?? nil)
        add(SystemTraits.horizontalSizeClass, widthClass)
        add(SystemTraits.verticalSizeClass, heightClass)
        add(SystemTraits.userInterfaceStyle, luminosity)
        add(SystemTraits.accessibilityContrast, contrast)
        add(SystemTraits.displayGamut, gamut.map { $0 == "display-P3" ? "P3" : "SRGB" })
        add(SystemTraits.layoutDirection, direction.map { $0 == "right-to-left" ? "rightToLeft" : "leftToRight" })
        if let scale { out.append(.init(definition: SystemTraits.displayScale, value: .number(Double(scale)))) }
        return out
    }
}

// MARK: - Reading

/// Reads a catalogue's folders, one `Contents.json` at a time.
private struct CatalogReader {
    let catalog: String
    let files: AssetCatalogFiles
    let budget: MemoryBudget?
    let os: OSVersion
    var warnings: [String] = []

    init(catalog: String, files: AssetCatalogFiles, budget: MemoryBudget?, os: OSVersion) {
        self.catalog = catalog
        self.files = files
        self.budget = budget
        self.os = os
    }

    func place(_ path: String) -> String { path.isEmpty ? catalog : catalog + "/" + path }

    func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "/" + b }

    /// The parsed `Contents.json` of the folder at `folder`, or nil when it has none.
    func contents(_ folder: String) throws -> [(key: String, value: JSONValue)]? {
        let file = join(folder, "Contents.json")
        guard let bytes = try files.contents(of: file, budget: budget) else { return nil }
        let json: JSONValue
        do { json = try JSONValue.parse(utf8: bytes, budget: budget) } catch let e as TraitError {
            throw TraitError("\(place(file)): \(e.message)")
        }
        guard case .object(let members) = json else { throw TraitError("\(place(file)): expected a JSON object, found \(json.kindName)") }
        return members
    }

    mutating func readFolder(_ folder: String, namespace: String, depth: Int, owner: AssetCatalog) throws {
        guard depth < 64 else { throw TraitError("\(place(folder)): folders nested more than 64 deep") }
        for entry in try files.entries(of: folder).sorted(by: { $0.name < $1.name }) where entry.isFolder {
            let path = join(folder, entry.name)
            let (stem, ext) = split(entry.name)
            switch ext {
            case "colorset":
                let color = try readColorSet(path, name: namespace + stem, owner: owner)
                owner.add(color: color, at: place(path), warnings: &warnings)
            case "imageset":
                let image = try readImageSet(path, name: namespace + stem, owner: owner)
                owner.add(image: image, at: place(path), warnings: &warnings)
            case "", "spriteatlas":
                // A group: its Contents.json may say it provides a namespace.
                var provides = false
                if let members = try contents(path), let props = member(members, "properties"),
                   case .object(let p) = props, let flag = member(p, "provides-namespace") {
                    guard case .bool(let b) = flag else {
                        throw TraitError("\(place(join(path, "Contents.json"))): properties.provides-namespace must be true or false, found \(flag.kindName)")
                    }
                    provides = b
                }
                try readFolder(path, namespace: provides ? namespace + stem + "/" : namespace, depth: depth + 1, owner: owner)
            default:
                // App icons, symbol sets, data sets and the other set types:
                // no trait of a view chooses among them here.
                continue
            }
        }
    }

    func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    func member(_ members: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    func string(_ v: JSONValue?, _ what: String, _ file: String) throws -> String? {
        guard let v else { return nil }
        guard case .string(let s) = v else { throw TraitError("\(place(file)): \(what) must be a string, found \(v.kindName)") }
        return s
    }

    /// The trait-decided keys of one entry of `colors` or `images`.
    func variantKeys(_ entry: [(key: String, value: JSONValue)], _ what: String, _ file: String, image: Bool) throws -> AssetVariant {
        var k = AssetVariant()
        func check(_ key: String, _ allowed: [String]) throws -> String? {
            guard let s = try string(member(entry, key), "\(what).\(key)", file) else { return nil }
            guard allowed.contains(s) else {
                throw TraitError("\(place(file)): \(what): unknown \(key) '\(s)' (\(allowed.joined(separator: ", ")))")
            }
            return s
        }
        if let idiom = try check("idiom", AssetVariant.idioms.keys.sorted()) { k.idiom = idiom }
        k.gamut = try check("display-gamut", ["sRGB", "display-P3"])
        k.widthClass = try check("width-class", ["compact", "regular"])
        k.heightClass = try check("height-class", ["compact", "regular"])
        k.direction = try check("language-direction", ["left-to-right", "right-to-left"])
        if let s = try check("scale", ["1x", "2x", "3x"]) {
            guard image else { throw TraitError("\(place(file)): \(what): a colour has no scale") }
            k.scale = Int(String(s.dropLast()))
        }
        if let appearances = member(entry, "appearances") {
            guard case .array(let list) = appearances else {
                throw TraitError("\(place(file)): \(what).appearances must be an array, found \(appearances.kindName)")
            }
            for (i, a) in list.enumerated() {
                let at = "\(what).appearances[\(i + 1)]"
                guard case .object(let m) = a else { throw TraitError("\(place(file)): \(at) must be an object, found \(a.kindName)") }
                let kind = try string(member(m, "appearance"), "\(at).appearance", file)
                let value = try string(member(m, "value"), "\(at).value", file)
                switch (kind, value) {
                case ("luminosity", "light"?), ("luminosity", "dark"?): k.luminosity = value
                case ("luminosity", "any"?): k.luminosity = nil
                case ("contrast", "high"?): k.contrast = "high"
                case ("luminosity", let v), ("contrast", let v):
                    let allowed = kind == "luminosity" ? "light, dark" : "high"
                    throw TraitError("\(place(file)): \(at): unknown \(kind!) value \(v.map { "'\($0)'" } ?? "(none)") (\(allowed))")
                default:
                    throw TraitError("\(place(file)): \(at): unknown appearance \(kind.map { "'\($0)'" } ?? "(none)") (luminosity, contrast)")
                }
            }
        }
        return k
    }

    func entries(_ members: [(key: String, value: JSONValue)], _ key: String, _ file: String) throws -> [[(key: String, value: JSONValue)]] {
        guard let list = member(members, key) else { return [] }
        guard case .array(let items) = list else { throw TraitError("\(place(file)): '\(key)' must be an array, found \(list.kindName)") }
        return try items.enumerated().map { i, item in
            guard case .object(let m) = item else { throw TraitError("\(place(file)): \(key)[\(i + 1)] must be an object, found \(item.kindName)") }
            return m
        }
    }

    func readColorSet(_ path: String, name: String, owner: AssetCatalog) throws -> NamedColor {
        let file = join(path, "Contents.json")
        guard let members = try contents(path) else { throw TraitError("\(place(file)): missing (a colour set needs its Contents.json)") }
        var variants: [(keys: AssetVariant, value: CatalogColor)] = []
        for (i, entry) in try entries(members, "colors", file).enumerated() {
            let what = "colors[\(i + 1)]"
            let keys = try variantKeys(entry, what, file, image: false)
            guard let c = member(entry, "color") else { continue }   // an empty slot
            guard case .object(let cm) = c else { throw TraitError("\(place(file)): \(what).color must be an object, found \(c.kindName)") }
            guard let value = try CatalogColor.parse(cm, at: "\(place(file)): \(what).color", os: os) else { continue }
            variants.append((keys, value))
        }
        var read = AssetVariant.traitsRead(by: variants.map(\.keys), scales: false)
        for v in variants { if case .system(let s) = v.value { for d in s.traitsRead where !read.contains(where: { $0 === d }) { read.append(d) } } }
        let chosen = variants
        let color = NamedColor(name: name, kind: .asset(catalogPath: owner.path), traitsRead: read, source: place(file)) { tc in
            guard let v = AssetVariant.best(chosen, keys: \.keys, for: tc) else {
                // No compatible variant: UIKit gives no colour; TraitLab shows clear.
                return ColorResolution(color: Color.clear, chosenBy: [])
            }
            switch v.value {
            case .fixed(let c): return ColorResolution(color: c, chosenBy: v.keys.entries)
            case .system(let s):
                let r = s.resolution(with: tc)
                return ColorResolution(color: r.color, chosenBy: v.keys.entries + r.chosenBy)
            }
        }
        color.belongs(to: owner)
        return color
    }

    func readImageSet(_ path: String, name: String, owner: AssetCatalog) throws -> ImageAsset {
        let file = join(path, "Contents.json")
        guard let members = try contents(path) else { throw TraitError("\(place(file)): missing (an image set needs its Contents.json)") }
        var variants: [ImageVariant] = []
        for (i, entry) in try entries(members, "images", file).enumerated() {
            let what = "images[\(i + 1)]"
            let keys = try variantKeys(entry, what, file, image: true)
            guard let filename = try string(member(entry, "filename"), "\(what).filename", file) else { continue }   // an empty slot
            guard !filename.isEmpty, !filename.contains("/"), filename != ".", filename != ".." else {
                throw TraitError("\(place(file)): \(what).filename '\(filename)' is not a file name in the image set's folder")
            }
            let imagePath = join(path, filename)
            guard try files.fileExists(imagePath) else {
                throw TraitError("\(place(file)): \(what): the file '\(filename)' is missing from \(place(path))")
            }
            variants.append(ImageVariant(file: filename, path: imagePath, keys: keys))
        }
        var intent: String?
        if let props = member(members, "properties"), case .object(let p) = props {
            intent = try string(member(p, "template-rendering-intent"), "properties.template-rendering-intent", file)
        }
        return ImageAsset(name: name, catalog: owner, variants: variants, renderingIntent: intent)
    }
}

/// A colour set's colour: components in a colour space, or a reference to
/// a system colour (`"platform": "ios", "reference": "systemBlueColor"`).
enum CatalogColor {
    case fixed(Color)
    case system(NamedColor)

    /// Fixed colours a reference may name besides the dynamic system colours
    /// (UIKit's class properties `UIColor.black`, `.white`, `.clear`, `.lightText`, `.darkText`).
    static let fixedReferences: [String: String] = [
        "blackColor": "#000000", "whiteColor": "#FFFFFF", "clearColor": "#00000000",
        "lightTextColor": "#FFFFFF99", "darkTextColor": "#000000",
    ]

    /// The colour of a `color` object, or nil for another platform's reference.
    static func parse(_ m: [(key: String, value: JSONValue)], at place: String, os: OSVersion) throws -> CatalogColor? {
        func get(_ k: String) -> JSONValue? { m.last { $0.key == k }?.value }
        if let ref = get("reference") {
            guard case .string(let name) = ref else { throw TraitError("\(place).reference must be a string, found \(ref.kindName)") }
            if case .string(let platform)? = get("platform"), platform != "ios" { return nil }
            if let hex = fixedReferences[name] { return .fixed(try Color(hex: hex)) }
            let base = name.hasSuffix("Color") ? String(name.dropLast(5)) : name
            guard let system = SystemColors.color(named: base, os: os) else {
                throw TraitError("\(place): unknown system colour reference '\(name)'")
            }
            return .system(system)
        }
        let spaces = ["srgb", "display-p3", "extended-srgb", "extended-linear-srgb", "gray-gamma-22", "extended-gray"]
        var space = "srgb"
        if let s = get("color-space") {
            guard case .string(let name) = s else { throw TraitError("\(place).color-space must be a string, found \(s.kindName)") }
            guard spaces.contains(name) else {
                throw TraitError("\(place): unknown color-space '\(name)' (\(spaces.joined(separator: ", ")))")
            }
            space = name
        }
        guard case .object(let comps)? = get("components") else { throw TraitError("\(place): no components") }
        func component(_ k: String, default d: Double? = nil) throws -> Double {
            guard let v = comps.last(where: { $0.key == k })?.value else {
                if let d { return d }
                throw TraitError("\(place).components: no '\(k)'")
            }
            guard let x = CatalogColor.component(v) else {
                throw TraitError("\(place).components.\(k): '\(v.serialized)' is not a component (0.0 to 1.0, 0 to 255, or 0x00 to 0xFF)")
            }
            let extended = space.hasPrefix("extended")
            if !(extended && k != "alpha"), !(0...1).contains(x) {
                throw TraitError("\(place).components.\(k): \(formatNumber(x)) is outside 0 to 1 (\(space)); extended ranges need an extended colour space")
            }
            return x
        }
        let alpha = try component("alpha", default: 1)
        if space == "gray-gamma-22" || space == "extended-gray" {
            let w = try component("white")
            let g = ColorSpaces.encodeSRGB(ColorSpaces.gamma22(w))
            return .fixed(Color(clampingRed: g, green: g, blue: g, alpha: alpha))
        }
        var r = try component("red"), g = try component("green"), b = try component("blue")
        switch space {
        case "display-p3": (r, g, b) = ColorSpaces.displayP3ToSRGB(r, g, b)
        case "extended-linear-srgb": (r, g, b) = (ColorSpaces.encodeSRGB(r), ColorSpaces.encodeSRGB(g), ColorSpaces.encodeSRGB(b))
        default: break
        }
        return .fixed(Color(clampingRed: r, green: g, blue: b, alpha: alpha))
    }

    /// A component as Xcode writes it: a float string with a decimal point
    /// ("0.502"), an 8-bit integer ("128"), or 8-bit hex ("0x80"); JSON
    /// numbers are read the same way (an integer above 1 as 8-bit).
    static func component(_ v: JSONValue) -> Double? {
        switch v {
        case .number(let d): return d.isFinite ? d : nil
        case .integer(let i): return i <= 1 && i >= 0 ? Double(i) : (i > 1 && i <= 255 ? Double(i) / 255 : nil)
        case .string(let s):
            let t = s.trimmingSpaces
            if t.hasPrefix("0x") || t.hasPrefix("0X") {
                guard let n = Int(t.dropFirst(2), radix: 16), (0...255).contains(n) else { return nil }
                return Double(n) / 255
            }
            if t.contains(".") || t.contains("e") || t.contains("E") {
                guard let d = Double(t), d.isFinite else { return nil }
                return d
            }
            guard let n = Int(t), (0...255).contains(n) else { return nil }
            return Double(n) / 255
        default: return nil
        }
    }
}

/// Conversions to sRGB, for colour sets in other colour spaces (resolved
/// colours are sRGB, as `tostring` writes them).
enum ColorSpaces {
    /// The sRGB transfer function, linear to encoded (IEC 61966-2-1), for
    /// extended values too (mirrored below zero).
    static func encodeSRGB(_ x: Double) -> Double {
        let a = abs(x)
        let e = a <= 0.0031308 ? 12.92 * a : 1.055 * pow(a, 1 / 2.4) - 0.055
        return x < 0 ? -e : e
    }

    /// Encoded to linear (the same curve Display P3 uses).
    static func decodeSRGB(_ x: Double) -> Double {
        let a = abs(x)
        let l = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
        return x < 0 ? -l : l
    }

    /// Grey gamma 2.2 to linear.
    static func gamma22(_ w: Double) -> Double { w < 0 ? -pow(-w, 2.2) : pow(w, 2.2) }

    /// Display P3 (sRGB's transfer curve, P3 primaries, D65) to sRGB: through
    /// linear light with the P3-to-sRGB matrix.
    static func displayP3ToSRGB(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        let lr = decodeSRGB(r), lg = decodeSRGB(g), lb = decodeSRGB(b)
        let sr = 1.2249401 * lr - 0.2249404 * lg
        let sg = -0.0420569 * lr + 1.0420571 * lg
        let sb = -0.0196376 * lr - 0.0786361 * lg + 1.0982735 * lb
        return (encodeSRGB(sr), encodeSRGB(sg), encodeSRGB(sb))
    }

    /// `x` to the power `y` for x ≥ 0, without libm's pow (the engine links
    /// only what Swift's standard library brings): exp(y·ln x) by series.
    static func pow(_ x: Double, _ y: Double) -> Double {
        if x == 0 { return 0 }
        return exp(y * log(x))
    }

    static func log(_ x: Double) -> Double {
        // x = m · 2^e with m in [1, 2): ln x = e·ln 2 + 2·atanh((m-1)/(m+1)).
        let e = Double(x.exponent)
        let m = x.significand
        let t = (m - 1) / (m + 1), t2 = t * t
        var term = t, sum = 0.0
        var k = 1.0
        while k < 60 { sum += term / k; term *= t2; k += 2 }
        return e * 0.6931471805599453 + 2 * sum
    }

    static func exp(_ x: Double) -> Double {
        // exp(x) = 2^n · exp(r), |r| ≤ ln2/2.
        let n = (x / 0.6931471805599453).rounded()
        let r = x - n * 0.6931471805599453
        var term = 1.0, sum = 1.0
        for k in 1..<30 { term *= r / Double(k); sum += term }
        return Double(sign: .plus, exponent: Int(n), significand: 1) * sum
    }
}

extension Color {
    /// Clear (`UIColor.clear`).
    public static let clear = Color(clampingRed: 0, green: 0, blue: 0, alpha: 0)

    /// A colour with each component clamped to 0...1 (an extended-range
    /// colour as an sRGB display shows it).
    init(clampingRed r: Double, green g: Double, blue b: Double, alpha a: Double) {
        func c(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
        self.init(inRange: c(r), c(g), c(b), c(a))
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}

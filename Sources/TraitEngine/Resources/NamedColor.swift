/// A colour resolved for a trait collection, with the traits that chose it.
public struct ColorResolution: Equatable {
    /// The colour, in sRGB.
    public let color: Color
    /// The traits, with the values that decided, that chose this value: for
    /// a system colour its style (and increased contrast, elevated level
    /// when they applied); for a colour set the keys of the variant chosen.
    public let chosenBy: [TraitCollection.Entry]

    /// A resolution of `color` chosen by `chosenBy`.
    public init(color: Color, chosenBy: [TraitCollection.Entry]) {
        self.color = color
        self.chosenBy = chosenBy
    }

    /// The deciding values, as dumps show them: `dark, elevated`; `any`
    /// when no trait decided (a colour set's universal variant).
    public var traitsDescription: String {
        chosenBy.isEmpty ? "any" : chosenBy.map { e in
            if case .string(let s) = e.value { return s }
            if case .number(let n) = e.value { return n == n.rounded() && abs(n) < 100 ? "@\(Int(n))x" : "@\(formatNumber(n))x" }
            return "\(e.definition.property)=\(e.value)"
        }.joined(separator: ", ")
    }
}

/// A colour that has a name and resolves from the traits it reads: one of
/// UIKit's system colours (``SystemColors``, `UIColor.systemBackground`) or
/// a colour set of an asset catalogue (``AssetCatalog``, `UIColor(named:)`).
///
/// This is the type other resolved properties build on (`textColor`,
/// `backgroundColor`, `tintColor`): ``resolvedColor(with:)`` gives the
/// colour, ``resolution(with:)`` also the traits that chose it, and
/// ``traitsRead`` tells which trait changes can change the result, so a
/// holder re-resolves only when one of them changed.
public final class NamedColor {
    /// Where a named colour comes from.
    public enum Kind: Equatable {
        /// One of UIKit's dynamic system colours.
        case system
        /// A colour set of the asset catalogue at this path (``catalog`` is
        /// the catalogue while it is alive).
        case asset(catalogPath: String)
    }

    /// The name: `systemBackground`, or the colour set's (`Brand/Accent`).
    public let name: String
    /// System colour or colour set.
    public let kind: Kind
    /// The catalogue of a colour set, while something holds it (weak: the
    /// catalogue holds its colours, and a colour kept after its catalogue
    /// still resolves); nil for a system colour.
    public private(set) weak var catalog: AssetCatalog?
    /// The traits whose values can change the resolved colour.
    public let traitsRead: [TraitDefinition]
    /// Where the values come from (a system colour's table row; a colour
    /// set's `Contents.json`).
    public let source: String
    private let resolver: (TraitCollection) -> ColorResolution
    // The last few resolutions and the collections they were made for: a
    // holder asks again with the same collection (or one equal in the traits
    // read) far more often than with a different one, and a scene's views
    // share a handful of collections (light and dark, base and elevated).
    @exclusivity(unchecked) private var recent: [(collection: TraitCollection, resolution: ColorResolution)] = []
    @exclusivity(unchecked) private var nextSlot = 0
    private static let recentCount = 4

    init(name: String, kind: Kind, traitsRead: [TraitDefinition], source: String,
         resolver: @escaping (TraitCollection) -> ColorResolution) {
        self.name = name
        self.kind = kind
        self.traitsRead = traitsRead
        self.source = source
        self.resolver = resolver
    }

    /// Notes the catalogue a colour set belongs to (``catalog``).
    func belongs(to catalog: AssetCatalog) { self.catalog = catalog }

    /// The colour for `traits` and the traits that chose it.
    public func resolution(with traits: TraitCollection) -> ColorResolution {
        for entry in recent where entry.collection === traits { return entry.resolution }
        if let same = recent.first(where: { e in traitsRead.allSatisfy { e.collection.rawValue($0) == traits.rawValue($0) } }) {
            remember(traits, same.resolution)
            return same.resolution
        }
        let r = resolver(traits)
        remember(traits, r)
        return r
    }

    private func remember(_ traits: TraitCollection, _ r: ColorResolution) {
        if recent.count < NamedColor.recentCount {
            recent.append((traits, r))
        } else {
            recent[nextSlot] = (traits, r)
            nextSlot = (nextSlot + 1) % NamedColor.recentCount
        }
    }

    /// The colour for `traits` (`UIColor.resolvedColor(with:)`).
    public func resolvedColor(with traits: TraitCollection) -> Color { resolution(with: traits).color }
}

extension ColorValue {
    /// The colour for `traits` with the traits that chose it (none for a
    /// fixed colour; a dynamic colour's provider does not say).
    public func resolution(with traits: TraitCollection) throws -> ColorResolution {
        switch self {
        case .fixed(let c): return ColorResolution(color: c, chosenBy: [])
        case .dynamic(let d): return ColorResolution(color: try d.provider(traits), chosenBy: [])
        case .named(let n): return n.resolution(with: traits)
        }
    }

    /// The colour's name for dumps: the hex of a fixed colour, `dynamic`, or
    /// the named colour's name.
    public var displayName: String {
        switch self {
        case .fixed(let c): return c.hexString
        case .dynamic: return "dynamic"
        case .named(let n): return n.name
        }
    }

    /// Whether a change of `traits` can change the resolved colour: a named
    /// colour's ``NamedColor/traitsRead``; any trait for a dynamic colour
    /// (its provider may read anything); none for a fixed one.
    public func reads(anyOf traits: [TraitDefinition]) -> Bool {
        switch self {
        case .fixed: return false
        case .dynamic: return !traits.isEmpty
        case .named(let n): return traits.contains { d in n.traitsRead.contains { $0 === d } }
        }
    }
}

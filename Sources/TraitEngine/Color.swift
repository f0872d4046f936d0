/// An RGBA color with components from 0 to 1.
public struct Color: Hashable, CustomStringConvertible, Sendable {
    /// The red, green, blue and alpha (opacity) components, each from 0 to 1.
    public var red, green, blue, alpha: Double

    /// A color from its components, as `UIColor(red:green:blue:alpha:)` makes one.
    ///
    /// UIKit takes any component (red, green or blue outside 0...1 is an
    /// extended-range sRGB color, and alpha is clamped: Apple's page for
    /// `init(red:green:blue:alpha:)`). TraitLab models colors in 0...1 only,
    /// so this throws a ``TraitError`` naming the component instead: a
    /// script's typo is reported rather than drawn.
    /// - Parameters:
    ///   - red: The red component, from 0 to 1.
    ///   - green: The green component, from 0 to 1.
    ///   - blue: The blue component, from 0 to 1.
    ///   - alpha: The opacity, from 0 (transparent) to 1 (opaque, the default).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) throws {
        for (n, v) in [("red", red), ("green", green), ("blue", blue), ("alpha", alpha)] where !(0...1).contains(v) {
            throw TraitError("color component \(n) must be between 0 and 1, got \(formatNumber(v))")
        }
        self.init(inRange: red, green, blue, alpha)
    }

    /// Components the caller knows are in 0...1 (bytes over 255, clamped values).
    init(inRange red: Double, _ green: Double, _ blue: Double, _ alpha: Double) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA`.
    public init(hex: String) throws {
        guard let color = Color(parsingHex: hex) else {
            throw TraitError("color '\(hex)' is not in the form #RRGGBB or #RRGGBBAA")
        }
        self = color
    }

    /// `#RRGGBB` or `#RRGGBBAA`, or nil for anything else.
    init?(parsingHex hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let n = UInt64(digits, radix: 16) else { return nil }
        let v = digits.count == 6 ? (n << 8) | 0xFF : n
        func c(_ shift: UInt64) -> Double { Double((v >> shift) & 0xFF) / 255 }
        self.init(inRange: c(24), c(16), c(8), c(0))
    }

    /// `#RRGGBB`, with `AA` appended when not opaque.
    public var hexString: String {
        func h(_ x: Double) -> String {
            let n = Int((x * 255).rounded())
            let s = String(n, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }

    /// The color as ``hexString`` writes it.
    public var description: String { hexString }
}

/// A color that resolves differently depending on traits (`UIColor(dynamicProvider:)`).
public final class DynamicColor {
    /// The closure that gives the color for a trait collection.
    public let provider: (TraitCollection) throws -> Color
    /// A color that `provider` resolves against each trait collection, as
    /// `UIColor(dynamicProvider:)` makes one.
    ///
    /// Unlike UIKit's provider, this one may throw (a script's provider can
    /// fail); the error propagates out of ``ColorValue/resolved(with:)``.
    public init(provider: @escaping (TraitCollection) throws -> Color) { self.provider = provider }
}

/// What a color property holds: a fixed color or a dynamic one.
///
/// Indirect, so a view's `backgroundColor` is one word: most views have none,
/// and a color stored inline made every view 32 bytes bigger.
public indirect enum ColorValue {
    /// A color that is the same in every trait collection.
    case fixed(Color)
    /// A color that depends on the trait collection it is resolved against.
    case dynamic(DynamicColor)
    /// A system colour or an asset catalogue's colour set (``NamedColor``).
    case named(NamedColor)

    /// The concrete color for a trait collection (`resolvedColor(with:)`).
    public func resolved(with traits: TraitCollection) throws -> Color {
        switch self {
        case .fixed(let c): return c
        case .dynamic(let d): return try d.provider(traits)
        case .named(let n): return n.resolvedColor(with: traits)
        }
    }
}

/// A font as UIKit's `UIFont` describes it to layout: a point size, a weight,
/// a leading, and how it scales with Dynamic Type.
///
/// ```swift
/// let body = try Font.preferred(.body, category: .accessibilityExtraExtraExtraLarge)
/// body.pointSize      // 53
/// let scaled = FontMetrics(.title1).scaledFont(for: .system(size: 24), category: .extraLarge)
/// ```
public struct Font: Hashable, Sendable, CustomStringConvertible {
    /// How the font follows the content size category.
    public enum Scaling: Hashable, Sendable {
        /// A preferred font of a text style (`preferredFont(forTextStyle:)`).
        case textStyle(TextStyle)
        /// A font scaled by `UIFontMetrics` of a style from its size at the
        /// default category, up to a maximum when one was given.
        case metrics(TextStyle, base: Double, maximum: Double?)
    }

    /// `pointSize`.
    public let pointSize: Double
    /// `"regular"`, `"semibold"`, ... (`UIFont.Weight`'s names).
    public let weight: String
    /// The line height in points (the HIG's leading for a preferred font;
    /// 1.2 × the point size for a system font, TraitLab's choice: Apple
    /// publishes no leading for `systemFont(ofSize:)`).
    public let leading: Double
    /// How the font scales; nil for a fixed font (`systemFont(ofSize:)`).
    public let scaling: Scaling?

    /// The text style of a preferred font (`UIFontDescriptor.TextStyle`); nil otherwise.
    public var textStyle: TextStyle? {
        if case .textStyle(let s)? = scaling { return s }
        return nil
    }

    /// A font of fixed size: `UIFont.systemFont(ofSize:weight:)`.
    public static func system(size: Double, weight: String = "regular") -> Font {
        Font(pointSize: size, weight: weight, leading: size * 1.2, scaling: nil)
    }

    /// `UIFont.preferredFont(forTextStyle:compatibleWith:)` at `category`.
    /// Throws for a style with no sizes (none today: every style has a row).
    public static func preferred(_ style: TextStyle, category: ContentSizeCategory) throws -> Font {
        guard let m = style.metrics(at: category) else {
            throw TraitError("text style \(style.rawValue) has no sizes")
        }
        return Font(pointSize: m.pointSize, weight: m.weight, leading: m.leading, scaling: .textStyle(style))
    }

    /// This font as it is at `category`: a preferred font takes its style's
    /// size there, a scaled font its metrics' scaling of its base size, a
    /// fixed font stays as it is. What `adjustsFontForContentSizeCategory`
    /// does at a change of category.
    public func resolved(at category: ContentSizeCategory) -> Font {
        switch scaling {
        case .textStyle(let style)?:
            return (try? Font.preferred(style, category: category)) ?? self
        case .metrics(let style, let base, let maximum)?:
            return FontMetrics(style).scaled(base: base, weight: weight, maximum: maximum, category: category)
        case nil:
            return self
        }
    }

    /// `body 17 pt`, `semibold 24 pt`.
    public var description: String {
        let size = pointSize == pointSize.rounded() ? String(Int(pointSize)) : String(pointSize)
        if let s = textStyle { return "\(s.rawValue) \(size) pt" }
        if case .metrics(let s, _, _)? = scaling { return "\(weight) \(size) pt (scaled as \(s.rawValue))" }
        return "\(weight) \(size) pt"
    }
}

/// `UIFontMetrics`: scales a custom size or font the way a text style scales.
///
/// Apple documents what it is for ("scaled in the same way as the text
/// style", https://developer.apple.com/documentation/uikit/uifontmetrics)
/// but not the formula. TraitLab scales in proportion to the style's point
/// size: `value × size(style, category) / size(style, large)`, unrounded.
public struct FontMetrics: Hashable, Sendable {
    /// The text style whose scaling this follows.
    public let textStyle: TextStyle

    /// `UIFontMetrics(forTextStyle:)`.
    public init(_ textStyle: TextStyle) { self.textStyle = textStyle }

    /// `scaledValue(for:compatibleWith:)`.
    public func scaledValue(_ value: Double, category: ContentSizeCategory) -> Double {
        guard let here = textStyle.metrics(at: category), let base = textStyle.metrics(at: .large) else { return value }
        // (Multiplied first: a value of the style's own size scales to the table's exactly.)
        return value * here.pointSize / base.pointSize
    }

    /// `scaledFont(for:maximumPointSize:compatibleWith:)`: `font` scaled,
    /// never past `maximumPointSize`; it keeps scaling when a label adjusts it.
    public func scaledFont(for font: Font, maximumPointSize: Double? = nil, category: ContentSizeCategory) -> Font {
        scaled(base: font.pointSize, weight: font.weight, maximum: maximumPointSize, category: category)
    }

    func scaled(base: Double, weight: String, maximum: Double?, category: ContentSizeCategory) -> Font {
        var size = scaledValue(base, category: category)
        if let maximum, maximum > 0 { size = min(size, maximum) }
        return Font(pointSize: size, weight: weight, leading: size * 1.2, scaling: .metrics(textStyle, base: base, maximum: maximum))
    }
}

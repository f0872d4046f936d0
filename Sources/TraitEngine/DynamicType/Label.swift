/// `UILabel`, for what traits change about it: its font under Dynamic Type
/// and its text colour.
///
/// With ``adjustsFontForContentSizeCategory`` on, the label's ``font`` is its
/// assigned font at the content size category of the label's own trait
/// collection, so it re-scales at the update where that category changes
/// (and not before: the collection changes only then). "For this property to
/// take effect, the element's font must be one of the following: a font
/// vended using preferredFont(forTextStyle:) or preferredFont(forTextStyle:compatibleWith:)
/// ..., a font vended using one of the UIFontMetrics methods"
/// (https://developer.apple.com/documentation/uikit/uicontentsizecategoryadjusting/adjustsfontforcontentsizecategory).
public final class Label: View {
    /// The font assigned (`font`'s setter): what scaling starts from.
    public var assignedFont: Font = .system(size: 17) {
        didSet { setNeedsLayout() }
    }
    /// `adjustsFontForContentSizeCategory` (false by default, as in UIKit).
    public var adjustsFontForContentSizeCategory = false {
        didSet { setNeedsLayout() }
    }
    /// `textColor` as assigned; nil: UIKit's default, `label`.
    public var textColor: ColorValue?
    /// `text`.
    public var text: String?

    /// A label in `world`, outside any window.
    public init(world: TraitWorld) {
        super.init(world: world, className: "Label")
    }

    /// `font` as the label shows it now: the assigned font, re-scaled to the
    /// label's content size category when ``adjustsFontForContentSizeCategory``
    /// is on and the font scales. UIKit's default font is the system font at
    /// 17 points (TraitLab's reading of a new `UILabel`).
    public var font: Font {
        guard adjustsFontForContentSizeCategory, assignedFont.scaling != nil else { return assignedFont }
        let category = ContentSizeCategory(of: traitCollection)
        return assignedFont.resolved(at: category == .unspecified ? .large : category)
    }

    /// The text colour resolved against the label's collection (nil when it
    /// has none assigned).
    public func resolvedTextColor() throws -> Color? {
        guard let textColor else { return nil }
        let tc = traitCollection
        return try world.performAsCurrent(tc) { try textColor.resolved(with: tc) }
    }
}

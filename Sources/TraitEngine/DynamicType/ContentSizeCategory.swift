/// `UIContentSizeCategory`: the text size a person chose in Settings, in
/// UIKit's order, smallest first.
///
/// The values are the cases of the `preferredContentSizeCategory` trait
/// (``SystemTraits/preferredContentSizeCategory``). Unlike the strings Lua
/// holds, categories compare by size, as UIKit's do:
///
/// ```swift
/// ContentSizeCategory.large < .accessibilityMedium        // true
/// ContentSizeCategory.accessibilityMedium.isAccessibilityCategory  // true
/// ```
public enum ContentSizeCategory: String, CaseIterable, Comparable, Sendable {
    /// `unspecified`: no category. UIKit's page for `UIContentSizeCategory`
    /// does not say where it sorts; TraitLab sorts it before every category.
    case unspecified
    /// `extraSmall` (xSmall in the HIG's table).
    case extraSmall
    /// `small`.
    case small
    /// `medium`.
    case medium
    /// `large`: the default (the HIG's Dynamic Type sizes table marks Large as the default).
    case large
    /// `extraLarge` (xLarge).
    case extraLarge
    /// `extraExtraLarge` (xxLarge).
    case extraExtraLarge
    /// `extraExtraExtraLarge` (xxxLarge), the largest standard size.
    case extraExtraExtraLarge
    /// `accessibilityMedium` (AX1), the first of the larger accessibility sizes.
    case accessibilityMedium
    /// `accessibilityLarge` (AX2).
    case accessibilityLarge
    /// `accessibilityExtraLarge` (AX3).
    case accessibilityExtraLarge
    /// `accessibilityExtraExtraLarge` (AX4).
    case accessibilityExtraExtraLarge
    /// `accessibilityExtraExtraExtraLarge` (AX5), the largest.
    case accessibilityExtraExtraExtraLarge

    /// The twelve categories in UIKit's order (the seven standard sizes, then
    /// the five accessibility sizes), without `unspecified`.
    public static let sizes: [ContentSizeCategory] = Array(allCases.dropFirst())

    /// UIKit's ordering: the order of the declaration above, which is the
    /// order of `UIContentSizeCategory`'s constants on Apple's page and of the
    /// HIG's Dynamic Type sizes table
    /// (https://developer.apple.com/documentation/uikit/uicontentsizecategory,
    /// "Comparing content size categories": `<`, `<=`, `>`, `>=`).
    public static func < (a: ContentSizeCategory, b: ContentSizeCategory) -> Bool { a.index < b.index }

    private var index: Int { ContentSizeCategory.allCases.firstIndex(of: self)! } // invariant: self is a case

    /// `isAccessibilityCategory`: whether this is one of the five larger
    /// accessibility sizes ("A Boolean value that indicates whether the
    /// content size category is associated with accessibility",
    /// https://developer.apple.com/documentation/uikit/uicontentsizecategory/isaccessibilitycategory).
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    /// `UIContentSizeCategoryCompareToCategory(a, b)` as a number: -1, 0 or 1.
    public static func compare(_ a: ContentSizeCategory, _ b: ContentSizeCategory) -> Int {
        a < b ? -1 : (a == b ? 0 : 1)
    }

    /// The category a trait value names; nil for anything else.
    public init?(traitValue: TraitValue) {
        guard case .string(let s) = traitValue, let c = ContentSizeCategory(rawValue: s) else { return nil }
        self = c
    }

    /// The category of `collection` (`unspecified` when it sets none).
    public init(of collection: TraitCollection) {
        self = ContentSizeCategory(traitValue: collection[SystemTraits.preferredContentSizeCategory]) ?? .unspecified
    }

    /// This category clamped to `minimum` and `maximum` (either may be
    /// absent). `unspecified` is left as it is: there is no size to clamp.
    /// When the minimum is larger than the maximum the maximum wins (Apple's
    /// page for `minimumContentSizeCategory` does not say; TraitLab's choice).
    public func clamped(minimum: ContentSizeCategory?, maximum: ContentSizeCategory?) -> ContentSizeCategory {
        guard self != .unspecified else { return self }
        var c = self
        if let minimum, minimum != .unspecified, c < minimum { c = minimum }
        if let maximum, maximum != .unspecified, c > maximum { c = maximum }
        return c
    }
}

/// A view's limits on the content size category: `minimumContentSizeCategory`
/// and `maximumContentSizeCategory` (UIView, iOS 15.0+).
///
/// "Setting a minimum or maximum content size category limits the content
/// size category of the view's trait collection and those of its descendants"
/// (https://developer.apple.com/documentation/uikit/uiview/minimumcontentsizecategory).
/// TraitLab applies the limits to the view's collection after its own
/// `traitOverrides` (Apple does not say which wins; a limit that an override
/// could escape would limit nothing), so descendants inherit the clamped
/// value; a descendant that overrides the category itself is clamped by the
/// limits of its nearest limiting ancestor too.
public struct ContentSizeLimits: Hashable, Sendable {
    /// The smallest category allowed; nil: no minimum.
    public var minimum: ContentSizeCategory?
    /// The largest category allowed; nil: no maximum.
    public var maximum: ContentSizeCategory?

    /// `category` within the limits (``ContentSizeCategory/clamped(minimum:maximum:)``).
    public func clamp(_ category: ContentSizeCategory) -> ContentSizeCategory {
        category.clamped(minimum: minimum, maximum: maximum)
    }

    /// UIKit's `appliedContentSizeCategoryLimitsDescription` in TraitLab's
    /// words: "minimum large, maximum accessibilityMedium".
    public var description: String {
        [minimum.map { "minimum \($0.rawValue)" }, maximum.map { "maximum \($0.rawValue)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}

extension View {
    /// The limits set on this view; nil when it sets none.
    public var contentSizeLimits: ContentSizeLimits? {
        extras?.details?.contentSizeLimits
    }

    /// `minimumContentSizeCategory`: nil (UIKit's `.unspecified`) for none.
    /// Takes effect at the next update.
    public var minimumContentSizeCategory: ContentSizeCategory? {
        get { contentSizeLimits?.minimum }
        set { setContentSizeLimits(ContentSizeLimits(minimum: newValue == .unspecified ? nil : newValue, maximum: contentSizeLimits?.maximum)) }
    }

    /// `maximumContentSizeCategory`: nil (UIKit's `.unspecified`) for none.
    /// Takes effect at the next update.
    public var maximumContentSizeCategory: ContentSizeCategory? {
        get { contentSizeLimits?.maximum }
        set { setContentSizeLimits(ContentSizeLimits(minimum: contentSizeLimits?.minimum, maximum: newValue == .unspecified ? nil : newValue)) }
    }

    private func setContentSizeLimits(_ limits: ContentSizeLimits) {
        let none = limits.minimum == nil && limits.maximum == nil
        if none && contentSizeLimits == nil { return }
        if !none { makeDetails().contentSizeLimits = limits }
        // The layer's entry marks the view as one whose collection is its own
        // (the update then computes it, and ``TraitWorld`` clamps it); its
        // value is replaced by the clamped one.
        let bound = limits.maximum ?? limits.minimum ?? .large
        setTraitLayer(.contentSizeCategoryLimits, none ? [] : [.init(definition: SystemTraits.preferredContentSizeCategory, value: .string(bound.rawValue))])
        if none { extras?.details?.contentSizeLimits = nil; releaseEmptyExtras() }
        setNeedsTraitUpdate()
    }

    /// The category this view would have without its limits: its own
    /// override, else its parent's.
    public var unclampedContentSizeCategory: ContentSizeCategory {
        if let v = traitOverride(SystemTraits.preferredContentSizeCategory), let c = ContentSizeCategory(traitValue: v) { return c }
        return ContentSizeCategory(of: traitParent?.traitCollection ?? traitCollection)
    }

    /// Whether this view's limits changed its category (what `:why` names).
    public var contentSizeLimitsApplied: Bool {
        guard let limits = contentSizeLimits else { return false }
        let c = unclampedContentSizeCategory
        return limits.clamp(c) != c
    }
}

extension TraitWorld {
    /// `merged` (`e`'s collection from `base` with its layers and overrides)
    /// with `preferredContentSizeCategory` clamped by `e`'s limits, or, when
    /// `e` overrides the category itself, by its nearest limiting ancestor's.
    func applyingContentSizeLimits(_ e: TraitEnvironment, _ merged: TraitCollection, base: TraitCollection) -> TraitCollection {
        let d = SystemTraits.preferredContentSizeCategory
        let limits: ContentSizeLimits
        let value: ContentSizeCategory
        if let v = e.asView, let own = v.contentSizeLimits {
            limits = own
            value = v.traitOverride(d).flatMap(ContentSizeCategory.init(traitValue:)) ?? ContentSizeCategory(of: base)
        } else if let o = e.traitOverride(d), let own = ContentSizeCategory(traitValue: o) {
            var node = e.traitParent
            var found: ContentSizeLimits?
            while let n = node, found == nil {
                found = n.asView?.contentSizeLimits
                node = n.traitParent
            }
            guard let found else { return merged }
            limits = found
            value = own
        } else {
            return merged
        }
        let clamped = limits.clamp(value)
        if merged[d] == .string(clamped.rawValue) { return merged }
        return merged.applying([.init(definition: d, value: .string(clamped.rawValue))])
    }
}

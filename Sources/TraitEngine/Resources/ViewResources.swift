/// What a view shows beyond its traits: its tint colour and, for an image
/// view, its image (kept in the environment's details: most views have none).
final class ViewResources {
    var tintColor: ColorValue?
    var image: ImageAsset?
    var isImageView = false
}

extension View {
    private var resources: ViewResources? { extras?.details?.resources }

    private func makeResources() -> ViewResources {
        let d = makeDetails()
        if let r = d.resources { return r }
        let r = ViewResources()
        d.resources = r
        return r
    }

    /// The view's own tint colour (`UIView.tintColor` as set on this view);
    /// nil to inherit its superview's. ``resolvedTintColor()`` gives the
    /// colour it shows.
    public var tintColor: ColorValue? {
        get { resources?.tintColor }
        set {
            guard newValue != nil || resources != nil else { return }
            makeResources().tintColor = newValue
            setNeedsDisplay()
        }
    }

    /// Whether this view is an image view (`UIImageView`), which has an ``image``.
    public var isImageView: Bool {
        get { resources?.isImageView ?? false }
        set { if newValue || resources != nil { makeResources().isImageView = newValue } }
    }

    /// An image view's image asset (`UIImageView.image` set to
    /// `UIImage(named:)`); ``resolvedImage`` is the variant it shows.
    public var image: ImageAsset? {
        get { resources?.image }
        set {
            guard newValue != nil || resources != nil else { return }
            makeResources().image = newValue
            setNeedsDisplay()
        }
    }

    /// The variant of ``image`` for the view's trait collection: what
    /// `UIImageView` shows (the asset's `image(with: traitCollection)`).
    /// It follows the view's traits, so it changes at the update where a
    /// trait the image set reads changes, and only then.
    public var resolvedImage: ImageVariant? { image?.variant(for: traitCollection) }

    /// Whether a change of `traits` can change ``resolvedImage``: the view
    /// shows an image whose set reads one of them (its ``ImageAsset/traitsRead``,
    /// within `systemTraitsAffectingImageLookup`). The update then schedules
    /// the view's display, as `UIImageView` redraws when its image's variant
    /// can change, so `draw()` and what follows it see the new variant.
    func imageReads(anyOf traits: [TraitDefinition]) -> Bool {
        guard let read = resources?.image?.traitsRead, !read.isEmpty else { return false }
        return traits.contains { d in read.contains { $0 === d } }
    }

    /// ``backgroundColor`` resolved for the view's trait collection, with
    /// the traits that chose it; nil when the view has no background colour.
    public func resolvedBackgroundColor() throws -> ColorResolution? {
        try backgroundColor?.resolution(with: traitCollection)
    }

    /// The view whose tint colour this view shows and that colour: its own,
    /// else the nearest superview's ("the first nondefault tint color value
    /// in the view's hierarchy, ascending from and starting with the view
    /// itself": Apple's `UIView.tintColor` page), else nil.
    public var inheritedTintColor: (source: View, color: ColorValue)? {
        var v: View? = self
        var steps = 0
        while let view = v, steps < 100_000 {
            if let c = view.tintColor { return (view, c) }
            v = view.superview
            steps += 1
        }
        return nil
    }

    /// The tint colour the view shows, resolved for its own trait
    /// collection: the inherited one (``inheritedTintColor``), or the
    /// system's default tint, `systemBlue`, when no view up the hierarchy
    /// sets one (Apple's `UIView.tintColor` page).
    public func resolvedTintColor() throws -> ColorResolution {
        let color = inheritedTintColor?.color ?? .named(SystemColors.color(named: "systemBlue", os: world.os)!)   // invariant: in the table
        return try color.resolution(with: traitCollection)
    }
}

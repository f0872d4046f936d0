// MARK: - View

/// A view: inherits from the view controller that owns it, else from its superview.
open class View: TraitEnvironment {
    // Stored in TraitEnvironment (`superviewStorage` and the others), next to
    // what an update reads of every environment.
    /// The view this view is a subview of, if any (unretained: the superview holds it).
    public private(set) final var superview: View? {
        @inline(__always) get { superviewStorage?.takeUnretainedValue() }
        set {
            superviewStorage = newValue.map { Unmanaged.passUnretained($0) }
            if mayHoldPresenter { world.hierarchyGeneration &+= 1 }
        }
    }
    /// The subviews, back to front.
    public final var subviews: [View] { @inline(__always) get { subviewStorage } }
    /// The view controller whose `view` this is (kept in the extras: few views have one).
    public internal(set) final var owningViewController: ViewController? {
        @inline(__always) get {
            hasOwningViewController ? extras.unsafelyUnwrapped.owningViewController?.takeUnretainedValue() : nil
        }
        set {
            if newValue == nil && !hasOwningViewController { return }
            makeExtras().owningViewController = newValue.map { Unmanaged.passUnretained($0) }
            setFlag(.hasOwningViewController, newValue != nil)
            if mayHoldPresenter || newValue?.presentingController != nil { world.hierarchyGeneration &+= 1 }
            if newValue == nil { releaseEmptyExtras() }
        }
    }

    /// Whether a presentation's window can depend on where this view is: it
    /// has subviews, or its controller presents something. A leaf view moving
    /// (most changes) leaves every presentation's window as it was.
    final var mayHoldPresenter: Bool {
        !subviewStorage.isEmpty || owningViewController?.presentingController != nil
    }

    /// Whether `parent` is this view's superview.
    @inline(__always) final func isSubview(of parent: TraitEnvironment) -> Bool {
        superviewStorage?.toOpaque() == Unmanaged.passUnretained(parent).toOpaque()
    }
    /// The same, given `parent` as an opaque pointer.
    @inline(__always) final func isSubview(ofOpaque parent: UnsafeMutableRawPointer) -> Bool {
        superviewStorage?.toOpaque() == parent
    }
    @inline(__always) final var hasOwningViewController: Bool { flags.contains(.hasOwningViewController) }
    /// The background color; dynamic colors resolve against the view's traits
    /// (kept in the extras' details: most views have none).
    public var backgroundColor: ColorValue? {
        get { extras?.details?.backgroundColor }
        set {
            if newValue != nil || extras?.details != nil { makeDetails().backgroundColor = newValue }
            if newValue == nil { releaseEmptyExtras() }
            setNeedsDisplay()
        }
    }

    /// A view with no superview, outside any window (`UIView()`).
    /// - Parameters:
    ///   - world: The world the view belongs to: it updates with that world's ``TraitWorld/update()``.
    ///   - className: The class name its description shows (`View "card"`).
    public init(world: TraitWorld, className: String = "View") {
        super.init(world: world, className: className, kind: .view)
    }

    /// For ``Window``.
    override init(world: TraitWorld, className: String, kind: Kind) {
        super.init(world: world, className: className, kind: kind)
    }

    deinit {
        for s in subviews {
            s.superview = nil
        }
        Graveyard.take(&subviewStorage)
        Graveyard.drain()
    }

    override public var traitParent: TraitEnvironment? {
        if let vc = owningViewController, vc.viewIfLoaded === self { return vc }
        return superview
    }

    override func inherits(from parent: TraitEnvironment) -> Bool {
        if let vc = owningViewController, vc.viewIfLoaded === self { return vc === parent }
        return superview === parent
    }

    override public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {
        if let s = superview { body(s) }
        if let vc = owningViewController, vc.viewIfLoaded === self { body(vc) }
    }

    /// What subview `s` stands for in the trait tree below this view: `s`, or
    /// the controller that owns it; nil when that inherits from elsewhere now.
    func traitChild(for s: View) -> TraitEnvironment? {
        if let vc = s.owningViewController { return vc.inherits(from: self) ? vc : nil }
        return s.superview === self ? s : nil
    }

    override func forEachTraitChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        for s in subviews {
            if let vc = s.owningViewController {
                if vc.inherits(from: self) { try body(vc) }
            } else {
                try body(s)   // a subview's superview is this view
            }
        }
    }

    /// The window this view is in: up the superviews, or through the presenting
    /// view controller for a presented view.
    public var window: Window? {
        // A presented controller's view is in its presenter's window: the
        // walk crosses each presentation up the chain, and each presentation
        // keeps the window found (until the hierarchy changes), so asking
        // from every level of a deep chain costs no walk of the whole chain.
        let generation = world.hierarchyGeneration
        var v: View = self
        var crossed: [PresentationController] = []
        var found: Window?
        var steps = 0
        while true {
            if let w = v as? Window { found = w; break }
            if let s = v.superview { v = s }
            else if let vc = v.owningViewController, let pc = vc.presentationController,
                    let presenter = pc.presentingViewController, let pv = presenter.viewIfLoaded {
                if let known = pc.knownWindow(at: generation) { found = known; break }
                crossed.append(pc)
                v = pv
            }
            else { break }
            steps += 1
            if steps > 1_000_000 { return nil }
        }
        for pc in crossed { pc.remember(found, at: generation) }
        return found
    }

    /// Whether `other` is this view or one of its ancestors (superviews, or the
    /// views of presenting view controllers).
    func hasAncestor(_ other: View) -> Bool {
        var v: View? = self
        while let cur = v {
            if cur === other { return true }
            if let s = cur.superview { v = s }
            else if let vc = cur.owningViewController, let p = vc.presentingViewController { v = p.viewIfLoaded }
            else { v = nil }
        }
        return false
    }

    /// Adds `view` as the last subview, moving it from its previous superview.
    /// Adding a view below itself, or a window, is an error and changes nothing.
    public func addSubview(_ view: View) throws {
        try insertSubview(view, at: nil)
    }

    /// Inserts `view` as a subview at `index` in ``subviews`` (nil: last), moving it
    /// from its previous superview (`insertSubview(_:at:)`).
    /// - Throws: ``TraitError`` when `view` is this view, one of its ancestors or a
    ///   window, or `index` is out of range; nothing changes then.
    public func insertSubview(_ view: View, at index: Int?) throws {
        try insertSubview(view, at: index, asRootViewOf: nil)
    }

    /// `root` is the controller being made a window's root, whose view may be inserted.
    func insertSubview(_ view: View, at index: Int?, asRootViewOf root: ViewController?) throws {
        if view is Window { throw TraitError("cannot add \(view) as a subview: a window has no superview") }
        // A view with nothing below it (the usual new view) cannot be above
        // this one: the walks up the tree below are needed only otherwise, so
        // building a deep chain stays linear.
        let host = view.traitHost
        let isLeaf = view.subviews.isEmpty
            && (host === view || (host.asViewController.map { $0.children.isEmpty && $0.presentedViewController == nil } ?? false))
        if view === self || (!isLeaf && hasAncestor(view)) {
            throw TraitError(view === self ? "cannot add \(view) as a subview of itself"
                             : "cannot add \(view) as a subview of \(self): it is an ancestor of \(self)")
        }
        if let vc = view.owningViewController, vc !== root, vc.windowAsRoot != nil || vc.presentingViewController != nil {
            throw TraitError("cannot add \(view) as a subview: it is the view of \(vc), which is \(vc.windowAsRoot != nil ? "a window's root view controller" : "presented")")
        }
        if !isLeaf, isContained(inAnyOf: [view, host]) {
            throw TraitError("cannot add \(view) as a subview of \(self): \(self) is below \(host === view ? "it" : "\(host), whose view it is")")
        }
        if let i = index, i < 0 || i > subviews.count - (view.superview === self ? 1 : 0) {
            // 1-based in the message, without arithmetic that could overflow on Int.max.
            let shown = i == Int.max ? "\(i)" : "\(i + 1)"
            throw TraitError("subview index \(shown) is out of range (1 to \(subviews.count + 1))")
        }
        let old = view.superview
        if let old {
            old.subviewStorage.removeAll { $0 === view }
            view.unlinked(from: old)
        }
        view.linked(to: self)
        view.superview = self
        if let i = index { subviewStorage.insert(view, at: i) } else { subviewStorage.append(view) }
        if old != nil { world.structureChanged = true }
        view.traitHost.setNeedsStructureUpdate()
        setNeedsLayout()
    }

    /// Removes this view from its superview; harmless when it has none.
    public func removeFromSuperview() {
        guard let s = superview else { return }
        s.subviewStorage.removeAll { $0 === self }
        superview = nil
        world.structureChanged = true
        world.hasPendingWork = true
        s.setNeedsLayout()
        unlinked(from: s)
    }

    /// The environment that carries this view in the trait tree: its owning
    /// view controller when it has one.
    var traitHost: TraitEnvironment {
        if let vc = owningViewController, vc.viewIfLoaded === self { return vc }
        return self
    }

    // MARK: Layout and display

    /// Schedules `layoutSubviews()` for the next ``TraitWorld/update()`` (`setNeedsLayout()`).
    public func setNeedsLayout() {
        markPending(.layout, .subtreeLayout, next: world.layoutComesNext)
    }

    /// Schedules `draw()` for the next ``TraitWorld/update()`` (`setNeedsDisplay()`).
    public func setNeedsDisplay() {
        pending.insert(.display)
        propagateUp(.subtreeDisplay)
    }

    /// Schedules `updateProperties()` for the next ``TraitWorld/update()`` (`setNeedsUpdateProperties()`, iOS 26).
    public func setNeedsUpdateProperties() {
        markNeedsUpdateProperties()
    }

    /// `updatePropertiesIfNeeded` (iOS 26): runs the pending
    /// `updateProperties` of this view's ancestors (outermost first), this
    /// view and its subviews now.
    public func updatePropertiesIfNeeded() throws {
        try world.updatePropertiesNow(traitHost)
    }

    /// `setNeedsUpdateConstraints`: `updateConstraints` runs at the next
    /// update, before layout; for a view controller's view, its controller's
    /// `updateViewConstraints` too ("Called when the view controller's view
    /// needs to update its constraints", updateViewConstraints).
    public func setNeedsUpdateConstraints() {
        markNeedsUpdateConstraints()
        if let vc = owningViewController, vc.viewIfLoaded === self { vc.markNeedsUpdateConstraints() }
    }

    /// `updateConstraintsIfNeeded`: "Updates the constraints for the
    /// receiving view and its subviews" now (after what its ancestors still need).
    public func updateConstraintsIfNeeded() throws {
        try world.updateConstraintsNow(traitHost)
    }

    /// Runs the update's traversal for this view's subtree at once (from the
    /// outermost ancestor in an unbroken line that needs layout): what it
    /// inherits from is updated first, so layout sees fresh traits.
    public func layoutIfNeeded() throws {
        try world.layoutNow(self)
    }

    /// Performs `action` on this view (each ``TraitEnvironment/BuiltinAction`` is one of its methods).
    override open func perform(_ action: BuiltinAction) throws {
        switch action {
        case .setNeedsLayout: setNeedsLayout()
        case .setNeedsDisplay: setNeedsDisplay()
        case .setNeedsUpdateProperties: setNeedsUpdateProperties()
        case .layoutIfNeeded: try layoutIfNeeded()
        case .updateTraitsIfNeeded: try updateTraitsIfNeeded()
        }
    }

    /// Lays out the subviews: override it as UIKit's `layoutSubviews()`. It runs at
    /// an update after ``setNeedsLayout()`` and when the view enters a window,
    /// with its ``TraitEnvironment/traitCollection`` current, and from iOS 18
    /// again when a trait it read changes (automatic trait tracking).
    ///
    /// Unlike UIKit's, it may throw: an error propagates out of
    /// ``TraitWorld/update()``, and the work not done stays pending.
    open func layoutSubviews() throws { try invoke(.layoutSubviews) }
    /// Draws the view: override it as UIKit's `draw(_:)` (there is no rectangle:
    /// nothing is drawn). It runs at an update after ``setNeedsDisplay()``, when
    /// the view enters a window or a trait affecting color appearance changes,
    /// and from iOS 18 when a trait it read changes. It may throw, as
    /// ``layoutSubviews()`` may.
    open func draw() throws { try invoke(.draw) }
    /// Updates the view's properties from its traits (`updateProperties()`, iOS 26):
    /// runs at an update after ``setNeedsUpdateProperties()``, before layout, and
    /// again when a trait it read changes. Never called in a world before iOS 26.
    /// It may throw, as ``layoutSubviews()`` may.
    open func updateProperties() throws { try invoke(.updateProperties) }
    /// Updates the view's constraints (`updateConstraints()`): runs at an update
    /// after ``setNeedsUpdateConstraints()``, before layout. It may throw, as
    /// ``layoutSubviews()`` may.
    open func updateConstraints() throws { try invoke(.updateConstraints) }
}

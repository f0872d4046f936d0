// MARK: - View controller

/// A view controller: owns a view (created on first access), children, and
/// what it presents.
open class ViewController: TraitEnvironment {
    enum Appearance { case disappeared, appearing, appeared, disappearing }

    /// The controller's view if it is loaded, else nil (`viewIfLoaded`).
    @exclusivity(unchecked) public private(set) var viewIfLoaded: View? {
        didSet { if mayHoldPresenter || oldValue?.mayHoldPresenter == true { world.hierarchyGeneration &+= 1 } }
    }
    /// The parent view controller, if this is a child (``addChild(_:)``).
    @exclusivity(unchecked) public private(set) unowned(unsafe) var parent: ViewController?
    /// The child view controllers, in the order they were added.
    @exclusivity(unchecked) public private(set) var children: [ViewController] = []
    /// The window this controller is the root of.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var windowAsRoot: Window?
    /// When presented: the presentation controller presenting it.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var presentationController: PresentationController? {
        didSet { if mayHoldPresenter { world.hierarchyGeneration &+= 1 } }
    }

    /// Whether a presentation's window can depend on this controller's place
    /// (see ``View/mayHoldPresenter``): it presents, or its view has subviews.
    final var mayHoldPresenter: Bool {
        presentingController != nil || viewIfLoaded?.mayHoldPresenter == true
    }
    /// The presentation controller of what this controller presents.
    @exclusivity(unchecked) public private(set) var presentingController: PresentationController?
    @exclusivity(unchecked) var appearance = Appearance.disappeared
    /// Builds the view on first access (`loadView`); nil gives a plain `View`.
    public var makeView: ((ViewController) throws -> View)?
    /// `modalPresentationStyle`: how this controller is shown when presented.
    public var modalPresentationStyle: PresentationStyle = .automatic
    /// `definesPresentationContext`: whether a `currentContext` or
    /// `overCurrentContext` presentation requested at or below this
    /// controller is made by it.
    public var definesPresentationContext = false

    /// A view controller whose view is not loaded yet (``loadViewIfNeeded()``).
    /// - Parameters:
    ///   - world: The world the controller belongs to.
    ///   - className: The class name its description shows.
    public init(world: TraitWorld, className: String = "ViewController") {
        super.init(world: world, className: className, kind: .viewController)
    }

    deinit {
        viewIfLoaded?.owningViewController = nil
        for c in children {
            c.parent = nil
        }
        Graveyard.take(&children)
        Graveyard.take(&viewIfLoaded)
        Graveyard.take(&presentingController)
        Graveyard.drain()
    }

    /// The controller this one presents (the presentation it made), if any.
    public var presentedViewController: ViewController? { presentingController?.presentedViewController }
    /// The controller that presents this one, if it is presented (see ``presentingViewControllerOfNearestPresentedAncestor`` for UIKit's wider meaning).
    public var presentingViewController: ViewController? { presentationController?.presentingViewController }
    /// The presentation this controller's `present` call asked for, made by
    /// it or by an ancestor it was forwarded to (nil when none is current).
    public internal(set) weak var requestedPresentation: PresentationController?

    /// `presentingViewController` as UIKit documents it: "If the view
    /// controller is not presented, but one of its ancestors is being
    /// presented, this property holds the view controller presenting the
    /// nearest ancestor."
    public var presentingViewControllerOfNearestPresentedAncestor: ViewController? {
        var c: ViewController? = self
        while let cur = c {
            if let p = cur.presentingViewController { return p }
            c = cur.parent
        }
        return nil
    }

    /// `presentedViewController` as UIKit documents it: "the view controller
    /// that called the method has this property set to the view controller
    /// that it presented", whether it made the presentation or forwarded it.
    public var presentedViewControllerOfRequest: ViewController? {
        if let p = presentedViewController { return p }
        if let pc = requestedPresentation, pc.isPresenting { return pc.presentedViewController }
        return nil
    }

    override public var traitParent: TraitEnvironment? {
        if let w = windowAsRoot { return w }
        if let pc = presentationController { return pc }
        if world.hierarchyMode == .ios17, let v = viewIfLoaded {
            // iOS 17: from the view's superview; a loaded view outside any
            // superview has nothing to inherit from, so it does not update.
            return v.superview
        }
        return parent
    }

    override public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {
        if let p = parent { body(p) }
        if let w = windowAsRoot { body(w) }
        if let pc = presentationController { body(pc) }
    }

    override func forEachCandidateChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        // (What it presents inherits from the window that shows it.)
        if let v = viewIfLoaded { try body(v) }
        for c in children { try body(c) }
    }

    /// The view, loading it (and calling `viewDidLoad`) on first access.
    public func loadViewIfNeeded() throws -> View {
        if let v = viewIfLoaded { return v }
        let v = try makeView?(self) ?? View(world: world)
        if let owner = v.owningViewController, owner !== self {
            throw TraitError("\(v) is already the view of \(owner)")
        }
        viewIfLoaded = v
        v.owningViewController = self
        v.linked(to: self)
        // The view inherits from this controller from now on: without a mark,
        // a view loaded under a controller already in a scene (a legacy-mode
        // child) kept its empty collection until something else changed.
        v.setNeedsStructureUpdate()
        try viewDidLoad()
        return v
    }

    /// Whether the view is loaded and in a window of a connected scene.
    var isViewInWindow: Bool {
        guard let w = viewIfLoaded?.window, let scene = w.windowScene else { return false }
        return scene.isConnected
    }

    /// Whether `other` is this controller or above it (parents, presenters).
    func hasAncestor(_ other: ViewController) -> Bool {
        var c: ViewController? = self
        while let cur = c {
            if cur === other { return true }
            c = cur.parent ?? cur.presentingViewController
        }
        return false
    }

    /// Adds a child view controller. A controller that already has a parent,
    /// a window or a presenter, or that is above this one, is refused.
    public func addChild(_ child: ViewController) throws {
        if hasAncestor(child) {
            throw TraitError(child === self ? "cannot add \(child) as a child of itself"
                             : "cannot add \(child) as a child of \(self): it is an ancestor of \(self)")
        }
        if let p = child.parent { throw TraitError("\(child) is already a child of \(p); remove it from its parent first") }
        if let w = child.windowAsRoot { throw TraitError("\(child) is the root view controller of \(w)") }
        if let p = child.presentingViewController { throw TraitError("\(child) is presented by \(p)") }
        if isContained(inAnyOf: [child]) { throw TraitError("cannot add \(child) as a child of \(self): \(self) is below it") }
        children.append(child)
        child.parent = self
        child.linked(to: self)
        child.setNeedsStructureUpdate()
    }

    /// Removes this controller from its parent; harmless without one.
    public func removeFromParent() {
        guard let p = parent else { return }
        p.children.removeAll { $0 === self }
        parent = nil
        setTraitLayer(.overrideTraitCollection, [])
        world.structureChanged = true
        world.hasPendingWork = true
        setNeedsStructureUpdate()
        unlinked(from: p)
    }

    /// The controller that makes a presentation in `style` requested here
    /// (`present(_:animated:completion:)`: "If the current view controller is
    /// unable to fulfill a request, it forwards the request up the view
    /// controller hierarchy to its nearest parent"). A context style goes to
    /// the nearest controller at or above this one whose
    /// `definesPresentationContext` is true ("UIKit starts at the presenting
    /// view controller and walks up the view controller hierarchy",
    /// definesPresentationContext); any other style, and a context style
    /// that no controller defines, to the top of the parent chain: the
    /// window's root view controller, or a presented controller (Apple:
    /// "a full-screen presentation must be made by a view controller that
    /// itself covers the entire screen"; that a presented controller is such
    /// a top is TraitLab's reading, Apple does not say).
    public func presentationTarget(for style: PresentationStyle) -> ViewController {
        var c: ViewController = self
        if style.isContextual {
            var cur: ViewController? = self
            while let x = cur {
                if x.definesPresentationContext { return x }
                cur = x.parent
            }
        }
        while let p = c.parent { c = p }
        return c
    }

    /// Presents `other` (`present(_:animated:completion:)`): the controller
    /// that makes the presentation (``presentationTarget(for:)``, in the
    /// style `other` asks for) makes a new presentation controller, and
    /// `other`'s view joins that controller's window.
    public func present(_ other: ViewController) throws {
        let target = other === self ? self : presentationTarget(for: other.modalPresentationStyle)
        try target.makePresentation(of: other, requestedBy: self)
    }

    private func makePresentation(of other: ViewController, requestedBy requester: ViewController) throws {
        if let current = presentedViewController {
            throw TraitError("\(self) is already presenting \(current); dismiss it first")
        }
        // A controller with nothing below it (no children, no presentation,
        // no subviews: a new one, usually) cannot be above this one; the
        // walks up the chain are for the others (each walk is as long as
        // the chain: a chain of presentations would be quadratic).
        let isLeaf = other.children.isEmpty && !other.mayHoldPresenter
        if other.hasAncestor(self) || (!isLeaf && hasAncestor(other)) {
            throw TraitError("cannot present \(other) from \(self): it is \(other === self ? "the same view controller" : "in the same chain")")
        }
        if let p = other.parent { throw TraitError("\(other) is a child of \(p); remove it from its parent first") }
        if let w = other.windowAsRoot { throw TraitError("\(other) is the root view controller of \(w)") }
        if let p = other.presentingViewController { throw TraitError("\(other) is already presented by \(p)") }
        if let v = other.viewIfLoaded, v.superview != nil {
            throw TraitError("the view of \(other) is in a superview; remove it first")
        }
        if !isLeaf && isContained(inAnyOf: [other]) {
            throw TraitError("cannot present \(other) from \(self): \(self) is below it")
        }
        if let v = other.viewIfLoaded, let mine = viewIfLoaded, mine.hasAncestor(v) {
            // The presented view joins the presenter's window, so it would contain itself.
            throw TraitError("cannot present \(other) from \(self): the view of \(self) is inside the view of \(other)")
        }
        let pc = PresentationController(world: world, presenting: self, presented: other)
        pc.requestingViewController = requester
        requester.requestedPresentation = pc
        presentingController = pc
        pc.linked(to: self)
        other.presentationController = pc
        _ = try other.loadViewIfNeeded()
        pc.lastParent = pc.traitParent
        pc.setNeedsStructureUpdate()
        pc.setNeedsLayout()
    }

    /// Dismisses what this controller presents, or itself when it is
    /// presented; a controller that does neither forwards the call to its
    /// parent, as UIKit forwards it to the presenting controller.
    public func dismiss() {
        if presentingController == nil, presentingViewController == nil, let p = parent {
            return p.dismiss()
        }
        if let pc = presentingController {
            presentingController = nil
            pc.presentedViewController.presentationController = nil
            world.structureChanged = true
            world.hasPendingWork = true
            pc.presentedViewController.setNeedsStructureUpdate()
            pc.unlinked(from: self)
        } else if let presenter = presentingViewController {
            presenter.dismiss()
        }
    }

    /// Schedules this controller's own `updateProperties` for the next update.
    public func setNeedsUpdateProperties() {
        markNeedsUpdateProperties()
    }

    /// Performs `action`: ``TraitEnvironment/BuiltinAction/updateTraitsIfNeeded`` and ``TraitEnvironment/BuiltinAction/setNeedsUpdateProperties`` on this controller, the other actions on its view (if loaded).
    override open func perform(_ action: BuiltinAction) throws {
        switch action {
        case .updateTraitsIfNeeded: try updateTraitsIfNeeded()
        case .setNeedsUpdateProperties: setNeedsUpdateProperties()
        default: try viewIfLoaded?.perform(action)
        }
    }

    /// Called once the view is loaded (``loadViewIfNeeded()``): override it as
    /// UIKit's `viewDidLoad()`. Unlike UIKit's, these callbacks may throw: an
    /// error propagates to the call that loaded the view, or out of
    /// ``TraitWorld/update()``.
    open func viewDidLoad() throws { try invoke(.viewDidLoad) }
    /// Called at an update when the view is about to join a window of a connected scene (`viewWillAppear(_:)`, without `animated`).
    open func viewWillAppear() throws { try invoke(.viewWillAppear) }
    /// Called at an update once the view is in the window and has its traits, before layout (`viewIsAppearing(_:)`).
    open func viewIsAppearing() throws { try invoke(.viewIsAppearing) }
    /// Called at the end of the update in which the view appeared (`viewDidAppear(_:)`).
    open func viewDidAppear() throws { try invoke(.viewDidAppear) }
    /// Called at an update when the view is leaving its window, or its scene disconnected (`viewWillDisappear(_:)`).
    open func viewWillDisappear() throws { try invoke(.viewWillDisappear) }
    /// Called at the end of the update in which the view disappeared (`viewDidDisappear(_:)`).
    open func viewDidDisappear() throws { try invoke(.viewDidDisappear) }
    /// Called before the view lays out (`viewWillLayoutSubviews()`); tracked as `layoutSubviews()` is.
    open func viewWillLayoutSubviews() throws { try invoke(.viewWillLayoutSubviews) }
    /// Called after the view laid out (`viewDidLayoutSubviews()`); tracked as `layoutSubviews()` is.
    open func viewDidLayoutSubviews() throws { try invoke(.viewDidLayoutSubviews) }
    /// Updates the controller's properties from its traits (`updateProperties()`, iOS 26): after ``setNeedsUpdateProperties()``, and again when a trait it read changes.
    open func updateProperties() throws { try invoke(.updateProperties) }
    /// Updates the view's constraints (`updateViewConstraints()`): when the view needs its constraints updated (``View/setNeedsUpdateConstraints()``).
    open func updateViewConstraints() throws { try invoke(.updateViewConstraints) }
    /// Called before the controller's view changes size in a rotation or a
    /// scene resize, before any trait changes (`viewWillTransition(to:with:)`,
    /// Transitions.swift): `size` is the scene's new size in points. The
    /// engine calls each controller itself, parents first.
    open func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) throws {
        try world.activeDelegate?.environment(self, viewWillTransitionTo: size, with: coordinator)
    }
    /// Called before the controller's collection changes in a rotation or a
    /// scene resize (`willTransition(to:with:)`): `newCollection` is the one
    /// it is about to get.
    open func willTransition(to newCollection: TraitCollection, with coordinator: TransitionCoordinator) throws {
        try world.activeDelegate?.environment(self, willTransitionTo: newCollection, with: coordinator)
    }

    /// `updatePropertiesIfNeeded` (iOS 26): this controller's pending
    /// `updateProperties`, its ancestors' first, and its view's subtree's, now.
    public func updatePropertiesIfNeeded() throws {
        try world.updatePropertiesNow(self)
    }

    /// `setOverrideTraitCollection(_:forChild:)`: the traits `collection`
    /// specifies become `child`'s ``TraitLayer/overrideTraitCollection``
    /// layer (nil removes it). `child` must be a child of this controller.
    /// The child's own `traitOverrides` win over them (Apple does not say
    /// how the two combine; TraitLab's choice). Removing the child from its
    /// parent drops them, as the parent no longer holds it.
    public func setOverrideTraitCollection(_ collection: TraitCollection?, forChild child: ViewController) throws {
        guard child.parent === self else {
            throw TraitError("\(child) is not a child of \(self): setOverrideTraitCollection works on its child view controllers")
        }
        child.setTraitLayer(.overrideTraitCollection, collection?.entries ?? [])
    }

    /// `overrideTraitCollection(forChild:)`: what
    /// ``setOverrideTraitCollection(_:forChild:)`` set for `child`, or nil.
    public func overrideTraitCollection(forChild child: ViewController) -> TraitCollection? {
        guard child.parent === self else { return nil }
        let entries = child.traitLayer(.overrideTraitCollection)
        return entries.isEmpty ? nil : TraitCollection(sortedEntries: entries)
    }
}

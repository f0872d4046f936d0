// MARK: - Presentation controller

/// UIKit's modal presentation styles (`UIModalPresentationStyle`).
public enum PresentationStyle: String, CaseIterable, Sendable {
    /// `UIModalPresentationStyle`'s cases of the same names: `automatic` (the
    /// default: a page sheet), `fullScreen`, `overFullScreen`, `pageSheet`,
    /// `formSheet`, `currentContext` and `overCurrentContext` (made by the
    /// controller that defines the presentation context), and `popover`.
    /// ``adapted(horizontal:vertical:)`` gives the style shown.
    case automatic, fullScreen, overFullScreen, pageSheet, formSheet, currentContext, overCurrentContext, popover

    /// Whether the presenter is found through `definesPresentationContext`.
    public var isContextual: Bool { self == .currentContext || self == .overCurrentContext }

    /// The style shown in an environment with these size classes (UIKit's
    /// adaptive presentations; iOS 13 and later):
    /// - `automatic` is `pageSheet` ("For most view controllers, UIKit maps
    ///   this style to the UIModalPresentationStyle.pageSheet style",
    ///   UIModalPresentationStyle.automatic).
    /// - `popover`: a popover in a regular-width, regular-height environment;
    ///   "for horizontally or vertically compact environments, this option
    ///   behaves the same as UIModalPresentationStyle.formSheet"
    ///   (UIModalPresentationStyle.popover).
    /// - `pageSheet` and `formSheet`: themselves in regular width and height;
    ///   "in a compact-width, regular-height size class, the system displays
    ///   the view controller as a sheet" (shown as `pageSheet`), and "in a
    ///   compact-height size class, the behavior is the same as" `fullScreen`
    ///   (UIModalPresentationStyle.pageSheet, .formSheet).
    /// - the full-screen and context styles do not adapt.
    /// An unspecified size class counts as regular (Apple is silent).
    public func adapted(horizontal: String, vertical: String) -> PresentationStyle {
        let compactWidth = horizontal == "compact", compactHeight = vertical == "compact"
        switch self {
        case .automatic:
            return PresentationStyle.pageSheet.adapted(horizontal: horizontal, vertical: vertical)
        case .popover:
            if !compactWidth && !compactHeight { return .popover }
            return PresentationStyle.formSheet.adapted(horizontal: horizontal, vertical: vertical)
        case .pageSheet, .formSheet:
            if compactHeight { return .fullScreen }
            return compactWidth ? .pageSheet : self
        case .fullScreen, .overFullScreen, .currentContext, .overCurrentContext:
            return self
        }
    }

    /// Whether content shown in this (adapted) style is at the `elevated`
    /// interface level: "the system assigns the UIUserInterfaceLevel.elevated
    /// level to alerts and popovers" (UITraitCollection.userInterfaceLevel),
    /// and sheets, which WWDC19 "Implementing Dark Mode on iOS" shows with
    /// the elevated background colours. Full-screen content stays at the
    /// window's level.
    public var isElevated: Bool { self == .popover || self == .pageSheet || self == .formSheet }
}

/// Manages one presentation. It inherits from the window that shows the
/// presentation, not from the presenting view controller (Apple: a window's
/// `overrideUserInterfaceStyle` reaches "all presentation controllers that
/// display content in that window", a view controller's reaches "its entire
/// view hierarchy, and any embedded child view controllers"), and the
/// presented view controller inherits from it.
public final class PresentationController: TraitEnvironment {
    /// Weak: a script may keep the presentation controller after its presenter is gone.
    @exclusivity(unchecked) public private(set) weak var presentingViewController: ViewController?
    /// The controller whose `present` call made this presentation (a child
    /// of the presenter, or the presenter itself).
    @exclusivity(unchecked) public internal(set) weak var requestingViewController: ViewController?
    /// Nil only once this controller is being freed.
    private var presented: ViewController?
    /// The controller being presented.
    public var presentedViewController: ViewController { presented.unsafelyUnwrapped }
    /// The style the presented controller asked for (its `modalPresentationStyle` when presented).
    public let presentationStyle: PresentationStyle
    /// The window found the last time the world checked (``TraitWorld``'s
    /// `reparentPresentations`): a different one means the presentation moved.
    weak var lastParent: TraitEnvironment?
    /// Where the world lists this presentation (``TraitWorld/addPresentation(_:)``).
    var presentationSlot = -1

    init(world: TraitWorld, presenting: ViewController, presented: ViewController) {
        self.presentingViewController = presenting
        self.presented = presented
        self.presentationStyle = presented.modalPresentationStyle
        super.init(world: world, className: "PresentationController", kind: .presentationController)
        presented.linked(to: self)
        world.addPresentation(self)
    }

    deinit {
        world.removePresentation(self)
        if presentedViewController.presentationController === self {
            presentedViewController.presentationController = nil
        }
        Graveyard.take(&presented)
        Graveyard.drain()
    }

    /// Whether this presentation is current (not dismissed).
    public var isPresenting: Bool { presentedViewController.presentationController === self }

    /// The window that shows the presentation: the presenting controller's
    /// view's window (nil while it is in none, or once dismissed).
    override public var traitParent: TraitEnvironment? {
        guard isPresenting, let p = presentingViewController else { return nil }
        let generation = world.hierarchyGeneration
        if let known = knownWindow(at: generation) { return known }
        let w = p.viewIfLoaded?.window
        remember(w, at: generation)
        return w
    }

    // The window found at `windowGeneration` of the world's hierarchy (see
    // ``View/window``): nil in `windowFound` when there was none.
    @exclusivity(unchecked) private var windowGeneration = -1
    @exclusivity(unchecked) private var windowFound = false
    @exclusivity(unchecked) private weak var foundWindow: Window?

    /// The window kept from a walk at `generation`: `.some(nil)` when that
    /// walk found none; nil when it must be walked again.
    func knownWindow(at generation: Int) -> Window?? {
        guard windowGeneration == generation else { return nil }
        if !windowFound { return .some(nil) }
        guard let w = foundWindow else { return nil }   // (freed since)
        return .some(w)
    }

    func remember(_ window: Window?, at generation: Int) {
        windowGeneration = generation
        windowFound = window != nil
        foundWindow = window
    }

    /// The style shown now: ``presentationStyle`` adapted to the size classes
    /// of the window that shows it (``PresentationStyle/adapted(horizontal:vertical:)``).
    public var adaptivePresentationStyle: PresentationStyle {
        let tc = traitParent?.traitCollection ?? traitCollection
        func sizeClass(_ d: TraitDefinition) -> String { if case .string(let s) = tc.rawValue(d) { return s }; return "unspecified" }
        return presentationStyle.adapted(horizontal: sizeClass(SystemTraits.horizontalSizeClass),
                                         vertical: sizeClass(SystemTraits.verticalSizeClass))
    }

    /// The collection under `parent`'s: the presentation's own level
    /// (elevated for popovers and sheets), then its layers and overrides.
    func collection(under parent: TraitCollection) -> TraitCollection {
        var base = parent
        if adaptivePresentationStyle.isElevated {
            base = base.applying([.init(definition: SystemTraits.userInterfaceLevel, value: .string("elevated"))])
        }
        return hasOverrides ? base.applying(overrideEntries) : base
    }

    /// `overrideTraitCollection` (deprecated in iOS 17, still honoured):
    /// traits for the presented controller "overriding one or more values in
    /// the iOS trait environment" (UIPresentationController.overrideTraitCollection),
    /// kept as this controller's ``TraitLayer/overrideTraitCollection`` layer:
    /// under its `traitOverrides`, which win (Apple is silent on the two together).
    public var overrideTraitCollection: TraitCollection? {
        get {
            let entries = traitLayer(.overrideTraitCollection)
            return entries.isEmpty ? nil : TraitCollection(sortedEntries: entries)
        }
        set { setTraitLayer(.overrideTraitCollection, newValue?.entries ?? []) }
    }

    /// `containerViewWillLayoutSubviews` and `containerViewDidLayoutSubviews`
    /// run when the presentation's container lays out: when it starts, and
    /// again when a trait they read changes (iOS 18 automatic trait tracking).
    public func setNeedsLayout() {
        markPending(.layout, .subtreeLayout, next: world.layoutComesNext)
    }

    /// Called before the presentation's container lays out (`containerViewWillLayoutSubviews()`); tracked from iOS 18. It may throw, as ``View/layoutSubviews()`` may.
    public func containerViewWillLayoutSubviews() throws { try invoke(.containerViewWillLayoutSubviews) }
    /// Called after the presentation's container laid out (`containerViewDidLayoutSubviews()`); tracked from iOS 18.
    public func containerViewDidLayoutSubviews() throws { try invoke(.containerViewDidLayoutSubviews) }

    override public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {
        if let p = presentingViewController, p.presentingController === self { body(p) }
    }

    override func forEachCandidateChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        if isPresenting { try body(presentedViewController) }
    }
}

// What happens to a trait environment over time: pending work, the
// callbacks the engine makes on it, and the collection it had before the
// last change.

/// Lifecycle and rendering callbacks the engine makes on environments.
public enum LifecycleEvent: String, CaseIterable, Sendable {
    /// ``ViewController/viewDidLoad()``: the controller's view was loaded.
    case viewDidLoad
    /// ``ViewController/viewWillAppear()``: the view is about to join a window.
    case viewWillAppear
    /// ``ViewController/viewIsAppearing()``: the view joined a window and has its traits.
    case viewIsAppearing
    /// ``ViewController/viewDidAppear()``: the view is in a window.
    case viewDidAppear
    /// ``ViewController/viewWillDisappear()``: the view is about to leave its window.
    case viewWillDisappear
    /// ``ViewController/viewDidDisappear()``: the view left its window.
    case viewDidDisappear
    /// ``ViewController/viewWillLayoutSubviews()``: before the controller's view lays out.
    case viewWillLayoutSubviews
    /// ``ViewController/viewDidLayoutSubviews()``: after the controller's view laid out.
    case viewDidLayoutSubviews
    /// `updateProperties()` of a view (``View/updateProperties()``) or view
    /// controller (``ViewController/updateProperties()``); iOS 26.
    case updateProperties
    /// ``View/layoutSubviews()``.
    case layoutSubviews
    /// ``View/draw()``.
    case draw
    /// ``View/updateConstraints()``.
    case updateConstraints
    /// ``ViewController/updateViewConstraints()``.
    case updateViewConstraints
    /// ``PresentationController/containerViewWillLayoutSubviews()``.
    case containerViewWillLayoutSubviews
    /// ``PresentationController/containerViewDidLayoutSubviews()``.
    case containerViewDidLayoutSubviews

    /// This event's bit in ``TraitEnvironment/hostCallbacks``.
    public var hostBit: UInt16 {
        switch self {
        case .viewDidLoad: return 1 << 0
        case .viewWillAppear: return 1 << 1
        case .viewIsAppearing: return 1 << 2
        case .viewDidAppear: return 1 << 3
        case .viewWillDisappear: return 1 << 4
        case .viewDidDisappear: return 1 << 5
        case .viewWillLayoutSubviews: return 1 << 6
        case .viewDidLayoutSubviews: return 1 << 7
        case .updateProperties: return 1 << 8
        case .layoutSubviews: return 1 << 9
        case .draw: return 1 << 10
        // Bits are scarce (16, of which 11 and 12 are taken): callbacks that
        // never meet on one kind of environment share one. A host looks the
        // callback up by the event's name (``ordinal``), not by its bit.
        case .updateConstraints, .updateViewConstraints: return 1 << 13
        case .containerViewWillLayoutSubviews: return 1 << 6   // (presentation controllers only)
        case .containerViewDidLayoutSubviews: return 1 << 7
        }
    }

    /// The event's position in `allCases` (for hosts' tables of names).
    public var ordinal: Int {
        switch self {
        case .viewDidLoad: return 0
        case .viewWillAppear: return 1
        case .viewIsAppearing: return 2
        case .viewDidAppear: return 3
        case .viewWillDisappear: return 4
        case .viewDidDisappear: return 5
        case .viewWillLayoutSubviews: return 6
        case .viewDidLayoutSubviews: return 7
        case .updateProperties: return 8
        case .layoutSubviews: return 9
        case .draw: return 10
        case .updateConstraints: return 11
        case .updateViewConstraints: return 12
        case .containerViewWillLayoutSubviews: return 13
        case .containerViewDidLayoutSubviews: return 14
        }
    }

    /// Whether UIKit sets `UITraitCollection.current` to the environment's
    /// collection while it runs this callback (the table of Apple's page for
    /// `current`: draw, layoutSubviews, updateConstraints, tintColorDidChange
    /// and traitCollectionDidChange of views; viewWillLayoutSubviews,
    /// viewDidLayoutSubviews, updateViewConstraints and
    /// traitCollectionDidChange of view controllers; the container layout
    /// methods and traitCollectionDidChange of presentation controllers).
    /// `updateProperties` (iOS 26, after that table was written) is added
    /// here: it is documented beside layoutSubviews as a method that reads
    /// traits, and TraitLab treats it alike (Apple is silent).
    public var setsCurrentTraitCollection: Bool {
        switch self {
        case .viewDidLoad, .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            return false
        default: return true
        }
    }

    /// The callbacks whose reads of `self.traitCollection` are tracked (iOS 18).
    public var isTracked: Bool {
        switch self {
        case .layoutSubviews, .draw, .updateProperties, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
             .updateConstraints, .updateViewConstraints, .containerViewWillLayoutSubviews, .containerViewDidLayoutSubviews:
            return true
        default: return false
        }
    }
}

extension TraitEnvironment {
    // MARK: Pending work

    /// Marks this environment's collection for recomputation at the next update.
    public func setNeedsTraitUpdate() {
        pending.insert(.traits)
        propagateUp(.subtreeTraits)
    }

    /// Marks that the structure around this environment changed: its whole
    /// subtree is revisited so appearance and inheritance are recomputed.
    func setNeedsStructureUpdate() {
        pending.formUnion([.traits, .forceSubtree])
        propagateUp(.subtreeTraits)
        predictTraitsFromParent()
    }

    /// Trait prediction (UIKit since iOS 13: a new environment starts with the
    /// traits of the environment it will be in, so code that reads them
    /// before the first layout sees real values). A window scene is created
    /// on its screen, and a window with its scene (`UIWindow(windowScene:)`):
    /// until an update reaches them they take the collection their parent's
    /// traits and their own overrides give, so a scene on an iPad screen and
    /// its windows read the iPad's traits at once, where other environments
    /// keep the prediction they were created with (the main screen's) until
    /// the update that reaches them (`viewWillAppear` still sees that one:
    /// Apple's `viewIsAppearing(_:)` page is where traits are up to date).
    /// The first update computes and delivers as before; a prediction that
    /// was right calls no change callback.
    func predictTraitsFromParent() {
        guard kind == .windowScene || kind == .window, !hasUpdatedTraits, let parent = traitParent else { return }
        let parentTraits = parent.kind == .screen
            ? SystemTraitAvailability.filtering(unsafeDowncast(parent, to: Screen.self).upcomingTraits, for: world.os)
            : parent.traitCollection
        predictTraits(under: parentTraits)
    }

    private func predictTraits(under parentTraits: TraitCollection) {
        let predicted = world.predictedCollection(of: self, under: parentTraits)
        if predicted === traitCollection || predicted == traitCollection { return }
        traitCollection = predicted
        if hostCallbacks & TraitEnvironment.hostCachesCollection != 0 { world.activeDelegate?.environmentDidUpdateTraits(self) }
        // (a scene's windows made before it had its screen's traits)
        forEachTraitChild { child in
            if child.kind == .window, !child.hasUpdatedTraits { child.predictTraits(under: predicted) }
        }
    }

    /// Marks `work` on this environment and `marker` on its ancestors, so the
    /// next traversal comes here; no ancestor when the traversal entering this
    /// environment does that work next (`next`: see ``TraitWorld/layoutComesNext``).
    @inline(__always)
    func markPending(_ work: PendingWork, _ marker: PendingWork, next: UnsafeMutableRawPointer?) {
        pending.insert(work)
        if next != Unmanaged.passUnretained(self).toOpaque() { propagateUp(marker) }
    }

    /// Schedules this view's or view controller's own `updateProperties`
    /// (``markPending(_:_:next:)``).
    func markNeedsUpdateProperties() {
        markPending(.properties, .subtreeProperties, next: world.propertiesComeNext)
    }

    /// Schedules this view's `updateConstraints` or this view controller's
    /// `updateViewConstraints`.
    func markNeedsUpdateConstraints() {
        markPending(.constraints, .subtreeConstraints, next: world.constraintsComeNext)
    }

    // MARK: Callbacks (forwarded to the host for exposed environments)


    /// Runs a lifecycle callback. Subclasses written in Swift override the
    /// specific methods; this default forwards to the host.
    func invoke(_ event: LifecycleEvent) throws {
        world.trace(.lifecycle(self, event))
        guard hostCallbacks & event.hostBit != 0 else { return }
        if event.setsCurrentTraitCollection {
            try world.performAsCurrent(traitCollection) { try world.activeDelegate?.environment(self, lifecycle: event) }
        } else {
            try world.activeDelegate?.environment(self, lifecycle: event)
        }
    }

    /// Runs `body` with reads of this environment's collection recorded, and
    /// stores what was read as the dependencies of `kind` (added to what is
    /// there with `accumulate`).
    func tracking(_ kind: TrackedTraits.Kind, accumulate: Bool = false,
                  _ body: () throws -> Void) rethrows {
        // Before iOS 18 nothing is tracked automatically (``OSVersion``).
        guard world.tracksTraitsAutomatically else { return try body() }
        let view = asViewController?.viewIfLoaded
        // Both collections stay alive while the callback runs: this frame holds them.
        let collection = traitCollection, viewCollection = view?.traitCollection
        let tracker = TraitReadTracker.take(collection: collection, viewCollection: viewCollection)
        // Whether a read is tracked never depends on an earlier untracked one:
        // a host drops what it cached of these collections first (only a host
        // that said it caches one: a call per callback otherwise).
        if hostCallbacks & TraitEnvironment.hostCachesCollection != 0 { world.activeDelegate?.environmentDidUpdateTraits(self) }
        if let view, view.hostCallbacks & TraitEnvironment.hostCachesCollection != 0 {
            world.activeDelegate?.environmentDidUpdateTraits(view)
        }
        let outer = TraitCollection.tracker
        let outerEnv = world.trackingEnvironment, outerKind = world.trackingKind, outerRun = world.trackingRun
        TraitCollection.tracker = Unmanaged.passUnretained(tracker)
        world.trackingEnvironment = self
        world.trackingKind = kind
        world.trackingRun = startTrackingRun(kind, continuing: accumulate)
        defer {
            TraitCollection.tracker = outer
            world.trackingEnvironment = outerEnv
            world.trackingKind = outerKind
            world.trackingRun = outerRun
            if accumulate {
                for d in tracker.read where !(trackedBox?.traits[kind].contains(where: { $0 === d }) ?? false) {
                    tracked[kind].append(d)
                }
            } else if let box = trackedBox {
                // Most callbacks read what they read the last time: nothing to store then.
                if !box.isExactly(kind, readBy: tracker) { tracked[kind] = tracker.read }
            } else if tracker.count > 0 {
                tracked[kind] = tracker.read
            }
            withExtendedLifetime((collection, viewCollection)) {}
            TraitReadTracker.give(tracker)
        }
        try body()
    }

    // MARK: Recent changes

    /// The collection as it was before the world's most recent trait update
    /// (``TraitWorld/updateNumber``), when that update changed this
    /// environment's collection; nil when it did not, when it gave the
    /// environment its first collection, or when the world does not record
    /// changes (``TraitWorld/recordsRecentChanges``).
    public var traitCollectionBeforeLastUpdate: TraitCollection? {
        changedInUpdate == world.updateNumber && changedInUpdate != 0 ? previousCollection : nil
    }

    /// The traits whose value the world's most recent trait update changed
    /// here (net: a value changed and changed back is not listed), sorted by id.
    public var traitsChangedInLastUpdate: [TraitDefinition] {
        traitCollectionBeforeLastUpdate.map { traitCollection.changedTraits(from: $0) } ?? []
    }

    /// Whether a trait update is pending here (overrides set or structure
    /// changed since the last update reached this environment).
    public var needsTraitUpdate: Bool { pending.contains(.traits) }
}

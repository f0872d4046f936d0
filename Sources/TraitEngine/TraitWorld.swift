/// What a host (the Lua binding) learns from the engine about environments it exposes.
public protocol TraitWorldDelegate: AnyObject {
    /// `owner` (nil: the world) started (true) or stopped (false) holding `env`.
    /// A host keeps its object for `env` alive from its object for `owner`, so
    /// user fields survive while the tree holds `env`, and a detached subtree is
    /// collected as a whole.
    func environment(_ env: TraitEnvironment, owner: TraitEnvironment?, holds: Bool)
    /// `env` has its new collection; its change callbacks are about to run
    /// (a host drops what it cached of the old one here).
    func environmentDidUpdateTraits(_ env: TraitEnvironment)
    /// `env`'s collection changed (after its registrations ran).
    func environment(_ env: TraitEnvironment, traitCollectionDidChange previous: TraitCollection) throws
    /// A lifecycle or rendering callback is due on `env`.
    func environment(_ env: TraitEnvironment, lifecycle: LifecycleEvent) throws
    /// The registration `env` made with tag `tag`
    /// (``TraitEnvironment/addTraitChangeRegistration(for:delegateTag:)``) is
    /// due; false ends it (its handler is gone).
    func environment(_ env: TraitEnvironment, deliver tag: Int, previous: TraitCollection) throws -> Bool
    /// Pending work is about to be applied (``TraitWorld/update()``, before
    /// its first pass and before it decides whether another is needed, and
    /// the `IfNeeded` calls): a host that finds changes by comparing values
    /// (its observed values) marks the work they invalidate here. Called
    /// only while ``TraitWorld/checksBeforeApplyingWork`` is set.
    func worldWillApplyPendingWork(_ world: TraitWorld) throws
    /// `viewWillTransition(to:with:)` is due on `env` (a view controller or
    /// a presentation controller): its scene changes to `size` (Transitions.swift).
    func environment(_ env: TraitEnvironment, viewWillTransitionTo size: Size, with coordinator: TransitionCoordinator) throws
    /// `willTransition(to:with:)` is due on `env`: its collection will become `collection`.
    func environment(_ env: TraitEnvironment, willTransitionTo collection: TraitCollection, with coordinator: TransitionCoordinator) throws
}

extension TraitWorldDelegate {
    /// A delegate that makes no tagged registrations has none to deliver.
    public func environment(_ env: TraitEnvironment, deliver tag: Int, previous: TraitCollection) throws -> Bool { false }
    public func worldWillApplyPendingWork(_ world: TraitWorld) throws {}
}

/// Counters that make the engine's work visible (`ui.stats()`).
public struct TraitStats: Equatable, Sendable {
    /// Live trait environments.
    public var environments = 0
    /// Environments whose collection changed, summed over all updates.
    public var traitUpdates = 0
    /// Registrations run: each registration whose traits changed, once per change.
    public var handlersCalled = 0
    /// Views laid out: `layoutSubviews()` calls (each with its controller's
    /// `viewWillLayoutSubviews()` and `viewDidLayoutSubviews()`).
    public var layouts = 0
    /// `draw()` calls made.
    public var draws = 0
    /// `updateProperties()` calls made (iOS 26).
    public var propertyUpdates = 0
    /// Overrides set, one per call (whether or not it changed the value).
    public var overridesSet = 0
    /// `update()` calls that had work to do, and the passes they ran.
    public var updates = 0
    /// The passes of those updates: an update runs another pass while a callback leaves new work.
    public var passes = 0
    /// Environments visited by trait propagation, in total and in the last update.
    public var environmentsVisited = 0
    /// Environments visited by the last update's trait propagation.
    public var lastUpdateVisited = 0
}

/// One step of propagation or delivery, for `ui.trace`.
public enum TraceEvent {
    /// An update began its pass numbered `pass` (1 for the first).
    case updateBegan(pass: Int)
    /// An environment's collection changed; the traits that changed.
    case traitsChanged(TraitEnvironment, [TraitDefinition])
    /// A registration of an environment is about to run for these changed traits (the ones it names).
    case handlerCalled(TraitEnvironment, [TraitDefinition])
    /// A lifecycle or rendering callback is about to run on an environment.
    case lifecycle(TraitEnvironment, LifecycleEvent)
    /// An override was set on an environment (nil: removed).
    case overrideChanged(TraitEnvironment, TraitDefinition, TraitValue?)
}

/// The whole trait system of one app: its registry, connected scenes, hierarchy
/// mode and the update cycle (one run-loop turn per ``update()``).
public final class TraitWorld {
    /// The trait definitions visible by name in this world: UIKit's system
    /// traits and what was registered (``register(_:)``).
    public let registry = TraitRegistry()
    /// The SwiftUI environment keys: built-in, registered and bridged. Made
    /// on first use (a fifth of a world's creation, which every start pays).
    public private(set) lazy var environmentKeys = EnvironmentKeyRegistry()
    // The update cycle's state skips run-time exclusivity checks, as
    // TraitEnvironment's does (see there).
    /// Counters of the work this world has done (``TraitStats``); a host may reset them.
    @exclusivity(unchecked) public var stats = TraitStats()
    /// The host that hears about environments and callbacks (held weakly). A
    /// Swift program that subclasses `View` and `ViewController` needs none: the
    /// engine calls the overridden methods directly.
    @exclusivity(unchecked) public weak var delegate: TraitWorldDelegate?
    /// A delegate for a host that owns this world and tears it down
    /// (``tearDown()``) before it goes, such as the Lua binding: the world
    /// neither retains it nor refers to it weakly. A weak reference gives its
    /// object a side table, and every retain of such an object then takes a
    /// slow path (about 150 instructions per callback, docs/performance.md).
    /// Used instead of ``delegate`` when set.
    @exclusivity(unchecked) public unowned(unsafe) var owningDelegate: TraitWorldDelegate?
    /// Where callbacks go.
    @inline(__always) var activeDelegate: TraitWorldDelegate? { owningDelegate ?? delegate }
    /// Whether the delegate must be asked for work before pending work is
    /// applied (``TraitWorldDelegate/worldWillApplyPendingWork(_:)``): set
    /// by a host while it has values to compare. Off, applying work pays
    /// nothing for it.
    @exclusivity(unchecked) public var checksBeforeApplyingWork = false
    @inline(__always) func checkBeforeApplyingWork() throws {
        if checksBeforeApplyingWork { try activeDelegate?.worldWillApplyPendingWork(self) }
    }
    /// Receives an event for each step when set (`ui.trace`).
    @exclusivity(unchecked) public var tracer: ((TraceEvent) -> Void)?
    /// The most passes one update may take before it stops as unsettled.
    @exclusivity(unchecked) public var maximumPasses = 100

    /// How traits flow between view controllers and views (``HierarchyMode``).
    /// Setting ``os`` sets it; a change makes every environment recompute its
    /// collection at the next update.
    @exclusivity(unchecked) public var hierarchyMode: HierarchyMode = .ios17 {
        didSet { if oldValue != hierarchyMode { invalidateAllTraits() } }
    }

    /// The iOS version this world models (``OSVersion``): its trait system.
    /// Setting it sets ``hierarchyMode`` to that version's flow (legacy before
    /// iOS 17) and what it tracks automatically.
    @exclusivity(unchecked) public var os: OSVersion = .newest {
        didSet {
            hierarchyMode = os.has(.traitSystem) ? .ios17 : .legacy
            refreshTracking()
        }
    }

    /// Features this app opted into where its version allows it: today
    /// `.observationTracking` on iOS 18 (the `UIObservationTrackingEnabled`
    /// Info.plist key).
    @exclusivity(unchecked) public var optedIn: Set<OSVersion.Feature> = [] {
        didSet { refreshTracking() }
    }

    /// Whether this world has `feature` (its version and what it opted into).
    public func has(_ feature: OSVersion.Feature) -> Bool { os.has(feature, optedIn: optedIn) }

    /// Throws the error `api` raises on a version without `feature`, naming
    /// the version that introduced it (as a deployment target would).
    public func require(_ feature: OSVersion.Feature, _ api: String) throws {
        if has(feature) { return }
        try os.require(feature, api)
    }

    /// Whether tracked methods record the traits they read (iOS 18 and
    /// later), and whether they record the observable properties they read.
    @exclusivity(unchecked) public private(set) var tracksTraitsAutomatically = true
    /// Whether tracked methods record the observable properties they read
    /// (observation tracking: iOS 26, or iOS 18 with ``optedIn``).
    @exclusivity(unchecked) public private(set) var tracksObservation = true
    private func refreshTracking() {
        tracksTraitsAutomatically = has(.automaticTraitTracking)
        tracksObservation = has(.observationTracking)
    }
    /// The kind of work whose tracked method is running (with
    /// ``trackingEnvironment``): what a host records an observable read for.
    @exclusivity(unchecked) public internal(set) var trackingKind: TrackedWork = .layout
    /// The run of the tracked method that is running (with
    /// ``trackingEnvironment``): a number no other run has, the same for
    /// the parts of one run (a view controller's `viewWillLayoutSubviews`
    /// and `viewDidLayoutSubviews`); 0 outside tracked methods. Hosts
    /// recording observed reads keep it with each read (`ObservationRuns`).
    @exclusivity(unchecked) public internal(set) var trackingRun: UInt64 = 0
    @exclusivity(unchecked) var lastTrackingRun: UInt64 = 0

    /// The window scenes connected to the app, oldest first
    /// (`UIApplication.connectedScenes`): a new ``WindowScene`` connects
    /// itself, ``WindowScene/disconnect()`` removes it.
    @exclusivity(unchecked) public private(set) var connectedScenes: [WindowScene] = []
    @exclusivity(unchecked) var pendingScreens: [Screen] = []
    /// The live presentation controllers, oldest first (unretained: each
    /// removes itself when freed). A window lists those it shows among its
    /// trait children; there are few, so a window's visit walks them all.
    /// A freed one leaves its slot empty (``PresentationController/presentationSlot``),
    /// and the list is compacted once half of it is empty: freeing a chain of
    /// n presentations is linear, not quadratic.
    @exclusivity(unchecked) private var presentations: [Unmanaged<PresentationController>?] = []
    @exclusivity(unchecked) private var emptyPresentationSlots = 0

    func addPresentation(_ pc: PresentationController) {
        pc.presentationSlot = presentations.count
        presentations.append(.passUnretained(pc))
    }
    func removePresentation(_ pc: PresentationController) {
        let slot = pc.presentationSlot
        guard presentations.indices.contains(slot), presentations[slot]?.toOpaque() == Unmanaged.passUnretained(pc).toOpaque() else { return }
        presentations[slot] = nil
        emptyPresentationSlots += 1
        if emptyPresentationSlots * 2 > presentations.count {
            presentations.removeAll { $0 == nil }
            for (i, ref) in presentations.enumerated() { ref?.takeUnretainedValue().presentationSlot = i }
            emptyPresentationSlots = 0
        }
    }
    func forEachPresentation(_ body: (TraitEnvironment) throws -> Void) rethrows {
        if presentations.isEmpty { return }
        for case let pc? in presentations { try body(pc.takeUnretainedValue()) }
    }

    /// A presentation whose window changed (its presenter's view moved to
    /// another window, or out of any) is revisited whole under its new
    /// window, as a moved view is.
    func reparentPresentations() {
        for case let ref? in presentations {
            let pc = ref.takeUnretainedValue()
            let parent = pc.traitParent
            if parent !== pc.lastParent {
                pc.lastParent = parent
                structureChanged = true
                pc.setNeedsStructureUpdate()
            }
        }
    }
    @exclusivity(unchecked) var hasPendingWork = false
    /// Rotations and resizes not yet delivered, and coordinators still to run (Transitions.swift).
    @exclusivity(unchecked) var transitions = TransitionState()
    /// The environment the traversal is entering while its `updateProperties`
    /// (`propertiesComeNext`) or its layout (`layoutComesNext`) is still to
    /// come in this visit: that work marked on it then needs no marks on its
    /// ancestors, which the traversal has passed and would walk again only to
    /// find the work done (a `setNeedsLayout` action or a tracked trait, on
    /// every changed view). Addresses, never followed.
    @exclusivity(unchecked) var propertiesComeNext: UnsafeMutableRawPointer?
    @exclusivity(unchecked) var layoutComesNext: UnsafeMutableRawPointer?
    @exclusivity(unchecked) var constraintsComeNext: UnsafeMutableRawPointer?

    // MARK: The current trait collection

    /// What `performAsCurrent` and the callbacks that set it made current;
    /// nil outside them.
    @exclusivity(unchecked) private var currentStorage: TraitCollection?

    /// `UITraitCollection.current`: inside the callbacks Apple's page for
    /// `current` lists (``LifecycleEvent/setsCurrentTraitCollection``,
    /// `traitCollectionDidChange`, registration handlers) the collection of
    /// the environment running it; inside `performAsCurrent` the collection
    /// given; elsewhere `ui.Screen.main`'s (Apple does not say what it is
    /// outside those; TraitLab's choice).
    public var currentTraitCollection: TraitCollection { currentStorage ?? mainScreen.traitCollection }

    /// `performAsCurrent(_:)`: runs `body` with `collection` current, and
    /// puts the outer one back afterwards, also when `body` throws.
    public func performAsCurrent<T>(_ collection: TraitCollection, _ body: () throws -> T) rethrows -> T {
        let outer = currentStorage
        currentStorage = collection
        defer { currentStorage = outer }
        return try body()
    }
    /// Something left a window: the appeared controllers must be rechecked.
    @exclusivity(unchecked) var structureChanged = false
    /// Counts changes to what ``View/window`` follows (a superview, the view
    /// of a controller, a presentation): a presentation's window is kept
    /// with the count it was found at (``PresentationController/traitParent``).
    @exclusivity(unchecked) var hierarchyGeneration = 0
    @exclusivity(unchecked) private var appeared: [ViewController] = []
    @exclusivity(unchecked) private var didAppearQueue: [ViewController] = []
    @exclusivity(unchecked) private var didDisappearQueue: [ViewController] = []
    /// The environment whose tracked callback is running, if any. Unretained:
    /// `TraitEnvironment.tracking` sets it to itself for the callback's
    /// duration and puts the outer one back before it returns.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var trackingEnvironment: TraitEnvironment?

    /// What a host serving `env.traitCollection` needs, in one call that
    /// counts no references: the collection, unretained (`env` holds it),
    /// whether a tracked callback must see the read (``tracksReads(of:)``),
    /// and the collection's ``TraitCollection/hostKey``.
    public func collectionForHostRead(of env: Unmanaged<TraitEnvironment>, tracked: inout Bool,
                                      hostKey: inout UInt64) -> Unmanaged<TraitCollection> {
        env._withUnsafeGuaranteedRef { e in
            tracked = tracksReads(of: e)
            let c = Unmanaged.passUnretained(e.traitCollection)
            hostKey = c._withUnsafeGuaranteedRef { $0.hostKey }
            return c
        }
    }

    /// Whether a read of `tc` now is a tracked callback's read of its own
    /// environment's collection (which a host may not answer from a cache).
    public func readIsTracked(in tc: TraitCollection) -> Bool {
        guard let t = trackingEnvironment else { return false }
        return t.traitCollection === tc
    }

    /// Whether a read of `env.traitCollection` now is tracked: inside a tracked
    /// callback of `env`, or of the view controller whose view `env` is.
    public func tracksReads(of env: TraitEnvironment) -> Bool {
        guard let t = trackingEnvironment else { return false }
        if t === env { return true }
        if let vc = t.asViewController, vc.viewIfLoaded === env { return true }
        return false
    }
    @exclusivity(unchecked) private var diffCache = DiffCache()
    /// Asked before an update makes what grows with the number of traits or
    /// environment keys set rather than with the calls that set them: a
    /// collection for an environment with overrides (its parent's entries and
    /// its overrides, merged), the environment of a hosted SwiftUI view with
    /// modifiers. A refusal ends the update as a failing callback does: what
    /// was left stays pending.
    public var memoryBudget: MemoryBudget? {
        get { memoryMeter.budget }
        set { memoryMeter = BudgetMeter(newValue) }
    }
    @exclusivity(unchecked) private var memoryMeter = BudgetMeter(nil)

    /// Asks ``memoryBudget`` (a step ahead) for `bytes` about to be allocated.
    @inline(__always)
    func chargeMemory(_ bytes: Int) throws { try memoryMeter.charge(bytes) }
    /// Counts trait updates: each ``update()`` that has work, and each
    /// `updateTraitsIfNeeded` outside one. Environments remember the number of
    /// the update that last changed them.
    @exclusivity(unchecked) public private(set) var updateNumber = 0
    /// Whether environments keep their collection from before the last update
    /// that changed them (``TraitEnvironment/traitsChangedInLastUpdate``, the
    /// "(was ...)" of dumps). Off by default: it costs about 140 instructions
    /// per changed environment, 18% of propagation (docs/performance.md). The
    /// Lua host turns it on.
    @exclusivity(unchecked) public var recordsRecentChanges = false
    /// The collections the current update replaced, kept alive for
    /// ``TraitEnvironment/traitCollectionBeforeLastUpdate`` until the next one
    /// (each once in a row: environments without overrides share one).
    @exclusivity(unchecked) fileprivate var replacedCollections: [TraitCollection] = []

    /// A new update number: what the last update replaced can go.
    private func beginNumberedUpdate() {
        updateNumber += 1
        if !replacedCollections.isEmpty { replacedCollections.removeAll(keepingCapacity: true) }
    }
    @exclusivity(unchecked) private var isUpdating = false

    /// A world modelling the newest iOS (``OSVersion/newest``) with no scenes:
    /// its main screen (``mainScreen``) is made on first use.
    public init() {}

    /// The default screen profile (`ui.Screen.main`), created on first use: an
    /// iPhone in portrait, light mode, default text size.
    public var mainScreen: Screen {
        if let s = mainScreenStorage { return s }
        let s = Screen(world: self, traits: mainScreenProfile)
        s.device = mainScreenDevice
        s.name = "main"
        s.isMainScreen = true
        mainScreenStorage = s
        return s
    }
    private var mainScreenStorage: Screen?

    /// The device `ui.Screen.main` is (``DeviceCatalogue/main`` unless
    /// ``configureMainScreen(device:settings:)`` chose another).
    public private(set) var mainScreenDevice: Device = DeviceCatalogue.main
    /// `ui.Screen.main`'s traits, and what a new environment predicts.
    private var mainScreenProfile: TraitCollection = TraitWorld.mainScreenTraits

    /// Makes `ui.Screen.main` `device` in portrait with the default profile's
    /// settings (light, default text size, ...), then `settings` over all of
    /// it (`--device`, `--screen TRAIT=VALUE`). Before the main screen is
    /// first used: afterwards it throws and changes nothing.
    public func configureMainScreen(device: Device, settings: [TraitCollection.Entry] = []) throws {
        guard mainScreenStorage == nil else {
            throw TraitError("the main screen is configured before it is first used (ui.Screen.main exists already)")
        }
        let traits = try device.screenTraits(.portrait, settings: TraitWorld.mainScreenTraits)
        mainScreenDevice = device
        mainScreenProfile = settings.isEmpty ? traits : traits.applying(settings.sorted { $0.definition.id < $1.definition.id })
    }

    /// The class names hosts gave environments (``TraitEnvironment/className``),
    /// each once: an environment keeps its number.
    private var classNames: [String] = []
    private var classNameNumbers: [String: UInt16] = [:]

    /// The number of `name` in the table (made now if it is new); nil when the
    /// table is full (65,535 names: a script making classes without end).
    func classNameNumber(for name: String) -> UInt16? {
        if let n = classNameNumbers[name] { return n }
        guard classNames.count < Int(UInt16.max) else { return nil }
        classNames.append(name)
        let n = UInt16(classNames.count)
        classNameNumbers[name] = n
        return n
    }

    /// The class name numbered `n` (from ``classNameNumber(for:)``).
    func className(at n: UInt16) -> String { classNames[Int(n) - 1] }

    /// The collection a new environment starts with: `ui.Screen.main`'s traits.
    var predictedTraits: TraitCollection { mainScreenStorage?.traitCollection ?? mainScreenProfile }

    /// Drops everything the world holds (connected scenes, the main screen,
    /// queues), breaking the world <-> environment cycle so that a finished
    /// world is freed. The world must not be used afterwards.
    public func tearDown() {
        connectedScenes.removeAll()
        pendingScreens.removeAll()
        appeared.removeAll()
        didAppearQueue.removeAll()
        didDisappearQueue.removeAll()
        mainScreenStorage = nil
        replacedCollections.removeAll()
        tracer = nil
        delegate = nil
        owningDelegate = nil
        hasPendingWork = false
    }

    /// The traits of the default main screen, an iPhone (``DeviceCatalogue/main``)
    /// in portrait: compact width, regular height, scale 3, light, the
    /// default text size (`large`), left-to-right, regular legibility weight,
    /// normal contrast, base level, P3, active appearance, no force touch,
    /// high dynamic range, and no scene capture.
    public static let mainScreenTraits: TraitCollection = {
        let T = SystemTraits.self
        return TraitCollection { t in
            t[T.userInterfaceIdiom] = .string("phone")
            t[T.userInterfaceStyle] = .string("light")
            t[T.horizontalSizeClass] = .string("compact")
            t[T.verticalSizeClass] = .string("regular")
            t[T.displayScale] = .number(3)
            t[T.layoutDirection] = .string("leftToRight")
            t[T.preferredContentSizeCategory] = .string("large")
            t[T.legibilityWeight] = .string("regular")
            t[T.accessibilityContrast] = .string("normal")
            t[T.userInterfaceLevel] = .string("base")
            t[T.displayGamut] = .string("P3")
            t[T.activeAppearance] = .string("active")
            t[T.forceTouchCapability] = .string("unavailable")
            t[T.imageDynamicRange] = .string("high")
            t[T.sceneCaptureState] = .string("inactive")
        }
    }()

    /// Whether anything waits for the next update.
    public var needsUpdate: Bool { hasPendingWork }

    func trace(_ event: @autoclosure () -> TraceEvent) {
        if let tracer { tracer(event()) }
    }

    func connect(_ s: WindowScene) { connectedScenes.append(s) }
    func disconnect(_ s: WindowScene) { connectedScenes.removeAll { $0 === s } }

    /// Makes every environment recompute its collection at the next update
    /// (hierarchy mode switch, redefined traits).
    public func invalidateAllTraits() {
        for scene in connectedScenes { markAll(scene) }
        structureChanged = true
        hasPendingWork = true
    }

    private func markAll(_ root: TraitEnvironment) {
        root.propagateUp(.subtreeTraits)
        TraitWorld.walk(root) { $0.pending.formUnion([.traits, .subtreeTraits]) }
    }

    /// Calls `body` on `root` and every environment below it, parents first,
    /// without recursion.
    static func walk(_ root: TraitEnvironment, _ body: (TraitEnvironment) throws -> Void) rethrows {
        var todo = [root]
        while let e = todo.popLast() {
            try body(e)
            todo.append(contentsOf: e.traitChildren.reversed())
        }
    }

    /// Every environment below the connected scenes, for whole-world operations.
    public func forEachEnvironment(_ body: (TraitEnvironment) throws -> Void) rethrows {
        var screens: [Screen] = []
        for s in connectedScenes where !screens.contains(where: { $0 === s.screen }) { screens.append(s.screen) }
        for s in screens { try TraitWorld.walk(s, body) }
    }

    // MARK: - The update cycle

    /// Applies everything pending, top-down, repeating until nothing is pending:
    /// traits (with change callbacks), appearance, then properties, layout and display.
    ///
    /// This is the turn of the run loop in which UIKit applies what changed: a
    /// program calls it where an app would return to the run loop.
    /// - Throws: The first error a callback throws (what was not done stays
    ///   pending for the next update); a ``TraitError`` when called from a
    ///   callback of an update, or when callbacks keep making work for
    ///   ``maximumPasses`` passes.
    public func update() throws {
        if checksBeforeApplyingWork && !isUpdating { try checkBeforeApplyingWork() }
        guard hasPendingWork else { return }
        guard !isUpdating else { throw TraitError("ui.update() cannot be called from inside an update callback") }
        isUpdating = true
        defer { isUpdating = false }
        stats.updates += 1
        beginNumberedUpdate()
        stats.lastUpdateVisited = 0
        // A rotation or resize tells the controllers before any trait changes.
        try deliverNotedTransitions()
        var pass = 0
        while true {
            if pass > 0 {
                // What callbacks changed since (values a host compares) is work too.
                try checkBeforeApplyingWork()
                if !hasRemainingWork() {
                    // A transition's completions come once it settled; what they change is applied too.
                    guard try runTransitionCompletions() else { break }
                    try checkBeforeApplyingWork()
                    if !hasRemainingWork() { break }
                }
            }
            if pass == maximumPasses {
                throw TraitError("update did not settle after \(maximumPasses) passes: callbacks keep changing traits or requesting work")
            }
            pass += 1
            stats.passes += 1
            hasPendingWork = false
            trace(.updateBegan(pass: pass))
            try runPass()
            try runTransitionAnimations()
        }
        hasPendingWork = false
    }

    /// Whether a pass would find work: marks reach the screens of connected
    /// scenes (work marked outside any scene waits until it joins one).
    private func hasRemainingWork() -> Bool {
        if !pendingScreens.isEmpty || structureChanged || !didAppearQueue.isEmpty || !didDisappearQueue.isEmpty {
            return true
        }
        let marks: PendingWork = [.traits, .subtreeTraits, .properties, .subtreeProperties, .constraints,
                                  .subtreeConstraints, .layout, .subtreeLayout, .display, .subtreeDisplay]
        return connectedScenes.contains { !$0.screen.pending.isDisjoint(with: marks) }
    }

    private func rootScreens() -> [Screen] {
        var screens = pendingScreens
        pendingScreens.removeAll()
        for s in connectedScenes where !screens.contains(where: { $0 === s.screen }) { screens.append(s.screen) }
        return screens
    }

    private func runPass() throws {
        reparentPresentations()
        let screens = rootScreens()
        if structureChanged {
            structureChanged = false
            try handleDisappearances()
        }
        for s in screens where !s.pending.isDisjoint(with: VisitMode.full.needs) {
            try visit(s, .full)
        }
        for s in screens { try visitRender(s, .display, .subtreeDisplay) }
        try flushAppearanceQueues()
    }

    /// What one traversal does: the update's full traversal (traits, then
    /// properties and layout, environment by environment), traits only
    /// (`updateTraitsIfNeeded`), or properties and layout only (a view laid
    /// out outside any window, whose traits never update).
    struct VisitMode {
        let traits: Bool
        let render: Bool
        /// The marks that make an environment worth entering.
        let needs: PendingWork
        /// The subtree markers a visit consumes.
        let markers: PendingWork
        static let full = VisitMode(traits: true, render: true,
                                    needs: [.traits, .subtreeTraits, .properties, .subtreeProperties, .constraints,
                                            .subtreeConstraints, .layout, .subtreeLayout],
                                    markers: [.subtreeTraits, .subtreeProperties, .subtreeConstraints, .subtreeLayout])
        static let traitsOnly = VisitMode(traits: true, render: false, needs: [.traits, .subtreeTraits],
                                          markers: [.subtreeTraits])
        static let renderOnly = VisitMode(traits: false, render: true,
                                          needs: [.properties, .subtreeProperties, .constraints, .subtreeConstraints,
                                                  .layout, .subtreeLayout],
                                          markers: [.subtreeProperties, .subtreeConstraints, .subtreeLayout])
    }

    /// The single top-down traversal of the dirty part of the tree below
    /// `root` (docs/guide.md, "The update cycle"), with an explicit stack (trees can be far deeper
    /// than the thread's stack allows). Each environment, when entered:
    /// updates its collection and delivers its change callbacks; a controller's
    /// view then gives `viewIsAppearing` when its controller is appearing; then
    /// `updateProperties` and layout run if needed. Only then are its children
    /// listed and visited in order, each checked for pending work when reached,
    /// so what a callback marks on a child (an override, `setNeedsLayout`) is
    /// seen by that child in this same traversal.
    func visit(_ root: TraitEnvironment, _ mode: VisitMode) throws {
        let needs = mode.needs, markers = mode.markers
        /// A callback failed: keep every environment whose processing was cut
        /// short reachable (recomputing an up-to-date collection is a no-op) so
        /// the next update finishes the work, including an interrupted appearance.
        func keepPending(_ envs: [TraitEnvironment]) {
            // (It failed between an environment's traits and its layout.)
            propertiesComeNext = nil
            layoutComesNext = nil
            constraintsComeNext = nil
            for e in envs {
                if mode.traits { e.pending.insert(.traits) }
                e.pending.formUnion(markers)
            }
            hasPendingWork = true
        }
        /// Does `e`'s own work and returns its frame; nil when nothing below it
        /// is left to do (most environments of a big tree are leaves).
        func enter(_ e: TraitEnvironment, from parent: TraitEnvironment?, parentChange: Diff?) throws -> VisitFrame? {
            stats.environmentsVisited += 1
            if mode.render { comesNext(Unmanaged.passUnretained(e).toOpaque()) }
            var change: Diff?
            stats.lastUpdateVisited += 1
            if mode.traits && e.pending.contains(.traits) {
                e.pending.remove(.traits)
                if e.pending.contains(.forceSubtree) {
                    if let vc = e.asViewController, vc.appearance == .disappeared, vc.isViewInWindow {
                        if mode.render {
                            vc.appearance = .appearing
                            appeared.append(vc)
                            // Before its traits update: it still sees the old ones.
                            try vc.viewWillAppear()
                            e.pending.remove(.forceSubtree)
                        } else {
                            // updateTraitsIfNeeded: the update still runs its appearance.
                            e.pending.insert(.traits)
                            e.propagateUp(.subtreeTraits)
                        }
                    } else {
                        e.pending.remove(.forceSubtree)
                    }
                    forceChildren(of: e)
                }
                change = try updateOwnTraits(e, parent: parent, parentChange: parentChange)
                if e.flags.contains(.hasHostedContent) { try e.hostedContent?.hostTraitsDidUpdate() }
            }
            return try finishEntering(e, change: change, fastChange: nil)
        }
        /// The rest of `enter` after `e`'s traits: its appearance, properties
        /// and layout, then its frame. `fastChange`, for a view entered on the
        /// fast path (whose change was its parent's, held by the frames
        /// below, as the view is by its parent's frame), makes a frame that
        /// holds neither.
        func finishEntering(_ e: TraitEnvironment, change: Diff?, fastChange: Unmanaged<Diff>?) throws -> VisitFrame? {
            if mode.render {
                if e.isView, let vc = unsafeDowncast(e, to: View.self).owningViewController,
                   vc.appearance == .appearing, vc.viewIfLoaded === e, vc.isViewInWindow {
                    // Its superview has laid it out; it and its controller have their new traits.
                    vc.appearance = .appeared
                    didAppearQueue.append(vc)
                    try vc.viewIsAppearing()
                }
                propertiesComeNext = nil
                if e.pending.contains(.properties) {
                    e.pending.remove(.properties)
                    try perform(.properties, on: e)
                }
                constraintsComeNext = nil
                if e.pending.contains(.constraints) {
                    e.pending.remove(.constraints)
                    try perform(.constraints, on: e)
                }
                layoutComesNext = nil
                if e.pending.contains(.layout) {
                    e.pending.remove(.layout)
                    if e.isView {
                        try layout(unsafeDowncast(e, to: View.self))
                    } else if e.kind == .presentationController {
                        try layoutContainer(unsafeDowncast(e, to: PresentationController.self))
                    }
                }
            }
            if e.pending.isDisjoint(with: markers) { return nil }
            e.pending.subtract(markers)
            if e.kind == .view {
                // (A leaf's empty array is not copied.)
                if unsafeDowncast(e, to: View.self).subviews.isEmpty { return nil }
                let subviews = unsafeDowncast(e, to: View.self).subviews
                if let fastChange {
                    return VisitFrame(plainView: Unmanaged.passUnretained(unsafeDowncast(e, to: View.self)),
                                      subviews: subviews, changeRef: fastChange)
                }
                return VisitFrame(owner: e, subviews: subviews, change: change)
            }
            let children = e.traitChildren
            if children.isEmpty { return nil }
            return VisitFrame(owner: e, children: children, change: change)
        }
        // The environments being visited, the innermost last.
        var stack = VisitStack()
        defer { stack.deallocate() }
        do {
            guard let frame = try enter(root, from: nil, parentChange: nil) else { return }
            stack.push(frame)
        } catch {
            keepPending([root])
            throw error
        }
        // The fast path below counts what it does here, added to the stats
        // before anything can read them (a callback of the general path, or
        // the end of the traversal).
        var plainEntered = 0
        defer { countPlainEntered(plainEntered) }
        while stack.count > 0 {
            // Valid until the next push.
            let top = stack.top
            var i = top.pointee.next
            let count = top.pointee.count
            // The fast path's conditions on the frame (and on the world: it
            // traces nothing), checked again whenever the loop comes back to
            // it (a callback may have changed them). After a subview that was
            // not plain, the next one must look plain first: a frame of such
            // subviews does not set the fast path up for each of them.
            if mode.traits, tracer == nil, top.pointee.subviews != nil, let d = top.pointee.changeRef, i < count,
               !top.pointee.plainFailed || top.pointee.subview(at: i)._withUnsafeGuaranteedRef(TraitWorld.isFast) {
                // The change's collections, and whether the frame's view still
                // holds the new one and the change redraws nothing.
                let env = top.pointee.env
                let (applies, change) = d._withUnsafeGuaranteedRef { d in
                    (!d.affectsColor && env._withUnsafeGuaranteedRef { $0.traitCollection === d.new },
                     PlainChange(world: self, parent: env, old: d.old, new: d.new))
                }
                var descend = false
                // A registered subview whose callbacks come next.
                var registered: Unmanaged<View>?
                top.pointee.plainFailed = false
                while applies && i < count {
                    let s = top.pointee.subview(at: i)
                    let result = s._withUnsafeGuaranteedRef { enterPlainSubview($0, change) }
                    if result == .notPlain {
                        top.pointee.plainFailed = true
                        break
                    }
                    i &+= 1
                    plainEntered &+= 1
                    if result != .done {
                        top.pointee.next = i
                        descend = true
                        if result == .hasSubviews {
                            // Visited next, as `enter` would. The frame's subviews keep
                            // `s` alive, and this frame holds or shares `d`.
                            let frame = VisitFrame(plainView: s, subviews: s._withUnsafeGuaranteedRef { $0.subviews },
                                                   changeRef: d)
                            frame.markPlainSubviewsForTraits()
                            stack.push(frame)
                            break
                        }
                        registered = s
                        break
                    }
                }
                if let s = registered {
                    // Registered: its registrations run now, as `apply` runs
                    // them, then the rest of `enter`. The stats count it first
                    // (a callback may read them). A callback may change
                    // anything: the loop then comes back to the frame (or to
                    // `s`'s), checking its conditions again. The frame's
                    // subviews keep `s` alive, and this frame holds or shares `d`.
                    countPlainEntered(plainEntered)
                    plainEntered = 0
                    var entered: VisitFrame?
                    do {
                        try deliverRegistered(s, d, render: mode.render)
                        entered = try s._withUnsafeGuaranteedRef { try finishEntering($0, change: nil, fastChange: d) }
                    } catch {
                        keepPending([s.takeUnretainedValue()] + stack.environments.reversed())
                        throw error
                    }
                    if let frame = entered.take() { stack.push(frame) }
                }
                if descend { continue }
            }
            guard i < count else {
                stack.pop()
                continue
            }
            top.pointee.next = i + 1
            // Siblings with nothing to do are passed over without reference counting.
            guard let candidate = top.pointee.child(at: i),
                  candidate._withUnsafeGuaranteedRef({ !$0.pending.isDisjoint(with: needs) }) else { continue }
            let c = candidate.takeUnretainedValue()
            let parent = top.pointee.env.takeUnretainedValue()
            if plainEntered != 0 {
                countPlainEntered(plainEntered)
                plainEntered = 0
            }
            var entered: VisitFrame?
            do {
                entered = try enter(c, from: parent, parentChange: top.pointee.changeRef?.takeUnretainedValue())
            } catch {
                keepPending([c] + stack.environments.reversed())
                throw error
            }
            guard let frame = entered.take() else { continue }
            stack.push(frame)
        }
    }

    /// `e` is being entered by a traversal that runs its `updateProperties`
    /// and layout next (``propertiesComeNext``).
    @inline(__always) private func comesNext(_ address: UnsafeMutableRawPointer) {
        propertiesComeNext = address
        constraintsComeNext = address
        layoutComesNext = address
    }

    /// Adds `n` environments entered on the fast path to the stats.
    private func countPlainEntered(_ n: Int) {
        stats.environmentsVisited += n
        stats.lastUpdateVisited += n
        stats.traitUpdates += n
    }

    enum PlainSubviewResult { case notPlain, done, hasSubviews, registered }

    /// What the fast path needs of a change, without reference counting: the
    /// changed view and the collections (the change holds them), and the
    /// world's recording of recent changes (the general path alone adds to
    /// `replacedCollections`, so this holds while the fast path runs).
    struct PlainChange {
        let parent: UnsafeMutableRawPointer
        let old: Unmanaged<TraitCollection>
        let new: Unmanaged<TraitCollection>
        let recording: Bool
        let updateNumber: Int
        let oldIsRecorded: Bool

        @inline(__always)
        init(world: TraitWorld, parent: Unmanaged<TraitEnvironment>, old: TraitCollection, new: TraitCollection) {
            self.parent = parent.toOpaque()
            self.old = Unmanaged.passUnretained(old)
            self.new = Unmanaged.passUnretained(new)
            recording = world.recordsRecentChanges
            updateNumber = world.updateNumber
            oldIsRecorded = recording && world.replacedCollections.last === old
        }
    }

    /// What ``visit(_:_:)`` does for most environments of a changed tree, with
    /// no call out of the engine: `s`, a plain subview (``isFast(_:)``) of
    /// `change.parent` still holding `change.old`, the parent's previous
    /// collection, which a change this traversal made replaced by
    /// `change.new`, takes `change.new`, exactly as
    /// ``updateOwnTraits(_:parent:parentChange:)`` and `enter` would. The
    /// caller checked that the parent still holds the new collection and that
    /// the change redraws nothing, keeps the change (and so both collections)
    /// alive, counts `s` in the stats and marks its subviews. Returns
    /// `.notPlain`, with `s` unchanged, when `s` is not such a subview (the
    /// general path handles it), `.hasSubviews` when its subviews come next.
    ///
    /// A subview that would be plain but for its registrations
    /// takes its collection here too and gives `.registered`:
    /// the caller then runs the rest of `apply` (``deliverRegistered(_:_:render:)``)
    /// and of `enter`.
    @inline(__always)
    private func enterPlainSubview(_ s: View, _ change: PlainChange) -> PlainSubviewResult {
        // Read once: the release below is a call, after which the flags would be read again.
        let flags = s.flags
        guard TraitWorld.isFast(s, flags), s.isSubview(ofOpaque: change.parent),
              Unmanaged.passUnretained(s.traitCollection).toOpaque() == change.old.toOpaque()
        else { return .notPlain }
        if change.recording && s.changedInUpdate != change.updateNumber {
            if !flags.contains(.hasUpdatedTraits) {
                s.previousCollectionRef = nil
            } else {
                // The first environment to replace a collection records it (general path).
                guard change.oldIsRecorded else { return .notPlain }
                s.previousCollectionRef = change.old
            }
            s.changedInUpdate = change.updateNumber
        }
        s.flags = flags.union(.hasUpdatedTraits)
        // The change holds the previous collection: this release frees nothing.
        change.new._withUnsafeGuaranteedRef { s.traitCollection = $0 }
        // (The caller finishes it, ``deliverRegistered(_:_:render:)``.)
        if flags.contains(.hasRegistrations) { return .registered }
        // Its traits are done and its subtree is entered now: nothing stays
        // pending (the caller marks its subviews).
        s.pending = []
        return s.subviews.isEmpty ? .done : .hasSubviews
    }

    /// The rest of `apply` and `enter`'s traits step for `s`, which
    /// `enterPlainSubview` gave its collection and found registered: it is
    /// left as they leave an environment before its callbacks (its subtree
    /// marker set, its children marked), then its callbacks run, then its
    /// hosted content's update. The caller holds `s` and `d` (the change it
    /// took as it is) and counted `s` in the stats.
    @inline(never)
    private func deliverRegistered(_ s: Unmanaged<View>, _ d: Unmanaged<Diff>, render: Bool) throws {
        if render { comesNext(s.toOpaque()) }
        try s._withUnsafeGuaranteedRef { v in
            try d._withUnsafeGuaranteedRef { diff in
                v.pending = .subtreeTraits
                markChildrenForTraits(v)
                try deliverChange(v, diff.old, diff)
                if v.flags.contains(.hasHostedContent) { try v.hostedContent?.hostTraitsDidUpdate() }
            }
        }
    }

    /// What the fast path takes: a plain view (nothing pending but its
    /// traits, and nothing that the general path would call or check when
    /// its collection changes), or one that would be plain but for its
    /// registrations.
    @inline(__always) private static func isFast(_ s: View) -> Bool { isFast(s, s.flags) }

    /// The same, given `s`'s flags as read.
    @inline(__always) private static func isFast(_ s: View, _ flags: EnvironmentFlags) -> Bool {
        s.pending == .traits && s.kind == .view
            && flags.isDisjoint(with: EnvironmentFlags.notPlain.subtracting(.hasRegistrations))
            && s.hostCallbacks & TraitWorld.hostTraitBits == 0
    }

    /// The host callbacks that make an environment's trait change leave the fast path.
    @inline(__always) static var hostTraitBits: UInt16 {
        TraitEnvironment.hostCachesCollection | TraitEnvironment.hostTraitCollectionDidChange
    }

    /// Structure changed at `e`: revisit every child, and update the
    /// properties of, lay out and draw what (re)entered the window. (Apple,
    /// "Updating views automatically with observation tracking": properties
    /// such as a label's text are set in updateProperties, which "runs before
    /// layout"; a view shows them from its first display on.)
    private func forceChildren(of e: TraitEnvironment) {
        if let v = e.asView {
            v.setNeedsUpdateProperties()
            v.markNeedsUpdateConstraints()
            v.setNeedsLayout()
            v.setNeedsDisplay()
        } else if let vc = e.asViewController {
            vc.setNeedsUpdateProperties()
            vc.markNeedsUpdateConstraints()
        } else if let pc = e as? PresentationController {
            pc.setNeedsLayout()
        }
        e.forEachTraitChild { c in c.pending.formUnion([.traits, .forceSubtree]) }
        e.pending.insert(.subtreeTraits)
        // Render work marked while detached must be reachable from the root again.
        for (need, marker) in [(PendingWork.properties, PendingWork.subtreeProperties), (.constraints, .subtreeConstraints),
                               (.layout, .subtreeLayout), (.display, .subtreeDisplay)]
        where e.pending.contains(need) || e.pending.contains(marker) {
            e.propagateUp(marker)
        }
    }

    /// `e`'s collection from its parent's; `parent`, when given, is the trait
    /// parent the caller found `e` under (saving the lookup).
    func computeCollection(_ e: TraitEnvironment, parent: TraitEnvironment? = nil) throws -> TraitCollection {
        if e.kind == .screen { return unsafeDowncast(e, to: Screen.self).computeDeviceTraits() }
        if let parent { return try collection(of: e, under: parent) }
        guard let parent = e.traitParent else { return e.traitCollection }
        return try collection(of: e, under: parent)
    }

    /// With overrides, a new collection: asked for from ``memoryBudget``
    /// first, with its diff (an id per entry).
    @inline(__always)
    private func collection(of e: TraitEnvironment, under parent: TraitEnvironment) throws -> TraitCollection {
        if e.kind == .presentationController {
            return unsafeDowncast(e, to: PresentationController.self).collection(under: parent.traitCollection)
        }
        guard e.hasOverrides else { return parent.traitCollection }
        let base = parent.traitCollection, overrides = e.overrideEntries
        if memoryMeter.budget != nil {
            try memoryMeter.charge(96 + (base.entries.count + overrides.count)
                                   * (MemoryLayout<TraitCollection.Entry>.stride + MemoryLayout<Int>.stride))
        }
        return applyingContentSizeLimits(e, base.applying(overrides), base: base)
    }

    /// Recomputes one environment's collection and, when it changed, marks its
    /// children and delivers its callbacks. Its descendants are not updated yet.
    /// `parentChange`, when given, is what changed `parent` in this traversal:
    /// an environment without overrides still holding the parent's previous
    /// collection takes the parent's new one and its diff as they are (most
    /// environments of a changed tree: no merge, no diff lookup). Returns the
    /// diff when the collection changed, for the children.
    @discardableResult
    func updateOwnTraits(_ e: TraitEnvironment, parent: TraitEnvironment? = nil,
                         parentChange: Diff? = nil) throws -> Diff? {
        let first = !e.hasUpdatedTraits
        e.hasUpdatedTraits = true
        if let pc = parentChange, let parent, !e.hasOverrides, e.kind != .screen, e.kind != .presentationController,
           TraitWorld.same(e.traitCollection, pc.old), TraitWorld.same(parent.traitCollection, pc.new) {
            e.hasUpdatedTraits = true
            try apply(pc, to: e, first: first)
            return pc
        }
        let old = e.traitCollection
        // (A refusal of the memory it takes leaves `e` as it was.)
        let new = try computeCollection(e, parent: parent)
        e.hasUpdatedTraits = true
        if new === old { return nil }
        let diff = diffCache.diff(old, new)
        if diff.ids.isEmpty { return nil }
        try apply(diff, to: e, first: first)
        return diff
    }

    /// Whether `a` and `b` are one object, compared without reference counting.
    @inline(__always) static func same(_ a: TraitCollection, _ b: TraitCollection) -> Bool {
        Unmanaged.passUnretained(a).toOpaque() == Unmanaged.passUnretained(b).toOpaque()
    }

    /// `e`'s collection changed as `diff` says (`first`: it is the first
    /// collection an update gave it): stores it, marks its children, and
    /// delivers its callbacks.
    private func apply(_ diff: Diff, to e: TraitEnvironment, first: Bool) throws {
        // The diff holds both collections: `old` lives while it does.
        let old = diff.old
        e.traitCollection = diff.new
        if recordsRecentChanges && e.changedInUpdate != updateNumber {
            // An environment's first collection is no change to point out
            // (before it joined a scene it had only the prediction).
            if first {
                e.previousCollection = nil
            } else {
                if replacedCollections.last !== old { replacedCollections.append(old) }
                e.previousCollection = old
            }
            e.changedInUpdate = updateNumber
        }
        if e.hostCallbacks & TraitEnvironment.hostCachesCollection != 0 { activeDelegate?.environmentDidUpdateTraits(e) }
        stats.traitUpdates += 1
        markChildrenForTraits(e)
        e.pending.insert(.subtreeTraits)
        if tracer != nil { trace(.traitsChanged(e, diff.definitions)) }
        if e.isView {
            if diff.affectsColor || (e.extras != nil && unsafeDowncast(e, to: View.self).imageReads(anyOf: diff.definitions)) {
                unsafeDowncast(e, to: View.self).setNeedsDisplay()
            }
            if e.hasTrackedTraits { invalidateTracked(e, unsafeDowncast(e, to: View.self), diff.ids) }
            // A controller's tracked callbacks also read its view's collection;
            // without overrides the view's change was the controller's (handled).
            if e.hasOverrides, let vc = unsafeDowncast(e, to: View.self).owningViewController,
               vc.hasTrackedTraits, vc.viewIfLoaded === e {
                invalidateTracked(vc, unsafeDowncast(e, to: View.self), diff.ids)
            }
        } else if e.hasTrackedTraits, let vc = e.asViewController, let v = vc.viewIfLoaded {
            invalidateTracked(vc, v, diff.ids)
        } else if e.hasTrackedTraits, e.kind == .presentationController, let box = e.trackedBox,
                  box.lists(.layout, anyOf: diff.ids) {
            unsafeDowncast(e, to: PresentationController.self).setNeedsLayout()
        }
        try deliverChange(e, old, diff)
    }

    /// The callbacks of `e`'s change, once its collection is stored: its
    /// registrations, then `traitCollectionDidChange` (UIKit's order, WWDC23
    /// "Unleash the UIKit trait system"). `apply` and the fast path share it.
    @inline(__always)
    private func deliverChange(_ e: TraitEnvironment, _ old: TraitCollection, _ diff: Diff) throws {
        if e.hasRegistrations { try deliver(e, old, diff) }
        // The engine's classes only forward to the host (see `isSubclassed`).
        if e.isSubclassed {
            try e.traitCollectionDidChange(old)
        } else if e.hostCallbacks & TraitEnvironment.hostTraitCollectionDidChange != 0 {
            try performAsCurrent(e.traitCollection) { try activeDelegate?.environment(e, traitCollectionDidChange: old) }
        }
    }

    /// Marks the trait children of `e` for a trait update (`forEachTraitChild`,
    /// with a plain view's subviews walked here rather than through a closure).
    @inline(__always)
    private func markChildrenForTraits(_ e: TraitEnvironment) {
        guard e.kind == .view else {
            e.forEachTraitChild { $0.pending.insert(.traits) }
            return
        }
        if unsafeDowncast(e, to: View.self).subviews.isEmpty { return }
        unsafeDowncast(e, to: View.self).subviews.withUnsafeBufferPointer { subviews in
            for s in subviews { TraitWorld.markForTraits(s, subviewOf: e) }
        }
    }

    /// Marks what subview `s` of `parent` stands for in the trait tree: `s`,
    /// or the controller owning it when that inherits from `parent`.
    @inline(__always)
    static func markForTraits(_ s: View, subviewOf parent: TraitEnvironment) {
        if s.hasOwningViewController {
            if let vc = s.owningViewController, vc.inherits(from: parent) { vc.pending.insert(.traits) }
        } else {
            s.pending.insert(.traits)   // a subview's superview is this view
        }
    }

    private func invalidateTracked(_ e: TraitEnvironment, _ view: View, _ ids: [Int]) {
        // Reads recorded on iOS 18 or later invalidate nothing once the
        // world runs an earlier version (``os`` set after them).
        guard tracksTraitsAutomatically, let box = e.trackedBox else { return }
        if box.lists(.layout, anyOf: ids) { view.setNeedsLayout() }
        if box.lists(.display, anyOf: ids) { view.setNeedsDisplay() }
        if box.lists(.properties, anyOf: ids) { e.markNeedsUpdateProperties() }
        if box.lists(.constraints, anyOf: ids) { e.markNeedsUpdateConstraints() }
    }

    /// Runs `e`'s registrations for `diff`: those made before the first runs
    /// (this holds them, as an array copy would), each still active when reached.
    private func deliver(_ e: TraitEnvironment, _ old: TraitCollection, _ diff: Diff) throws {
        switch e.registrationList {
        case nil: break
        case .one(let r): try deliver(r, e, old, diff)
        case .many(let all): for r in all { try deliver(r, e, old, diff) }
        }
    }

    @inline(__always)
    private func deliver(_ r: TraitChangeRegistration, _ e: TraitEnvironment, _ old: TraitCollection, _ diff: Diff) throws {
        guard r.isActive && r.matches(diff.ids) else { return }
        stats.handlersCalled += 1
        trace(.handlerCalled(e, r.traits.filter { diff.ids.contains($0.id) }))
        // Handlers run with the environment's collection current, as UIKit's do.
        if try !performAsCurrent(e.traitCollection, { try r.deliver(e, old, in: self) }) { e.unregisterForTraitChanges(r) }
    }

    /// `updateTraitsIfNeeded`: updates the environments from the root down to
    /// `e` and, with `subtree`, everything below `e`, delivering change
    /// callbacks now; layout is left for the next update.
    func updateTraitsNow(along e: TraitEnvironment, subtree: Bool = true) throws {
        try deliverNotedTransitions()
        reparentPresentations()
        guard e.isInWindowScene || e.kind == .screen else { return }
        var path: [TraitEnvironment] = []
        var cur: TraitEnvironment? = e.traitParent
        while let c = cur { path.append(c); cur = c.traitParent }
        if !isUpdating && path.contains(where: { $0.pending.contains(.traits) }) { beginNumberedUpdate() }
        for node in path.reversed() where node.pending.contains(.traits) {
            try updateOneNow(node)
        }
        if subtree {
            hasPendingWork = true
            try visit(e, .traitsOnly)
        } else if e.pending.contains(.traits) {
            try updateOneNow(e)
        }
    }

    private func updateOneNow(_ node: TraitEnvironment) throws {
        node.pending.remove(.traits)
        if node.pending.contains(.forceSubtree) {
            forceChildren(of: node)
            // A controller about to appear stays marked, so the update
            // still runs its appearance callbacks.
            if let vc = node.asViewController, vc.appearance == .disappeared, vc.isViewInWindow {
                node.pending.insert(.traits)
            } else {
                node.pending.remove(.forceSubtree)
            }
        }
        try updateOwnTraits(node)
        if node.flags.contains(.hasHostedContent) { try node.hostedContent?.hostTraitsDidUpdate() }
        hasPendingWork = true
    }

    // MARK: Appearance

    private func handleDisappearances() throws {
        let leaving = appeared.filter { !$0.isViewInWindow || !$0.isInWindowScene }
        guard !leaving.isEmpty else { return }
        // Sets, not searches of the lists: dismissing a chain of 50,000
        // presentations makes 50,000 controllers leave at once.
        let leavingIDs = Set(leaving.map(ObjectIdentifier.init))
        appeared.removeAll { leavingIDs.contains(ObjectIdentifier($0)) }
        var handled = Set<ObjectIdentifier>()
        // The controllers handled no longer wait for viewDidAppear.
        defer { if !didAppearQueue.isEmpty { didAppearQueue.removeAll { handled.contains(ObjectIdentifier($0)) } } }
        for (n, vc) in leaving.enumerated() {
            handled.insert(ObjectIdentifier(vc))
            vc.appearance = .disappearing
            didDisappearQueue.append(vc)
            do {
                try vc.viewWillDisappear()
            } catch {
                // The controllers not handled yet are checked again at the next update.
                appeared.append(contentsOf: leaving[(n + 1)...])
                structureChanged = true
                hasPendingWork = true
                throw error
            }
        }
    }

    private func flushAppearanceQueues() throws {
        // Callbacks still queued when one of them fails run at the next update.
        defer { if !didDisappearQueue.isEmpty || !didAppearQueue.isEmpty { hasPendingWork = true } }
        // (In order, each removed before its callback runs; the ones left
        // when a callback fails stay queued. Removed in one step at the end:
        // one removeFirst each would be quadratic in a long queue.)
        var done = 0
        defer { didDisappearQueue.removeFirst(done) }
        while done < didDisappearQueue.count {
            let vc = didDisappearQueue[done]
            done += 1
            vc.appearance = .disappeared
            try vc.viewDidDisappear()
        }
        var appearedDone = 0
        defer { didAppearQueue.removeFirst(appearedDone) }
        while appearedDone < didAppearQueue.count {
            let vc = didAppearQueue[appearedDone]
            appearedDone += 1
            try vc.viewDidAppear()
        }
    }

    // MARK: Properties, layout, display

    /// Runs one kind of render work (properties, layout or display) where it
    /// is pending below `root`, top-down, with an explicit stack.
    private func visitRender(_ root: TraitEnvironment, _ need: PendingWork, _ marker: PendingWork) throws {
        var stack: [(env: TraitEnvironment, children: [TraitEnvironment], next: Int)] = []
        func enter(_ e: TraitEnvironment) throws {
            if e.pending.contains(need) {
                e.pending.remove(need)
                try perform(need, on: e)
            }
            guard e.pending.contains(marker) else { return }
            e.pending.remove(marker)
            stack.append((e, e.traitChildren, 0))
        }
        do {
            try enter(root)
            while !stack.isEmpty {
                let top = stack.count - 1
                guard stack[top].next < stack[top].children.count else {
                    stack.removeLast()
                    continue
                }
                let c = stack[top].children[stack[top].next]
                stack[top].next += 1
                if c.pending.contains(need) || c.pending.contains(marker) { try enter(c) }
            }
        } catch {
            // What was not reached stays reachable from the root for the next update.
            for frame in stack { frame.env.pending.insert(marker) }
            hasPendingWork = true
            throw error
        }
    }

    private func perform(_ work: PendingWork, on e: TraitEnvironment) throws {
        if work == .properties {
            // updateProperties exists from iOS 26: never called before.
            guard os.has(.updateProperties) else { return }
            stats.propertyUpdates += 1
            try e.tracking(.properties) {
                if let v = e.asView { try v.updateProperties() } else if let vc = e.asViewController { try vc.updateProperties() }
            }
        } else if work == .constraints {
            try e.tracking(.constraints) {
                if let v = e.asView { try v.updateConstraints() } else if let vc = e.asViewController { try vc.updateViewConstraints() }
            }
        } else if work == .layout, let v = e.asView {
            try layout(v)
        } else if work == .layout, e.kind == .presentationController {
            try layoutContainer(unsafeDowncast(e, to: PresentationController.self))
        } else if work == .display, let v = e.asView {
            stats.draws += 1
            try v.tracking(.display) { try v.draw() }
        }
    }

    private func layout(_ v: View) throws {
        stats.layouts += 1
        let vc = v.owningViewController.flatMap { $0.viewIfLoaded === v ? $0 : nil }
        if let vc {
            vc.tracked.layout = []
            // (A new run: viewDidLayoutSubviews adds to what this one reads.)
            try vc.tracking(.layout) { try vc.viewWillLayoutSubviews() }
        }
        try v.tracking(.layout) { try v.layoutSubviews() }
        if let vc { try vc.tracking(.layout, accumulate: true) { try vc.viewDidLayoutSubviews() } }
    }

    /// A presentation's container lays out: `containerViewWillLayoutSubviews`
    /// then `containerViewDidLayoutSubviews` (its presented content lays out
    /// after it, in the same traversal), both tracked (iOS 18: "UIKit
    /// supports automatic trait tracking inside this method").
    private func layoutContainer(_ pc: PresentationController) throws {
        pc.tracked.layout = []
        try pc.tracking(.layout, accumulate: true) { try pc.containerViewWillLayoutSubviews() }
        try pc.tracking(.layout, accumulate: true) { try pc.containerViewDidLayoutSubviews() }
    }

    /// `updatePropertiesIfNeeded` and `updateConstraintsIfNeeded`: runs
    /// `need` now where it is pending on `e`'s ancestors (outermost first)
    /// and in `e`'s subtree.
    func renderNow(_ e: TraitEnvironment, _ need: PendingWork, _ marker: PendingWork) throws {
        var path: [TraitEnvironment] = []
        var cur = e.traitParent
        while let c = cur { if c.pending.contains(need) { path.append(c) }; cur = c.traitParent }
        for a in path.reversed() where a.pending.contains(need) {
            a.pending.remove(need)
            try perform(need, on: a)
        }
        try visitRender(e, need, marker)
    }

    func updatePropertiesNow(_ e: TraitEnvironment) throws { try checkBeforeApplyingWork(); try renderNow(e, .properties, .subtreeProperties) }
    func updateConstraintsNow(_ e: TraitEnvironment) throws { try checkBeforeApplyingWork(); try renderNow(e, .constraints, .subtreeConstraints) }

    /// `layoutIfNeeded`: starts at the outermost of the unbroken line of
    /// ancestors that need layout (Core Animation, `CALayer.layoutIfNeeded`:
    /// "the layer's super layers are traversed until a ancestor layer is
    /// found that does not require layout. Then layout is performed on the
    /// entire layer-tree beneath that ancestor"), updates what that inherits
    /// from, then runs the update's traversal over its subtree now (traits,
    /// properties, constraints and layout; outside any window, no traits).
    func layoutNow(_ view: View) throws {
        try checkBeforeApplyingWork()
        var host = view.traitHost
        var cur = host.traitParent
        while let c = cur {
            // A controller lays out through its view: look past it.
            if c.kind == .viewController { cur = c.traitParent; continue }
            guard c.isView, c.pending.contains(.layout) else { break }
            host = unsafeDowncast(c, to: View.self).traitHost
            cur = host.traitParent
        }
        if host.isInWindowScene {
            try updateTraitsNow(along: host, subtree: false)
            try visit(host, .full)
        } else {
            try visit(host, .renderOnly)
        }
    }
}

/// An environment being visited and its children, taken after its own work
/// (``TraitWorld/visit(_:_:)``). A plain view keeps its subviews array as it
/// was then (no copy, no list to build: this runs for most environments of a
/// big tree) and checks each candidate's parent when it reaches it; other
/// kinds list their trait children. The frame holds that array, so its
/// elements are read without reference counting; `env` and `changeRef` are
/// held by `owner` and `change`, or, for a subview entered on the fast
/// path, by the frames below (the subviews array that listed it, and the
/// frame whose change it took).
struct VisitFrame {
    let subviews: [View]?
    let children: [TraitEnvironment]?
    let owner: TraitEnvironment?
    /// What changed `env`'s collection in this traversal, if it changed.
    let change: Diff?
    let env: Unmanaged<TraitEnvironment>
    let changeRef: Unmanaged<Diff>?
    let elements: UnsafeRawPointer?
    let count: Int
    var next = 0
    /// The last subview the fast path tried here was not plain.
    var plainFailed = false

    init(owner: TraitEnvironment, subviews: [View], change: Diff?) {
        self.init(env: Unmanaged.passUnretained(owner), owner: owner, subviews: subviews, children: nil,
                  change: change, changeRef: change.map { Unmanaged.passUnretained($0) })
    }

    init(owner: TraitEnvironment, children: [TraitEnvironment], change: Diff?) {
        self.init(env: Unmanaged.passUnretained(owner), owner: owner, subviews: nil, children: children,
                  change: change, changeRef: change.map { Unmanaged.passUnretained($0) })
    }

    init(plainView: Unmanaged<View>, subviews: [View], changeRef: Unmanaged<Diff>) {
        self.init(env: Unmanaged<TraitEnvironment>.fromOpaque(plainView.toOpaque()), owner: nil,
                  subviews: subviews, children: nil, change: nil, changeRef: changeRef)
    }

    private init(env: Unmanaged<TraitEnvironment>, owner: TraitEnvironment?, subviews: [View]?,
                 children: [TraitEnvironment]?, change: Diff?, changeRef: Unmanaged<Diff>?) {
        self.env = env
        self.owner = owner
        self.subviews = subviews
        self.children = children
        self.change = change
        self.changeRef = changeRef
        if let subviews {
            elements = subviews.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            count = subviews.count
        } else if let children {
            elements = children.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            count = children.count
        } else {
            elements = nil
            count = 0
        }
    }

    /// Subview `i` of a view's frame, unretained (the frame holds the array,
    /// and an array held here is never written: a view's edits copy it).
    @inline(__always) func subview(at i: Int) -> Unmanaged<View> {
        elements.unsafelyUnwrapped.load(fromByteOffset: i &* MemoryLayout<Unmanaged<View>>.stride,
                                        as: Unmanaged<View>.self)
    }

    /// Marks the subviews of a plain view's frame for a trait update, as
    /// `updateOwnTraits` marks a changed view's trait children.
    @inline(__always) func markPlainSubviewsForTraits() {
        env._withUnsafeGuaranteedRef { parent in
            for i in 0..<count {
                subview(at: i)._withUnsafeGuaranteedRef { TraitWorld.markForTraits($0, subviewOf: parent) }
            }
        }
    }

    /// The child at `i`, unretained (alive until the next call out of the
    /// engine: a controller is held by its parent, not by this frame); nil
    /// when that candidate inherits from elsewhere now.
    @inline(__always) func child(at i: Int) -> Unmanaged<TraitEnvironment>? {
        let element = elements.unsafelyUnwrapped.load(fromByteOffset: i &* MemoryLayout<Unmanaged<TraitEnvironment>>.stride,
                                                      as: Unmanaged<TraitEnvironment>.self)
        if subviews == nil { return element }
        return env._withUnsafeGuaranteedRef { parent in
            Unmanaged<View>.fromOpaque(element.toOpaque())._withUnsafeGuaranteedRef { s in
                if s.hasOwningViewController {
                    return unsafeDowncast(parent, to: View.self).traitChild(for: s).map { Unmanaged.passUnretained($0) }
                }
                return s.isSubview(ofOpaque: env.toOpaque()) ? element : nil
            }
        }
    }
}

/// The frames of one traversal, in memory of its own: frames are built in
/// place and dropped in place (an array of them copied each one on the way
/// in and out, a third of a root change's instructions).
struct VisitStack {
    private var base: UnsafeMutablePointer<VisitFrame>
    private var capacity = 32
    private(set) var count = 0

    init() { base = .allocate(capacity: capacity) }

    var top: UnsafeMutablePointer<VisitFrame> { base + (count - 1) }

    @inline(__always) mutating func push(_ frame: consuming VisitFrame) {
        if count == capacity { grow() }
        (base + count).initialize(to: frame)
        count += 1
    }

    @inline(never) private mutating func grow() {
        let bigger = UnsafeMutablePointer<VisitFrame>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    @inline(__always) mutating func pop() {
        count -= 1
        _ = (base + count).move()
    }

    /// The environments of the frames, outermost first.
    var environments: [TraitEnvironment] { (0..<count).map { base[$0].env.takeUnretainedValue() } }

    /// Drops the frames left and the memory.
    mutating func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
        count = 0
    }
}

/// The traits that differ between two collections, remembered for the few
/// pairs seen most recently: siblings sharing their parent's collection see the
/// same pair, so the diff is computed once per distinct change.
/// (A class: each environment an update reaches gets one, and a reference is
/// one retain where a struct of two arrays was two.) It holds both collections,
/// so an environment taking its parent's change as it is can compare
/// identities with them safely while the diff lives.
final class Diff {
    let old: TraitCollection
    let new: TraitCollection
    let ids: [Int]
    let definitions: [TraitDefinition]
    let affectsColor: Bool

    init(old: TraitCollection, new: TraitCollection) {
        self.old = old
        self.new = new
        let defs = new.changedTraits(from: old)
        self.definitions = defs
        self.ids = defs.map(\.id)
        self.affectsColor = defs.contains { $0.affectsColorAppearance }
    }
}

private struct DiffCache {
    // Each diff holds its pair, so identities cannot be reused while cached.
    private var slots: [Diff] = []
    private var next = 0
    /// The slot that answered last: siblings ask for the same pair in a row.
    private var last = 0

    mutating func diff(_ old: TraitCollection, _ new: TraitCollection) -> Diff {
        if last < slots.count, slots[last].old === old, slots[last].new === new { return slots[last] }
        for i in slots.indices where slots[i].old === old && slots[i].new === new {
            last = i
            return slots[i]
        }
        let d = Diff(old: old, new: new)
        if slots.count < 4 {
            last = slots.count
            slots.append(d)
        } else {
            last = next
            slots[next] = d
            next = (next + 1) % 4
        }
        return d
    }
}

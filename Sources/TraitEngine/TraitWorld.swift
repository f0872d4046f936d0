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
    @exclusivity(unchecked) var appeared: [ViewController] = []
    @exclusivity(unchecked) var didAppearQueue: [ViewController] = []
    @exclusivity(unchecked) var didDisappearQueue: [ViewController] = []
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
    @exclusivity(unchecked) var diffCache = DiffCache()
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
    @exclusivity(unchecked) var memoryMeter = BudgetMeter(nil)

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
    @exclusivity(unchecked) var replacedCollections: [TraitCollection] = []

    /// A new update number: what the last update replaced can go.
    func beginNumberedUpdate() {
        updateNumber += 1
        if !replacedCollections.isEmpty { replacedCollections.removeAll(keepingCapacity: true) }
    }
    @exclusivity(unchecked) var isUpdating = false

    /// A world modelling the newest iOS (``OSVersion/newest``) with no scenes:
    /// its main screen (``mainScreen``) is made on first use.
    public init() {}

    /// The default screen profile (`ui.Screen.main`), created on first use: an
    /// iPhone in portrait, light mode, default text size.
    public var mainScreen: Screen {
        if let s = mainScreenStorage { return s }
        let s = Screen(world: self, traits: mainScreenProfile)
        s.device = mainScreenDevice
        s.orientation = mainScreenOrientation
        s.name = "main"
        s.isMainScreen = true
        mainScreenStorage = s
        return s
    }
    private var mainScreenStorage: Screen?

    /// The device `ui.Screen.main` is (``DeviceCatalogue/main`` unless
    /// ``configureMainScreen(device:orientation:sceneSize:settings:)`` chose another).
    public private(set) var mainScreenDevice: Device = DeviceCatalogue.main
    /// The orientation `ui.Screen.main` starts in (`--orientation`).
    public private(set) var mainScreenOrientation: Orientation = .portrait
    /// The size a window scene on `ui.Screen.main` starts at (`--scene-size`):
    /// ``SceneSize/full`` unless configured.
    public private(set) var mainSceneSize: SceneSize = .full
    /// `ui.Screen.main`'s traits, and what a new environment predicts.
    private var mainScreenProfile: TraitCollection = TraitWorld.mainScreenTraits

    /// Makes `ui.Screen.main` `device` in `orientation` with the default
    /// profile's settings (light, default text size, ...), then `settings`
    /// over all of it (`--device`, `--orientation`, `--screen TRAIT=VALUE`);
    /// window scenes made on it start at `sceneSize` (`--scene-size`). Before
    /// the main screen is first used: afterwards it throws and changes
    /// nothing. Throws too, changing nothing, for an orientation the device
    /// does not turn to or a scene size it does not offer in that orientation.
    public func configureMainScreen(device: Device, orientation: Orientation = .portrait, sceneSize: SceneSize = .full,
                                    settings: [TraitCollection.Entry] = []) throws {
        guard mainScreenStorage == nil else {
            throw TraitError("the main screen is configured before it is first used (ui.Screen.main exists already)")
        }
        _ = try device.scene(sceneSize, orientation: orientation)
        let traits = try device.screenTraits(orientation, settings: TraitWorld.mainScreenTraits)
        mainScreenDevice = device
        mainScreenOrientation = orientation
        mainSceneSize = sceneSize
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
}

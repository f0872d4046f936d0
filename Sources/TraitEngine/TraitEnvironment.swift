/// Work an environment can have pending; also the subtree markers that let an
/// update walk only the dirty part of the tree.
struct PendingWork: OptionSet {
    let rawValue: UInt16
    static let traits = PendingWork(rawValue: 1 << 0)
    static let subtreeTraits = PendingWork(rawValue: 1 << 1)
    /// Visit the whole subtree (structure changed: appearance may change below).
    static let forceSubtree = PendingWork(rawValue: 1 << 2)
    static let properties = PendingWork(rawValue: 1 << 3)
    static let subtreeProperties = PendingWork(rawValue: 1 << 4)
    static let layout = PendingWork(rawValue: 1 << 5)
    static let subtreeLayout = PendingWork(rawValue: 1 << 6)
    static let display = PendingWork(rawValue: 1 << 7)
    static let subtreeDisplay = PendingWork(rawValue: 1 << 8)
    /// `updateConstraints` / `updateViewConstraints` (`setNeedsUpdateConstraints`).
    static let constraints = PendingWork(rawValue: 1 << 9)
    static let subtreeConstraints = PendingWork(rawValue: 1 << 10)
}

/// The traits one environment read during tracked callbacks, per kind of work.
/// The work a tracked method does, which a tracked read invalidates:
/// layout (`layoutSubviews`, `viewWillLayoutSubviews`, ...), display
/// (`draw`), properties (`updateProperties`) or constraints
/// (`updateConstraints`, `updateViewConstraints`).
public enum TrackedWork: Sendable, CaseIterable {
    /// Layout: `layoutSubviews`, `viewWillLayoutSubviews`, `viewDidLayoutSubviews`
    /// and a presentation's container layout (`setNeedsLayout` when a read trait changes).
    case layout
    /// Display: `draw` (`setNeedsDisplay`).
    case display
    /// Properties: `updateProperties` (`setNeedsUpdateProperties`).
    case properties
    /// Constraints: `updateConstraints` and `updateViewConstraints` (`setNeedsUpdateConstraints`).
    case constraints
}

struct TrackedTraits {
    var layout: [TraitDefinition] = []
    var display: [TraitDefinition] = []
    var properties: [TraitDefinition] = []
    var constraints: [TraitDefinition] = []
    var isEmpty: Bool { layout.isEmpty && display.isEmpty && properties.isEmpty && constraints.isEmpty }

    /// Which list a tracked callback fills.
    typealias Kind = TrackedWork

    subscript(kind: Kind) -> [TraitDefinition] {
        get {
            switch kind {
            case .layout: return layout
            case .display: return display
            case .properties: return properties
            case .constraints: return constraints
            }
        }
        set {
            switch kind {
            case .layout: layout = newValue
            case .display: display = newValue
            case .properties: properties = newValue
            case .constraints: constraints = newValue
            }
        }
    }
}

/// Where an environment keeps its ``TrackedTraits`` once it has any.
final class TrackedTraitsBox {
    @exclusivity(unchecked) var traits: TrackedTraits
    init(_ traits: TrackedTraits) { self.traits = traits }

    /// Whether the `kind` list names a trait whose id is in `ids`. (The lists
    /// are read in place: a copy of ``traits`` is three retains and releases,
    /// once per tracked environment in every change. Reading through
    /// ``TrackedTraits``'s subscript instead costs a retain and a release of
    /// the list: measured, 60 instructions per tracked view.)
    func lists(_ kind: TrackedTraits.Kind, anyOf ids: [Int]) -> Bool {
        switch kind {
        case .layout: return TrackedTraitsBox.hit(traits.layout, ids)
        case .display: return TrackedTraitsBox.hit(traits.display, ids)
        case .properties: return TrackedTraitsBox.hit(traits.properties, ids)
        case .constraints: return TrackedTraitsBox.hit(traits.constraints, ids)
        }
    }

    /// Whether `tracker` read exactly the `kind` list, in order.
    func isExactly(_ kind: TrackedTraits.Kind, readBy tracker: TraitReadTracker) -> Bool {
        switch kind {
        case .layout: return tracker.readExactly(traits.layout)
        case .display: return tracker.readExactly(traits.display)
        case .properties: return tracker.readExactly(traits.properties)
        case .constraints: return tracker.readExactly(traits.constraints)
        }
    }

    @inline(__always)
    private static func hit(_ list: [TraitDefinition], _ ids: [Int]) -> Bool {
        for d in list { for id in ids where id == d.id { return true } }
        return false
    }
}

/// One bit per fact about an environment that an update tests, kept in one
/// byte of the object so that the fast path (``TraitWorld``'s
/// `enterPlainSubview`) decides from the object alone whether a view is plain,
/// without reading ``EnvironmentExtras``. Each `has…` bit says whether the
/// matching field of the extras is set; only the accessors of
/// ``TraitEnvironment`` write them, and they keep them current.
struct EnvironmentFlags: OptionSet {
    let rawValue: UInt8
    /// An instance of a class written outside the engine (see ``TraitEnvironment/isSubclassed``).
    static let isSubclassed = EnvironmentFlags(rawValue: 1 << 0)
    static let isExposed = EnvironmentFlags(rawValue: 1 << 1)
    static let hasUpdatedTraits = EnvironmentFlags(rawValue: 1 << 2)
    static let hasOverrides = EnvironmentFlags(rawValue: 1 << 3)
    static let hasRegistrations = EnvironmentFlags(rawValue: 1 << 4)
    static let hasTrackedTraits = EnvironmentFlags(rawValue: 1 << 5)
    static let hasHostedContent = EnvironmentFlags(rawValue: 1 << 6)
    static let hasOwningViewController = EnvironmentFlags(rawValue: 1 << 7)
    /// What makes a trait change of the environment leave the fast path.
    static let notPlain: EnvironmentFlags = [.isSubclassed, .hasOverrides, .hasRegistrations, .hasTrackedTraits,
                                             .hasHostedContent, .hasOwningViewController]
}

/// The fields of an environment that most environments leave empty, held
/// apart so that the object every environment pays for stays small (here:
/// a view is 88 bytes, a 96-byte heap chunk, where these fields made it 176).
/// Made on first use; an update reaches it only through a bit of
/// `EnvironmentFlags` that says the field it wants is set. What an update
/// may read is here; what it never reads (names, colors, hosted content)
/// is one step further, in ``EnvironmentDetails``, so that a view with an
/// override or a registration pays 64 bytes here rather than 112.
final class EnvironmentExtras {
    @exclusivity(unchecked) var overrideEntries: [TraitCollection.Entry] = []
    /// Nil without registrations.
    @exclusivity(unchecked) var registrationList: RegistrationList?
    /// Nil while tracked callbacks have read nothing.
    @exclusivity(unchecked) var tracked: TrackedTraitsBox?
    /// A view's ``View/owningViewController`` (unretained: the controller holds the view).
    @exclusivity(unchecked) var owningViewController: Unmanaged<ViewController>?
    @exclusivity(unchecked) var details: EnvironmentDetails?
}

/// An environment's registrations, in the order they were made. Most
/// environments that have any have one, kept without an array (a 48-byte
/// chunk per registered view); both cases are one pointer, the enum's tag in
/// its spare bits (`ObjectLayoutTests`; a generic enum of the same shape
/// gets a tag byte of its own, and so does the registration's `Traits`).
enum RegistrationList {
    case one(TraitChangeRegistration)
    case many([TraitChangeRegistration])

    var array: [TraitChangeRegistration] {
        switch self {
        case .one(let r): return [r]
        case .many(let rs): return rs
        }
    }

    var count: Int {
        switch self {
        case .one: return 1
        case .many(let rs): return rs.count
        }
    }
}

/// What an environment keeps beyond the fields every environment has, in one
/// word (the enum's tag in the pointers' spare bits, `ObjectLayoutTests`):
/// its extras, or, for the many registered views with nothing else extra,
/// their one registration alone (a 64-byte chunk less per such view).
/// ``TraitEnvironment/makeExtras()`` moves a lone registration into new
/// extras; ``TraitEnvironment/releaseEmptyExtras()`` moves it back out.
enum ExtraStorage {
    case extras(EnvironmentExtras)
    case registration(TraitChangeRegistration)
}

/// The rarest fields of an environment (see ``EnvironmentExtras``).
final class EnvironmentDetails {
    var name: String?
    /// Set only when it differs from ``TraitEnvironment/defaultClassName``.
    var className: String?
    /// A view's ``View/backgroundColor``.
    var backgroundColor: ColorValue?
    /// A view's tint colour and image (ViewResources.swift).
    var resources: ViewResources?
    /// SwiftUI content hosted here, updated right after this environment's traits.
    var hostedContent: HostedContent?
    /// A view's `minimumContentSizeCategory` and `maximumContentSizeCategory`
    /// (kept with its ``TraitLayer/contentSizeCategoryLimits`` layer).
    var contentSizeLimits: ContentSizeLimits?
    /// The trait layers (``TraitLayer``) set here, and while there are any
    /// the user's own overrides (`traitOverrides`): the extras' override
    /// entries are then the two merged.
    var layers: [TraitLayer: [TraitCollection.Entry]] = [:]
    var userOverrides: [TraitCollection.Entry] = []
    /// The latest run of each kind of tracked work here, once one of them
    /// read an observed value (``ObservationRuns``).
    var observationRuns: ObservationRuns?
}

/// Traits an environment gets from somewhere other than its
/// `traitOverrides`, applied over its parent's collection in this order and
/// under its own `traitOverrides` (which win).
public enum TraitLayer: Int, CaseIterable, Comparable, Sendable {
    /// A window scene's size classes, from its size on its device.
    case sceneGeometry
    /// A child view controller's collection set by its parent
    /// (`setOverrideTraitCollection(_:forChild:)`), or a presentation
    /// controller's `overrideTraitCollection`.
    case overrideTraitCollection
    /// `overrideUserInterfaceStyle` of a view, view controller or window.
    case overrideUserInterfaceStyle
    /// A view's `minimumContentSizeCategory` / `maximumContentSizeCategory`:
    /// they clamp `preferredContentSizeCategory` after the view's own
    /// overrides (``ContentSizeLimits``).
    case contentSizeCategoryLimits

    /// The order layers are applied in: the later one wins.
    public static func < (a: TraitLayer, b: TraitLayer) -> Bool { a.rawValue < b.rawValue }
}

/// A node of the trait hierarchy (UIKit's `UITraitEnvironment`): screens, window
/// scenes, windows, presentation controllers, view controllers and views.
///
/// An environment's collection is its parent's collection with its own
/// overrides applied. Changes are deferred: they take effect at the next
/// ``TraitWorld/update()``, and `traitCollection` returns the previous value until then.
///
/// The object holds only what an update reads of every environment, 72 bytes
/// after the header (88 in all, a 96-byte heap chunk: a test checks it), and
/// its stored properties are marked `@exclusivity(unchecked)`: the engine
/// runs on one thread and never holds an access to them across a call, and
/// the run-time checks Swift would otherwise make on each access were half
/// the cost of propagating a change (docs/performance.md). What most
/// environments leave empty (overrides, registrations, tracked reads, names,
/// colors, hosted content, a view's controller) is in `EnvironmentExtras`,
/// made on first use, and one byte of `EnvironmentFlags` says which of it
/// is set.
open class TraitEnvironment: CustomStringConvertible {
    /// What an environment is, stored so the update cycle needs no dynamic casts.
    enum Kind: UInt8 {
        case screen, windowScene, window, view, viewController, presentationController

        /// The engine class of this kind's name.
        var className: String {
            switch self {
            case .screen: return "Screen"
            case .windowScene: return "WindowScene"
            case .window: return "Window"
            case .view: return "View"
            case .viewController: return "ViewController"
            case .presentationController: return "PresentationController"
            }
        }
    }

    let kind: Kind
    @exclusivity(unchecked) var flags: EnvironmentFlags = []
    @exclusivity(unchecked) var pending: PendingWork = []
    /// What the host wants to hear about this environment (it keeps the bits
    /// current): a ``LifecycleEvent/hostBit`` per lifecycle callback the
    /// host's object defines, ``hostTraitCollectionDidChange``, and
    /// ``hostCachesCollection`` while the host holds a view of the current
    /// collection it must drop when the collection changes. The engine calls
    /// the delegate only for the bits set, so an update costs nothing for what
    /// a script did not ask for.
    @exclusivity(unchecked) public var hostCallbacks: UInt16 = 0
    /// The ``hostCallbacks`` bit asking for
    /// ``TraitWorldDelegate/environment(_:traitCollectionDidChange:)``.
    public static let hostTraitCollectionDidChange: UInt16 = 1 << 11
    /// The ``hostCallbacks`` bit saying the host caches a view of the
    /// collection (``TraitWorldDelegate/environmentDidUpdateTraits(_:)``
    /// tells it to drop it).
    public static let hostCachesCollection: UInt16 = 1 << 12
    /// A class name set by a host, other than ``defaultClassName``: 1 + its
    /// index in the world's table of such names (``TraitWorld/className(at:)``),
    /// 0 when there is none or the table is full (the name is then in the
    /// details). A host names every instance of a class alike (the Lua binding
    /// names each instance of a Lua subclass after its class), so the name
    /// costs an instance nothing: this fills padding.
    @exclusivity(unchecked) var classNameNumber: UInt16 = 0
    /// The update that last changed this environment's collection (see
    /// ``previousCollection``). A full `Int`, like ``TraitWorld/updateNumber``:
    /// a narrower counter would wrap, and an environment last changed 2^32
    /// updates ago would then pass for changed in the current one, its
    /// unretained ``previousCollection`` long freed.
    ///
    /// Where the fields sit matters: the fast path of a root change reads and
    /// writes the flags, this, the collection, the view's links and the
    /// previous collection (a host that records recent changes, as the Lua
    /// host does, writes the last two), which are offsets 16 to 63 of the
    /// object, so a view spans one or two cache lines of them, never three;
    /// ``hostSlot`` and what follows are read elsewhere.
    @exclusivity(unchecked) var changedInUpdate = 0
    /// The collection as of the last update that reached this environment.
    @exclusivity(unchecked) public internal(set) var traitCollection: TraitCollection
    // A view's links (``View/superview``, ``View/subviews``), stored here next
    // to what an update reads of every environment. Only `View` uses them.
    // The superview is held unretained (it holds the view) as `Unmanaged`,
    // which an update tests without the retain and release each read of an
    // `unowned(unsafe)` reference costs. (A view's controller, which few
    // views have, is in the extras.)
    @exclusivity(unchecked) var superviewStorage: Unmanaged<View>?
    @exclusivity(unchecked) var subviewStorage: [View] = []
    /// The collection before the update numbered ``changedInUpdate`` first changed
    /// it (kept for dumps and pictures: "changed in the last update"); nil when
    /// that update gave the environment its first collection. Not retained: the
    /// world keeps the collections the current update replaced
    /// (`TraitWorld.replacedCollections`), and this is read only while
    /// ``changedInUpdate`` is the current update (a retain and a release per
    /// changed environment were 15% of a root change).
    /// (Stored as `Unmanaged`, which an update sets without reference counting.)
    final var previousCollection: TraitCollection? {
        @inline(__always) get { previousCollectionRef?.takeUnretainedValue() }
        @inline(__always) set { previousCollectionRef = newValue.map { Unmanaged.passUnretained($0) } }
    }
    @exclusivity(unchecked) var previousCollectionRef: Unmanaged<TraitCollection>?
    /// The host's own number for its object of this environment (the Lua
    /// host's slot in its table of objects); the engine never reads it.
    @exclusivity(unchecked) public var hostSlot: UInt32 = 0

    /// The world this environment belongs to: its registry, its update
    /// cycle (``TraitWorld/update()``) and its OS version.
    public let world: TraitWorld
    /// Nil for most environments (see ``EnvironmentExtras`` and ``ExtraStorage``).
    @exclusivity(unchecked) final var extraStorage: ExtraStorage?

    /// The extras; nil when there are none, or only a lone registration.
    @inline(__always) final var extras: EnvironmentExtras? {
        if case .extras(let x)? = extraStorage { return x }
        return nil
    }

    /// The extras, made now if there are none yet.
    @inline(__always) final func makeExtras() -> EnvironmentExtras {
        if let x = extras { return x }
        return makeNewExtras()
    }

    @inline(never) private final func makeNewExtras() -> EnvironmentExtras {
        let x = EnvironmentExtras()
        if case .registration(let r)? = extraStorage { x.registrationList = .one(r) }
        extraStorage = .extras(x)
        return x
    }

    /// The registrations, nil without any.
    @inline(__always) final var registrationList: RegistrationList? {
        switch extraStorage {
        case .registration(let r)?: return .one(r)
        case .extras(let x)?: return x.registrationList
        case nil: return nil
        }
    }

    /// The details, made now if there are none yet.
    final func makeDetails() -> EnvironmentDetails {
        let x = makeExtras()
        if let d = x.details { return d }
        let d = EnvironmentDetails()
        x.details = d
        return d
    }

    /// Drops the details, and then the extras, once nothing is left in them
    /// (called where a field is emptied: a view whose override or
    /// registration went is plain again, and as small). Nothing holds the
    /// extras across a call out of the engine, so none is dropped in use.
    final func releaseEmptyExtras() {
        guard let x = extras else { return }
        if let d = x.details {
            guard d.name == nil, d.className == nil, d.backgroundColor == nil, d.resources == nil, d.hostedContent == nil,
                  d.layers.isEmpty, d.observationRuns == nil else { return }
            x.details = nil
        }
        guard x.overrideEntries.isEmpty, x.tracked == nil, x.owningViewController == nil else { return }
        switch x.registrationList {
        case nil: extraStorage = nil
        case .one(let r): extraStorage = .registration(r)
        case .many: break
        }
    }

    @inline(__always) final func setFlag(_ flag: EnvironmentFlags, _ on: Bool) {
        if on { flags.insert(flag) } else { flags.remove(flag) }
    }

    /// Whether this is an instance of a subclass written outside the engine
    /// (a Swift `View` subclass, say), which may override
    /// ``traitCollectionDidChange(_:)``. The engine's own classes do not: for
    /// them an update calls the host only when ``hostTraitCollectionDidChange``
    /// is set, without the dynamic call (set once, at the end of `init`).
    @inline(__always) final var isSubclassed: Bool { flags.contains(.isSubclassed) }
    /// Set by a host (the Lua binding) that attaches an object to this environment.
    public final var isExposed: Bool {
        @inline(__always) get { flags.contains(.isExposed) }
        set { setFlag(.isExposed, newValue) }
    }
    /// Whether an update has computed its collection (before: the prediction).
    final var hasUpdatedTraits: Bool {
        @inline(__always) get { flags.contains(.hasUpdatedTraits) }
        @inline(__always) set { setFlag(.hasUpdatedTraits, newValue) }
    }
    @inline(__always) final var hasOverrides: Bool { flags.contains(.hasOverrides) }
    @inline(__always) final var hasRegistrations: Bool { flags.contains(.hasRegistrations) }
    @inline(__always) final var hasTrackedTraits: Bool { flags.contains(.hasTrackedTraits) }

    /// The overrides, sorted by definition id (empty for most environments).
    final var overrideEntries: [TraitCollection.Entry] {
        get { hasOverrides ? extras.unsafelyUnwrapped.overrideEntries : [] }
        set {
            if newValue.isEmpty && !hasOverrides { return }
            makeExtras().overrideEntries = newValue
            setFlag(.hasOverrides, !newValue.isEmpty)
            if newValue.isEmpty { releaseEmptyExtras() }
        }
    }

    /// The active registrations, in the order they were made.
    final var registrations: [TraitChangeRegistration] {
        hasRegistrations ? registrationList?.array ?? [] : []
    }

    /// SwiftUI content hosted here, updated right after this environment's traits.
    final var hostedContent: HostedContent? {
        get { flags.contains(.hasHostedContent) ? extras?.details?.hostedContent : nil }
        set {
            if newValue == nil && !flags.contains(.hasHostedContent) { return }
            makeDetails().hostedContent = newValue
            setFlag(.hasHostedContent, newValue != nil)
            if newValue == nil { releaseEmptyExtras() }
        }
    }

    /// A user-visible name for dumps and messages.
    public final var name: String? {
        get { extras?.details?.name }
        set {
            if newValue == nil && extras?.details == nil { return }
            makeDetails().name = newValue
            if newValue == nil { releaseEmptyExtras() }
        }
    }

    /// The class name shown in descriptions (a Lua subclass sets its own).
    /// Stored only when it differs from ``defaultClassName``, as a number
    /// (`classNameNumber`).
    public final var className: String {
        get {
            if classNameNumber != 0 { return world.className(at: classNameNumber) }
            return extras?.details?.className ?? defaultClassName
        }
        set {
            extras?.details?.className = nil
            if newValue == defaultClassName {
                classNameNumber = 0
            } else if let n = world.classNameNumber(for: newValue) {
                classNameNumber = n
            } else {
                classNameNumber = 0
                makeDetails().className = newValue
                return
            }
            releaseEmptyExtras()
        }
    }

    /// The class name of an environment whose host set none: its engine
    /// class's. A subclass may override it.
    open var defaultClassName: String { kind.className }

    /// What tracked callbacks read, per kind of work.
    var tracked: TrackedTraits {
        get { hasTrackedTraits ? extras.unsafelyUnwrapped.tracked.unsafelyUnwrapped.traits : TrackedTraits() }
        set {
            if newValue.isEmpty {
                if hasTrackedTraits {
                    extras.unsafelyUnwrapped.tracked = nil
                    flags.remove(.hasTrackedTraits)
                    releaseEmptyExtras()
                }
            } else if hasTrackedTraits {
                extras.unsafelyUnwrapped.tracked.unsafelyUnwrapped.traits = newValue
            } else {
                makeExtras().tracked = TrackedTraitsBox(newValue)
                flags.insert(.hasTrackedTraits)
            }
        }
    }
    /// The box of ``tracked``, nil while it is empty.
    @inline(__always) final var trackedBox: TrackedTraitsBox? {
        hasTrackedTraits ? extras.unsafelyUnwrapped.tracked : nil
    }

    init(world: TraitWorld, className: String, kind: Kind) {
        self.world = world
        self.kind = kind
        // Trait prediction (UIKit since iOS 13): a new environment starts with
        // the main screen's traits, so `viewDidLoad` sees real values and
        // joining a hierarchy that matches calls no change callback.
        self.traitCollection = world.predictedTraits
        world.stats.environments += 1
        if !TraitEnvironment.isEngineClass(type(of: self)) { flags.insert(.isSubclassed) }
        // The kind's name first: the usual case, without a dynamic call.
        if className != kind.className && className != defaultClassName { self.className = className }
    }

    /// The engine's own classes, none of which overrides ``traitCollectionDidChange(_:)``.
    private static func isEngineClass(_ t: TraitEnvironment.Type) -> Bool {
        t == View.self || t == ViewController.self || t == Window.self || t == Screen.self
            || t == WindowScene.self || t == PresentationController.self || t == HostingController.self || t == Label.self
    }

    /// A view or a window.
    @inline(__always) final var isView: Bool { kind == .view || kind == .window }
    /// This environment as a view or as a view controller, without a dynamic cast.
    @inline(__always) final var asView: View? { isView ? unsafeDowncast(self, to: View.self) : nil }
    @inline(__always) final var asViewController: ViewController? {
        kind == .viewController ? unsafeDowncast(self, to: ViewController.self) : nil
    }

    deinit {
        world.stats.environments -= 1
    }

    // MARK: Structure (overridden by each kind)

    /// The environment this one inherits from, in the world's current hierarchy mode.
    public var traitParent: TraitEnvironment? { nil }

    /// Every environment that might inherit from this one; ``traitChildren`` keeps
    /// those that do. (A view walks its subviews in ``forEachTraitChild`` instead.)
    func forEachCandidateChild(_ body: (TraitEnvironment) throws -> Void) rethrows {}

    /// The environments that inherit from this one now.
    public var traitChildren: [TraitEnvironment] {
        var result: [TraitEnvironment] = []
        forEachTraitChild { result.append($0) }
        return result
    }

    func forEachTraitChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        try forEachInheritingCandidate(body)
    }

    /// The candidates that inherit from this one now.
    final func forEachInheritingCandidate(_ body: (TraitEnvironment) throws -> Void) rethrows {
        try forEachCandidateChild { c in
            if c.inherits(from: self) { try body(c) }
        }
    }

    /// Whether `parent` is ``traitParent`` (kinds make this cheaper: it runs
    /// for every child of every environment an update visits).
    func inherits(from parent: TraitEnvironment) -> Bool { traitParent === parent }

    /// Whether this environment is connected to a window scene (and so updates).
    public var isInWindowScene: Bool {
        var e: TraitEnvironment? = self
        var steps = 0
        while let cur = e {
            if cur.kind == .windowScene { return unsafeDowncast(cur, to: WindowScene.self).isConnected }
            e = cur.traitParent
            steps += 1
            if steps > 100_000 { return false }
        }
        return false
    }

    // MARK: Ownership (for hosts that keep their objects alive while the tree holds them)

    /// Calls `body` with each engine object that holds this one strongly in the
    /// tree (nil stands for the world, which holds connected scenes).
    public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {}

    /// `owner` (nil: the world) started holding this environment.
    func linked(to owner: TraitEnvironment?) {
        if isExposed { world.activeDelegate?.environment(self, owner: owner, holds: true) }
    }

    /// `owner` stopped holding this environment (not called from deinit: an
    /// owner that is deallocated simply drops what it held).
    func unlinked(from owner: TraitEnvironment?) {
        if isExposed { world.activeDelegate?.environment(self, owner: owner, holds: false) }
    }

    /// Performs `action` on this environment, as a target-action
    /// registration does when its traits change. An action this kind of
    /// environment does not have does nothing (a view controller passes the
    /// view actions to its view).
    open func perform(_ action: BuiltinAction) throws {
        switch action {
        case .updateTraitsIfNeeded: try updateTraitsIfNeeded()
        default: break
        }
    }

    // MARK: Overridable (subclasses override these; they stay in the class)

    /// Called for every trait change, after registrations (the deprecated catch-all).
    open func traitCollectionDidChange(_ previous: TraitCollection) throws {
        if hostCallbacks & TraitEnvironment.hostTraitCollectionDidChange != 0 {
            try world.performAsCurrent(traitCollection) {
                try world.activeDelegate?.environment(self, traitCollectionDidChange: previous)
            }
        }
    }

    /// Applies pending trait changes of this environment (and what it inherits
    /// from) right away (`updateTraitsIfNeeded`).
    open func updateTraitsIfNeeded() throws {
        try world.checkBeforeApplyingWork()
        try world.updateTraitsNow(along: self)
    }

    // MARK: Description

    /// `View "card"` or `ViewController` when unnamed.
    public var description: String {
        if let name { return "\(className) \"\(name)\"" }
        return className
    }
}

/// Releases environments one at a time. An owner's deinit moves what it held
/// here (its stored references are emptied first, so that the graveyard holds
/// the last reference) instead of letting Swift release it in place, so
/// freeing a deep subtree runs each deinit in turn from one loop rather than
/// nested thousands of levels deep on the thread's stack.
enum Graveyard {
    nonisolated(unsafe) private static var pending: [TraitEnvironment] = []
    nonisolated(unsafe) private static var draining = false

    /// Moves the environments out of `held` (which is left empty).
    static func take<T: TraitEnvironment>(_ held: inout [T]) {
        for e in held { pending.append(e) }
        held = []
    }

    /// Moves the environment out of `held` (which is left nil).
    static func take<T: TraitEnvironment>(_ held: inout T?) {
        if let e = held { pending.append(e) }
        held = nil
    }

    /// Releases what was taken, unless an outer call is already doing so.
    static func drain() {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while !pending.isEmpty {
            // Released at the end of this statement; its deinit may take more.
            _ = pending.removeLast()
        }
    }
}

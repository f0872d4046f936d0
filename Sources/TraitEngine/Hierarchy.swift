/// How traits flow between view controllers and views.
public enum HierarchyMode: String, CaseIterable, Sendable {
    /// iOS 17 and later: a view controller inherits from its view's superview.
    case ios17
    /// Before iOS 17: view controllers inherit from their parent view controller.
    case legacy
}

// MARK: - Screen

/// The device: the root of the hierarchy, holding the device traits.
public final class Screen: TraitEnvironment {
    /// Checks a trait a screen is given: a screen always has a scale
    /// (`UIScreen.scale`: 1, 2 or 3 on Apple's devices), so its
    /// `displayScale` is from 1 to 10, never 0 ("unspecified" in a trait
    /// collection of one's own), negative or huge. Returns the value checked
    /// against the trait's type.
    public static func checkTrait(_ d: TraitDefinition, _ value: TraitValue) throws -> TraitValue {
        let v = try d.validate(value)
        if d === SystemTraits.displayScale, case .number(let scale) = v, !(1...10).contains(scale) {
            throw TraitError("a screen's displayScale is a scale from 1 to 10, got \(formatNumber(scale))")
        }
        return v
    }

    private var pendingDeviceTraits: TraitCollection?
    var scenes: [WindowScene] { sceneRefs.map { $0.scene } }
    @exclusivity(unchecked) private var sceneRefs: [UnownedScene] = []

    private struct UnownedScene { unowned(unsafe) let scene: WindowScene }
    /// `ui.Screen.main`: held by the world.
    var isMainScreen = false

    override public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {
        if isMainScreen { body(nil) }
        for r in sceneRefs { body(r.scene) }
    }

    /// The device of the catalogue this screen is (``DeviceCatalogue``), if
    /// it is one: its traits and size follow the device and ``orientation``.
    public internal(set) var device: Device?
    /// The orientation, as it will be after the next update (``rotate(to:)``).
    public internal(set) var orientation: Orientation = .portrait

    /// A screen with the given device traits, in effect at once.
    public init(world: TraitWorld, traits: TraitCollection) {
        super.init(world: world, className: "Screen", kind: .screen)
        // Without the system traits the world's iOS version lacks.
        traitCollection = SystemTraitAvailability.filtering(traits, for: world.os)
    }

    /// The screen of `device` in `orientation`: the default profile's
    /// settings (``TraitWorld/mainScreenTraits``: light, default text size,
    /// base level, ...), the device's traits (``Device/screenTraits(_:settings:)``),
    /// then `settings` (what the script chose) over them.
    public convenience init(world: TraitWorld, device: Device, orientation: Orientation = .portrait,
                            settings: TraitCollection = .empty) throws {
        let traits = try device.screenTraits(orientation, settings: TraitWorld.mainScreenTraits)
        self.init(world: world, traits: settings.entries.isEmpty ? traits : traits.applying(settings.entries))
        self.device = device
        self.orientation = orientation
    }

    /// The screen's size in points in its orientation; nil for a screen that
    /// is not a device.
    public var size: Size? { device?.screenSize(orientation) }

    /// Rotates the device: its traits (full-screen size classes) and its
    /// scenes' size classes follow at the next update, like any trait change.
    public func rotate(to orientation: Orientation) throws {
        guard let device else { throw TraitError("\(self) is not a device: only a device screen (ui.Screen { device = ... }) rotates") }
        let traits = try device.screenTraits(orientation, settings: upcomingTraits)
        for scene in scenes { _ = try scene.geometry(on: device, orientation) }
        for scene in scenes { world.noteTransition(of: scene) }
        self.orientation = orientation
        setTraits(traits)
        for scene in scenes { scene.refreshGeometry() }
    }

    /// Simulates the system changing device traits; applied at the next update.
    public func setTraits(_ mutations: (inout MutableTraits) throws -> Void) rethrows {
        let base = pendingDeviceTraits ?? traitCollection
        let next = try base.modifyingTraits(mutations)
        pendingDeviceTraits = next
        pending.insert(.traits)
        world.hasPendingWork = true
        world.pendingScreens.append(self)
    }

    /// Replaces the device traits with `traits`; applied at the next update.
    public func setTraits(_ traits: TraitCollection) {
        pendingDeviceTraits = traits
        pending.insert(.traits)
        world.hasPendingWork = true
        world.pendingScreens.append(self)
    }

    /// The device traits as they will be after the next update.
    public var upcomingTraits: TraitCollection { pendingDeviceTraits ?? traitCollection }

    func computeDeviceTraits() -> TraitCollection {
        defer { pendingDeviceTraits = nil }
        guard let pendingDeviceTraits else { return traitCollection }
        return SystemTraitAvailability.filtering(pendingDeviceTraits, for: world.os)
    }

    func attach(_ s: WindowScene) { sceneRefs.append(UnownedScene(scene: s)) }
    func detach(_ s: WindowScene) { sceneRefs.removeAll { $0.scene === s } }

    override func forEachCandidateChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        for r in sceneRefs where r.scene.isConnected { try body(r.scene) }
    }
}

// MARK: - Window scene

/// A window scene: inherits from its screen, holds its windows.
public final class WindowScene: TraitEnvironment {
    /// The screen the scene is on; the scene inherits its traits.
    public let screen: Screen
    /// The scene's windows, in the order they joined it (``Window/setWindowScene(_:)``).
    @exclusivity(unchecked) public private(set) var windows: [Window] = []
    /// Whether the scene is connected (``disconnect()`` ends it): only a connected scene's windows update.
    @exclusivity(unchecked) public private(set) var isConnected = true

    /// The scene's size (``SceneSize``): full screen, a Split View fraction,
    /// Slide Over or a size in points; its size classes follow from it on its
    /// screen's device (or, on a screen that is no device, from a size in
    /// points by ``SizeClassRule``). A resize takes effect at the next update.
    public private(set) var size: SceneSize = .full

    /// A full-screen scene on `screen`, connected at once (UIKit makes scenes
    /// itself: here the program stands in for the system that connects one).
    /// - Parameters:
    ///   - world: The world the scene belongs to.
    ///   - screen: The screen it is on, such as ``TraitWorld/mainScreen``.
    public init(world: TraitWorld, screen: Screen) {
        self.screen = screen
        super.init(world: world, className: "WindowScene", kind: .windowScene)
        screen.attach(self)
        screen.linked(to: self)
        world.connect(self)
        linked(to: nil)
        refreshGeometry()
        setNeedsStructureUpdate()
    }

    /// Resizes the scene (Split View, Slide Over, Stage Manager). Throws,
    /// changing nothing, for a size its device does not offer.
    public func resize(to size: SceneSize) throws {
        if let device = screen.device {
            _ = try geometry(on: device, screen.orientation, size: size)
        } else if case .custom = size {
            _ = try DeviceCatalogue.main.scene(size, orientation: .portrait)   // the size's own checks
        } else if size != .full {
            throw TraitError("\(self) is on \(screen), which is not a device: only \"full\" or a size { width, height } fits it")
        }
        world.noteTransition(of: self)
        self.size = size
        refreshGeometry()
    }

    /// The scene's size and size classes now (after the next update: what
    /// pending rotations and resizes give); nil on a screen that is no
    /// device at full size.
    public var geometry: SceneGeometry? {
        if let device = screen.device { return try? geometry(on: device, screen.orientation) }
        if case .custom(let s) = size {
            return SceneGeometry(size: s, sizeClasses: SizeClassRule.sizeClasses(s), basis: .rule)
        }
        return nil
    }

    func geometry(on device: Device, _ orientation: Orientation, size: SceneSize? = nil) throws -> SceneGeometry {
        try device.scene(size ?? self.size, orientation: orientation)
    }

    /// Sets the scene's size classes (a ``TraitLayer/sceneGeometry`` layer)
    /// from its size: none for a full-screen scene, which has its screen's.
    func refreshGeometry() {
        var entries: [TraitCollection.Entry] = []
        if size != .full, let g = geometry {
            let T = SystemTraits.self
            entries = [.init(definition: T.horizontalSizeClass, value: .string(g.sizeClasses.horizontal.rawValue)),
                       .init(definition: T.verticalSizeClass, value: .string(g.sizeClasses.vertical.rawValue))]
        }
        setTraitLayer(.sceneGeometry, entries)
    }

    deinit {
        for w in windows {
            w.windowScene = nil
        }
        screen.detach(self)
        Graveyard.take(&windows)
        Graveyard.drain()
    }

    /// Disconnects the scene (the app releases it); its windows stop updating.
    public func disconnect() {
        guard isConnected else { return }
        isConnected = false
        world.disconnect(self)
        world.structureChanged = true
        world.hasPendingWork = true
        unlinked(from: nil)
    }

    override public var traitParent: TraitEnvironment? { screen }

    override public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {
        if isConnected { body(nil) }
    }

    override func forEachCandidateChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        for w in windows { try body(w) }
    }

    func add(_ w: Window) {
        windows.append(w)
        w.linked(to: self)
    }

    func remove(_ w: Window) {
        guard let i = windows.firstIndex(where: { $0 === w }) else { return }
        windows.remove(at: i)
        world.structureChanged = true
        w.unlinked(from: self)
    }
}

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

// MARK: - Loops

extension TraitEnvironment {
    /// Whether one of `nodes` is this environment or above it in either
    /// hierarchy mode: superviews, owning and parent controllers, presenters,
    /// windows. An edit that puts one of them below this environment is
    /// refused, so the inheritance chain never loops, in this mode or after a
    /// switch. (iOS 17 mode alone would miss a loop through a child controller
    /// whose view is not loaded yet: it inherits from its parent until then,
    /// and a walk of such a loop, `ui.dump` for one, never ended.)
    func isContained(inAnyOf nodes: [TraitEnvironment]) -> Bool {
        var seen = Set<ObjectIdentifier>()
        var todo: [TraitEnvironment] = [self]
        while let e = todo.popLast() {
            guard seen.insert(ObjectIdentifier(e)).inserted else { continue }
            if nodes.contains(where: { $0 === e }) { return true }
            switch e {
            case is Window:
                break   // only scenes are above a window
            case let v as View:
                if let s = v.superview { todo.append(s) }
                if let vc = v.owningViewController, vc.viewIfLoaded === v { todo.append(vc) }
            case let vc as ViewController:
                if let w = vc.windowAsRoot { todo.append(w) }
                if let pc = vc.presentationController { todo.append(pc) }
                if let p = vc.parent { todo.append(p) }
                if let s = vc.viewIfLoaded?.superview { todo.append(s) }
            case let pc as PresentationController:
                // The presenter: the presented view joins the presenter's
                // window (``View/window``), which the walk reaches from the
                // presenter (asking for the window here would walk the
                // chain again at every presentation: cubic in its depth).
                if pc.isPresenting, let p = pc.presentingViewController { todo.append(p) }
            default:
                break
            }
        }
        return false
    }
}

// MARK: - Window

/// A window: a view that inherits from its window scene and hosts a root view controller.
public final class Window: View {
    /// The scene the window is in (``setWindowScene(_:)``), if any.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var windowScene: WindowScene?
    /// The root view controller (``setRootViewController(_:)``), if any.
    @exclusivity(unchecked) public private(set) var rootViewController: ViewController?

    /// A window in no scene: give it one with ``setWindowScene(_:)``.
    /// - Parameter world: The world the window belongs to.
    public init(world: TraitWorld) {
        super.init(world: world, className: "Window", kind: .window)
    }

    deinit {
        rootViewController?.windowAsRoot = nil
        Graveyard.take(&rootViewController)
        Graveyard.drain()
    }

    override public var traitParent: TraitEnvironment? { windowScene }
    override func inherits(from parent: TraitEnvironment) -> Bool { windowScene === parent }

    override public func forEachTreeOwner(_ body: (TraitEnvironment?) -> Void) {
        if let s = windowScene { body(s) }
    }

    /// A window's children are its root controller and its other subviews'
    /// environments, not what the view rule gives.
    override func forEachTraitChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        try forEachInheritingCandidate(body)
    }

    override func forEachCandidateChild(_ body: (TraitEnvironment) throws -> Void) rethrows {
        if let root = rootViewController { try body(root) }
        for s in subviews where s.owningViewController == nil || s.owningViewController !== rootViewController {
            try body(s.owningViewController ?? s)
        }
        // The presentations shown in this window, in the order they were made.
        try world.forEachPresentation(body)
    }

    /// Moves the window to `scene` (or out of any scene with nil).
    public func setWindowScene(_ scene: WindowScene?) {
        if scene === windowScene { return }
        let keep = Unmanaged.passRetained(self)
        defer { keep.release() }
        if let old = windowScene { old.remove(self) }
        windowScene = scene
        if let scene { scene.add(self) }
        world.structureChanged = true
        setNeedsStructureUpdate()
    }

    /// Sets the root view controller, loading its view and making it the
    /// window's first subview. A controller that already has a window, a parent
    /// or a presenter is refused.
    public func setRootViewController(_ vc: ViewController?) throws {
        if vc === rootViewController { return }
        if let vc {
            if let w = vc.windowAsRoot { throw TraitError("\(vc) is already the root view controller of \(w)") }
            if let p = vc.parent { throw TraitError("\(vc) is a child of \(p); remove it from its parent first") }
            if let p = vc.presentingViewController { throw TraitError("\(vc) is presented by \(p); dismiss it first") }
            if let v = vc.viewIfLoaded, v.superview != nil, v.superview !== self {
                throw TraitError("the view of \(vc) is already in another superview; remove it first")
            }
        }
        if let old = rootViewController {
            rootViewController = nil
            old.windowAsRoot = nil
            old.viewIfLoaded?.removeFromSuperview()
            old.unlinked(from: self)
            world.structureChanged = true
        }
        guard let vc else { return }
        rootViewController = vc
        vc.windowAsRoot = self
        vc.linked(to: self)
        let v = try vc.loadViewIfNeeded()
        if v.superview !== self { try insertSubview(v, at: 0, asRootViewOf: vc) }
        vc.setNeedsStructureUpdate()
    }
}

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

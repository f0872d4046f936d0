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

    /// A scene on `screen`, connected at once (UIKit makes scenes itself: here
    /// the program stands in for the system that connects one). It is full
    /// screen, but on the main screen it starts at the world's
    /// ``TraitWorld/mainSceneSize`` (`--scene-size`) when the screen's
    /// orientation offers that size (after a rotation that leaves none, full).
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
        if screen.isMainScreen, world.mainSceneSize != .full, let device = screen.device,
           (try? device.scene(world.mainSceneSize, orientation: screen.orientation)) != nil {
            size = world.mainSceneSize
        }
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

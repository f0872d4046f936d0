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

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

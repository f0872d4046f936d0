/// Content an environment hosts whose state derives from that environment's
/// traits. The world brings it up to date right after the environment's own
/// traits, before the environment's children, in the same update.
protocol HostedContent: AnyObject {
    func hostTraitsDidUpdate() throws
}

/// SwiftUI inside one UIKit view: the hosted root view and what the host last
/// gave it. Owned by the view (its `hostedContent`).
final class SwiftUIHost: HostedContent {
    /// The UIKit view whose traits the SwiftUI views see.
    private(set) weak var view: View?
    private(set) var rootView: SwiftUIView?
    /// Set when a hosting controller hosts the root.
    weak var controller: HostingController?
    /// Set when a hosting configuration on `view` hosts the root.
    var configuration: HostingConfiguration?

    /// The traits and registry generation the base environment was computed from.
    private var baseTraits: TraitCollection?
    private var baseGeneration = -1
    /// The host's traits seen through the bridges: the root's parent environment.
    private var baseEnvironment: EnvironmentValues = .empty
    private var needsUpdate = false
    /// A body or a representable brought this host up to date again from
    /// inside its own update (through updateTraitsIfNeeded).
    private var isUpdating = false

    /// Starts hosting in `view`. A view hosts one root at a time.
    func attach(to view: View) throws {
        if let other = view.hostedContent, other !== self {
            throw TraitError("\(view) already hosts SwiftUI content")
        }
        view.hostedContent = self
        self.view = view
        view.world.environmentKeys.add(self)
        setNeedsUpdate()
    }

    /// Stops hosting: takes the root out (its UIKit content leaves the view).
    func detach() {
        try? setRoot(nil)
        if let view, view.hostedContent === self { view.hostedContent = nil }
        view = nil
    }

    /// Replaces the hosted root. A view that is another view's content or
    /// hosted elsewhere is refused, and nothing changes.
    func setRoot(_ new: SwiftUIView?) throws {
        if new === rootView { return }
        if let new, let reason = new.unavailableReason { throw TraitError("cannot host \(new): it \(reason)") }
        if let old = rootView {
            SwiftUIHost.unmount(old)
            old.hosting = nil
        }
        rootView = new
        new?.hosting = self
        setNeedsUpdate()
    }

    /// Something other than the host's traits changed (a modifier, the root, the
    /// bridged keys): bring the views up to date at the next update.
    func setNeedsUpdate() {
        needsUpdate = true
        view?.setNeedsTraitUpdate()
    }

    /// A view that leaves its host is shown afresh if it is hosted again.
    private static func unmount(_ root: SwiftUIView) {
        var stack = [root]
        while let v = stack.popLast() {
            v.hasAppeared = false
            (v as? Representable)?.removeRoot()
            stack.append(contentsOf: v.content)
        }
    }

    // MARK: The update

    /// Order within an update: the host's own traits are final; now the hosted
    /// views get their environments (bodies re-run where a value they read
    /// changed) and representables hand theirs to their UIKit content as trait
    /// overrides, which the world applies when it visits the host's children.
    func hostTraitsDidUpdate() throws {
        guard let view, let root = rootView else { return }
        if isUpdating {
            // Finished by the update that is running, in its next pass.
            needsUpdate = true
            view.setNeedsTraitUpdate()
            return
        }
        isUpdating = true
        defer { isUpdating = false }
        let registry = view.world.environmentKeys
        let traits = view.traitCollection
        let traitsChanged = traits !== baseTraits || registry.generation != baseGeneration
        guard traitsChanged || needsUpdate else { return }
        let keys = registry.bridgedKeys
        // Everything that can fail before anything is shown: the bridges' reads,
        // then the writes that carry each representable's environment into UIKit.
        let base: EnvironmentValues
        var plan: [(view: SwiftUIView, environment: EnvironmentValues)] = []
        var overrides: [[TraitCollection.Entry]] = []
        do {
            base = traitsChanged ? try EnvironmentValues.bridged(from: traits, keys: keys) : baseEnvironment
            try SwiftUIHost.collect(root, parentEnvironment: base, world: view.world, into: &plan)
            for step in plan where step.view is Representable {
                overrides.append(try step.environment.traitOverrides(over: traits, hostEnvironment: base, keys: keys))
            }
        } catch {
            // Dropped like a failed callback: the views keep what they show, and
            // the next update does not repeat the failure.
            baseTraits = traits
            baseGeneration = registry.generation
            needsUpdate = false
            throw error
        }
        baseTraits = traits
        baseGeneration = registry.generation
        baseEnvironment = base
        needsUpdate = false
        let controller = self.controller ?? SwiftUIHost.enclosingController(of: view)
        var nextOverrides = overrides.makeIterator()
        do {
            for (v, env) in plan {
                // A body or representable replaced what this host shows: the rest is gone.
                guard rootView === root, self.view === view else { break }
                let previous = v.environment
                v.hostedEnvironment = env
                if let rep = v as? Representable {
                    try rep.render(in: view, controller: controller, previous: previous, overrides: nextOverrides.next() ?? [])
                } else if !v.hasAppeared || v.dependencies.contains(where: { previous.value($0) != env.value($0) }) {
                    v.hasAppeared = true
                    try v.runBody()
                }
            }
        } catch {
            // The view that failed keeps its new environment and is not re-run;
            // the views after it are brought up to date at the next update.
            needsUpdate = true
            throw error
        }
    }

    /// Each view with its environment, parents before children. A view with
    /// modifiers gets values of its own, asked for from the world's budget
    /// first (with the map and copies `applying` makes).
    private static func collect(_ root: SwiftUIView, parentEnvironment: EnvironmentValues, world: TraitWorld,
                                into plan: inout [(view: SwiftUIView, environment: EnvironmentValues)]) throws {
        var stack = [(root, parentEnvironment)]
        while let (v, inherited) = stack.popLast() {
            if !v.modifiers.isEmpty {
                try world.chargeMemory(96 + (inherited.entries.count + v.modifiers.count) * 4 * MemoryLayout<EnvironmentValues.Entry>.stride)
            }
            let env = inherited.applying(v.modifiers)
            plan.append((v, env))
            stack.append(contentsOf: v.content.reversed().map { ($0, env) })
        }
    }

    /// The controller whose view is `view` or one of its superviews: the parent
    /// of a representable's view controller.
    private static func enclosingController(of view: View) -> ViewController? {
        var v: View? = view
        while let cur = v {
            if let vc = cur.owningViewController, vc.viewIfLoaded === cur { return vc }
            v = cur.superview
        }
        return nil
    }
}

// MARK: - Hosting controller

/// SwiftUI inside a view controller (`UIHostingController`): its view hosts
/// ``rootView``, which sees the view's traits as its environment.
///
/// ```swift
/// let host = try HostingController(world: world, rootView: cell)
/// try window.setRootViewController(host)
/// ```
open class HostingController: ViewController {
    let hosting = SwiftUIHost()

    /// A hosting controller with no root view yet (``setRootView(_:)``).
    /// - Parameters:
    ///   - world: The world the controller belongs to.
    ///   - className: The class name its description shows.
    override public init(world: TraitWorld, className: String = "HostingController") {
        super.init(world: world, className: className)
        hosting.controller = self
    }

    override open var defaultClassName: String { "HostingController" }

    /// A hosting controller for `rootView` (`UIHostingController(rootView:)`).
    /// - Throws: ``TraitError`` when `rootView` is another view's content or
    ///   hosted elsewhere.
    public convenience init(world: TraitWorld, rootView: SwiftUIView) throws {
        self.init(world: world)
        try setRootView(rootView)
    }

    /// The hosted SwiftUI view.
    public var rootView: SwiftUIView? { hosting.rootView }

    /// Hosts `view` instead of the current root, whose UIKit content leaves.
    /// A view that is another view's content or hosted elsewhere is refused.
    public func setRootView(_ view: SwiftUIView?) throws {
        try hosting.setRoot(view)
    }

    /// Starts hosting ``rootView`` in the loaded view, then runs the
    /// superclass's `viewDidLoad()`. A subclass that overrides this calls `super`.
    override open func viewDidLoad() throws {
        if let v = viewIfLoaded { try hosting.attach(to: v) }
        try super.viewDidLoad()
    }
}

// MARK: - Hosting configuration

/// SwiftUI inside any UIKit view (`UIHostingConfiguration`), set as the view's
/// ``View/contentConfiguration``: the view hosts ``rootView``.
///
/// ```swift
/// try cell.setContentConfiguration(HostingConfiguration(rootView: cellView))
/// ```
public final class HostingConfiguration: CustomStringConvertible {
    /// The SwiftUI view the configuration hosts.
    public let rootView: SwiftUIView
    /// The view this is the content configuration of.
    public internal(set) weak var view: View?

    /// A configuration for `rootView`, which must not be another view's
    /// content or hosted elsewhere.
    public init(rootView: SwiftUIView) throws {
        if let reason = rootView.unavailableReason { throw TraitError("cannot host \(rootView): it \(reason)") }
        self.rootView = rootView
    }

    /// `HostingConfiguration(View "CellView")`.
    public var description: String { "HostingConfiguration(\(rootView))" }
}

extension View {
    /// The hosting configuration whose root this view hosts.
    public var contentConfiguration: HostingConfiguration? {
        (hostedContent as? SwiftUIHost)?.configuration
    }

    /// Hosts `configuration`'s root view in this view, replacing what the
    /// previous configuration hosted (nil removes it). A configuration already
    /// used by another view, or the view of a hosting controller, is refused
    /// and nothing changes.
    public func setContentConfiguration(_ configuration: HostingConfiguration?) throws {
        let current = hostedContent as? SwiftUIHost
        if let current, current.configuration === configuration { return }
        if let current, let hc = current.controller {
            throw TraitError("\(self) is the view of \(hc), which hosts its rootView; it has no content configuration")
        }
        if let configuration {
            if let other = configuration.view { throw TraitError("\(configuration) is already the content configuration of \(other)") }
            if let reason = configuration.rootView.unavailableReason {
                throw TraitError("cannot host \(configuration.rootView): it \(reason)")
            }
        }
        if let current {
            current.configuration?.view = nil
            current.configuration = nil
            current.detach()
        }
        guard let configuration else { return }
        let host = SwiftUIHost()
        host.configuration = configuration
        try host.attach(to: self)
        try host.setRoot(configuration.rootView)
        configuration.view = self
    }
}

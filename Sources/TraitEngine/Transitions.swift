// Size and trait transitions: what a rotation or a scene resize tells view
// controllers and presentation controllers before their traits change
// (UIContentContainer's viewWillTransition(to:with:) and
// willTransition(to:with:), and UIViewControllerTransitionCoordinator).
// docs/guide.md, "Transitions", gives the rules with Apple's words.

/// The coordinator of one size transition (`UIViewControllerTransitionCoordinator`):
/// every callback of a transition gets the same one, and may queue work
/// around the trait change with ``animate(alongside:completion:)``.
///
/// ```swift
/// override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) throws {
///     coordinator.animate(alongside: { _ in /* the new traits are in place */ },
///                         completion: { _ in /* the update is done */ })
/// }
/// ```
public final class TransitionCoordinator {
    /// The scene whose size changes (nil once it is freed).
    public private(set) weak var scene: WindowScene?
    /// The scene's size before the transition, and after it.
    public let fromSize: Size, toSize: Size
    /// Whether ``animate(alongside:completion:)`` still queues work: until
    /// the alongside functions run (UIKit's method returns false when the
    /// animations can no longer be queued).
    public internal(set) var acceptsAnimations = true
    var alongside: [(TransitionCoordinator) throws -> Void] = []
    var completions: [(TransitionCoordinator) throws -> Void] = []

    init(scene: WindowScene, from: Size, to: Size) {
        self.scene = scene
        fromSize = from
        toSize = to
    }

    /// `animate(alongsideTransition:completion:)`: `alongside` runs "in the
    /// same animation context as the transition's animations", that is once
    /// the update has applied the new traits and laid out (the first pass);
    /// `completion` runs "after the animation finishes", once the update has
    /// settled. Each gets this coordinator (UIKit passes its context, which
    /// the coordinator is). Returns false, queuing nothing, once the
    /// alongside functions have run.
    @discardableResult
    public func animate(alongside: ((TransitionCoordinator) throws -> Void)?,
                        completion: ((TransitionCoordinator) throws -> Void)? = nil) -> Bool {
        guard acceptsAnimations else { return false }
        if let alongside { self.alongside.append(alongside) }
        if let completion { completions.append(completion) }
        return true
    }
}

/// The transitions a world has noted and not yet delivered, and the
/// coordinators whose functions are still to run.
struct TransitionState {
    /// Scenes that rotated or resized since the last update, with their size
    /// then (held weakly: a scene released before the update has no transition).
    var noted: [NotedTransition] = []
    /// Coordinators whose alongside functions run after the next pass.
    var animating: [TransitionCoordinator] = []
    /// Coordinators whose completions run once the update settles.
    var completing: [TransitionCoordinator] = []

    var isEmpty: Bool { noted.isEmpty && animating.isEmpty && completing.isEmpty }
}

struct NotedTransition {
    weak var scene: WindowScene?
    let from: Size
}

extension TraitWorldDelegate {
    /// A delegate that takes no transition callbacks ignores them.
    public func environment(_ env: TraitEnvironment, viewWillTransitionTo size: Size,
                            with coordinator: TransitionCoordinator) throws {}
    public func environment(_ env: TraitEnvironment, willTransitionTo collection: TraitCollection,
                            with coordinator: TransitionCoordinator) throws {}
}

extension TraitWorld {
    /// Notes that `scene` is about to change size (a rotation of its screen
    /// or a resize), before the change: its size now is the transition's
    /// start. Several changes before one update make one transition.
    func noteTransition(of scene: WindowScene) {
        guard scene.isConnected, let size = scene.geometry?.size,
              !transitions.noted.contains(where: { $0.scene === scene }) else { return }
        transitions.noted.append(NotedTransition(scene: scene, from: size))
        hasPendingWork = true
    }

    /// Delivers the noted transitions whose size changed, each scene's
    /// controllers parents first: `willTransition(to:with:)` where the
    /// collection will change, then `viewWillTransition(to:with:)`. Runs
    /// before any trait of the update is applied, so each sees its old traits.
    func deliverNotedTransitions() throws {
        guard !transitions.noted.isEmpty else { return }
        let noted = transitions.noted
        transitions.noted.removeAll()
        for n in noted {
            guard let scene = n.scene, scene.isConnected, case let from = n.from, let to = scene.geometry?.size, to != from else { continue }
            let coordinator = TransitionCoordinator(scene: scene, from: from, to: to)
            transitions.animating.append(coordinator)
            transitions.completing.append(coordinator)
            let controllers = TraitWorld.containers(of: scene)
            // UIKit forwards each message down from the window's root (each
            // container "forwards ... to child view controllers"): one walk per message.
            var memo: [ObjectIdentifier: TraitCollection] = [:]
            for c in controllers {
                let upcoming = upcomingCollection(of: c, memo: &memo)
                if upcoming != c.traitCollection { try willTransition(c, to: upcoming, coordinator) }
            }
            for c in controllers { try viewWillTransition(c, to: to, coordinator) }
        }
    }

    /// The scene's content containers in the order UIKit forwards to them:
    /// each window's root view controller, then depth first each
    /// controller's children, then its presentation (the presentation
    /// controller, then the controller it presents).
    static func containers(of scene: WindowScene) -> [TraitEnvironment] {
        var out: [TraitEnvironment] = []
        var stack: [TraitEnvironment] = scene.windows.reversed().compactMap { $0.rootViewController }
        while let e = stack.popLast() {
            out.append(e)
            if let vc = e.asViewController {
                if let pc = vc.presentingController { stack.append(pc) }
                stack.append(contentsOf: vc.children.reversed())
            } else if let pc = e as? PresentationController, pc.isPresenting {
                stack.append(pc.presentedViewController)
            }
        }
        return out
    }

    private func willTransition(_ e: TraitEnvironment, to collection: TraitCollection,
                                _ coordinator: TransitionCoordinator) throws {
        if let vc = e.asViewController {
            try vc.willTransition(to: collection, with: coordinator)
        } else {
            try activeDelegate?.environment(e, willTransitionTo: collection, with: coordinator)
        }
    }

    private func viewWillTransition(_ e: TraitEnvironment, to size: Size, _ coordinator: TransitionCoordinator) throws {
        if let vc = e.asViewController {
            try vc.viewWillTransition(to: size, with: coordinator)
        } else {
            try activeDelegate?.environment(e, viewWillTransitionTo: size, with: coordinator)
        }
    }

    /// Runs the alongside functions of the transitions delivered so far (the
    /// update's first pass has applied their traits). What they change is
    /// applied by the next pass.
    func runTransitionAnimations() throws {
        guard !transitions.animating.isEmpty else { return }
        let coordinators = transitions.animating
        transitions.animating.removeAll()
        for c in coordinators {
            c.acceptsAnimations = false
            let functions = c.alongside
            c.alongside.removeAll()
            for f in functions { try f(c) }
        }
    }

    /// Runs the completions of the transitions delivered so far; true when
    /// there were any (what they change needs another pass).
    func runTransitionCompletions() throws -> Bool {
        guard !transitions.completing.isEmpty else { return false }
        let coordinators = transitions.completing
        transitions.completing.removeAll()
        for c in coordinators {
            let functions = c.completions
            c.completions.removeAll()
            for f in functions { try f(c) }
        }
        return true
    }

    /// The collection `e` will have after the next update, as pending device
    /// traits, layers and overrides give it now (`memo` keeps what was
    /// computed for ancestors, so a walk of a scene computes each once).
    func upcomingCollection(of e: TraitEnvironment, memo: inout [ObjectIdentifier: TraitCollection]) -> TraitCollection {
        var chain: [TraitEnvironment] = []
        var base: TraitCollection?
        var cur: TraitEnvironment? = e
        while let c = cur {
            if let known = memo[ObjectIdentifier(c)] { base = known; break }
            chain.append(c)
            if c.kind == .screen { break }
            cur = c.traitParent
        }
        for c in chain.reversed() {
            let tc: TraitCollection
            if c.kind == .screen {
                tc = SystemTraitAvailability.filtering(unsafeDowncast(c, to: Screen.self).upcomingTraits, for: os)
            } else if let b = base {
                tc = predictedCollection(of: c, under: b)
            } else {
                tc = c.traitCollection   // (the root of a tree on no screen keeps its own)
            }
            memo[ObjectIdentifier(c)] = tc
            base = tc
        }
        return base ?? e.traitCollection
    }

    func predictedCollection(of e: TraitEnvironment, under parent: TraitCollection) -> TraitCollection {
        if let pc = e as? PresentationController {
            // The presentation adapts to the window's upcoming size classes.
            func sizeClass(_ d: TraitDefinition) -> String { if case .string(let s) = parent.rawValue(d) { return s }; return "unspecified" }
            var base = parent
            if pc.presentationStyle.adapted(horizontal: sizeClass(SystemTraits.horizontalSizeClass),
                                            vertical: sizeClass(SystemTraits.verticalSizeClass)).isElevated {
                base = base.applying([.init(definition: SystemTraits.userInterfaceLevel, value: .string("elevated"))])
            }
            return pc.hasOverrides ? base.applying(pc.overrideEntries) : base
        }
        guard e.hasOverrides else { return parent }
        return applyingContentSizeLimits(e, parent.applying(e.overrideEntries), base: parent)
    }
}

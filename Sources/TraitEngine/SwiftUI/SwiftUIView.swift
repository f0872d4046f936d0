/// A modeled SwiftUI view: a name, a body the host provides, static content
/// children and `environment` modifiers. Nothing is drawn: ``rendered`` is
/// what the body last returned.
///
/// The body runs when the view is first hosted in a window, and again in an
/// update only when an environment value it read changed.
///
/// ```swift
/// let cell = try SwiftUIView(name: "CellView") { env in
///     env[BuiltinEnvironmentKeys.colorScheme] == .string("dark") ? "white" : "black"
/// }
/// let host = try HostingController(world: world, rootView: cell)
/// ```
open class SwiftUIView: CustomStringConvertible {
    /// A name for descriptions and dumps (`View "CellView"`).
    public var name: String?
    /// Child views, fixed when the view is made.
    public let content: [SwiftUIView]
    /// The `environment(_:_:)` modifiers, in the order they were first set.
    public private(set) var modifiers: [EnvironmentValues.Entry] = []
    /// Computes what the view shows from its environment.
    public var body: ((EnvironmentValues) throws -> Any?)?
    /// What the body last returned.
    public private(set) var rendered: Any?
    /// How many times the body ran.
    public private(set) var bodyCount = 0
    /// The environment as the view sees it: as of the last update that reached
    /// it while hosted; until then, the defaults with the modifiers of the view
    /// and its ancestors.
    public var environment: EnvironmentValues { hasAppeared ? hostedEnvironment : modifiedDefaults }
    /// What the host gave the view at the last update that reached it.
    var hostedEnvironment: EnvironmentValues = .empty
    /// The keys the body read the last time it ran.
    public private(set) var dependencies: [EnvironmentKeyDefinition] = []
    /// The view whose content this view is.
    public private(set) weak var parent: SwiftUIView?
    /// The host of this view when it is a hosted root.
    weak var hosting: SwiftUIHost?
    /// Levels of content below this view (0 without content).
    let depth: Int
    /// How many views deep content may nest (a chain of this many views is
    /// accepted, one more is not): far beyond real view trees, and shallow
    /// enough that walking and releasing a tree never exhausts the stack.
    public static let maximumDepth = 1000
    /// Whether the view was shown since it was (re)hosted: its body ran or,
    /// for a representable, its UIKit content was made.
    var hasAppeared = false

    /// A view with `content` as its children. A child that already belongs to
    /// another view or host, or that appears twice, is an error.
    public init(name: String? = nil, content: [SwiftUIView] = [], body: ((EnvironmentValues) throws -> Any?)? = nil) throws {
        for (i, c) in content.enumerated() {
            if let reason = c.unavailableReason { throw TraitError("content item \(i + 1) (\(c)) \(reason)") }
            if content[..<i].contains(where: { $0 === c }) { throw TraitError("content item \(i + 1) (\(c)) appears twice") }
        }
        let depth = 1 + (content.map(\.depth).max() ?? -1)
        // (depth counts the levels below this view: the chain holds depth + 1 views.)
        if depth + 1 > SwiftUIView.maximumDepth {
            throw TraitError("content is nested more than \(SwiftUIView.maximumDepth) views deep")
        }
        self.name = name
        self.content = content
        self.depth = depth
        self.body = body
        for c in content { c.parent = self }
    }

    /// A view without content (for subclasses, which cannot fail).
    init(leafNamed name: String?) {
        self.name = name
        self.content = []
        self.depth = 0
    }

    /// The class name shown in descriptions.
    open var className: String { "View" }

    /// `View "CellView"`.
    public var description: String { name.map { "\(className) \"\($0)\"" } ?? className }

    /// Why this view cannot be placed somewhere new, or nil when it can.
    var unavailableReason: String? {
        if let p = parent { return "is already content of \(p)" }
        if hosting != nil { return "is already hosted" }
        return nil
    }

    /// The topmost view above this one (itself when it is nobody's content).
    public var rootAncestor: SwiftUIView {
        var v = self
        while let p = v.parent { v = p }
        return v
    }

    private var modifiedDefaults: EnvironmentValues {
        var chain: [SwiftUIView] = [self]
        while let p = chain[chain.count - 1].parent { chain.append(p) }
        return chain.reversed().reduce(EnvironmentValues.empty) { $0.applying($1.modifiers) }
    }

    /// Whether the view is in a host (a hosting controller or a hosting configuration).
    public var isHosted: Bool { rootAncestor.hosting != nil }

    /// Sets an environment value for this view and its content
    /// (`.environment(\.key, value)`). The value is checked against the key's
    /// type; a wrong one is an error and changes nothing. A hosted view picks
    /// it up at the next update.
    @discardableResult
    public func environment(_ key: EnvironmentKeyDefinition, _ value: TraitValue) throws -> Self {
        let entry = EnvironmentValues.Entry(key: key, value: try key.validate(value))
        if let i = modifiers.firstIndex(where: { $0.key === key }) {
            if modifiers[i] == entry { return self }
            modifiers[i] = entry
        } else {
            modifiers.append(entry)
        }
        rootAncestor.hosting?.setNeedsUpdate()
        return self
    }

    /// Sets the environment value of the key type `key` for this view and its
    /// content: the same as passing `key`'s definition (``EnvironmentKey/definition``).
    @discardableResult
    public func environment<K: EnvironmentKey>(_ key: K.Type, _ value: TraitValue) throws -> Self {
        try environment(K.definition, value)
    }

    /// Runs the body with its reads of ``environment`` recorded as the new dependencies.
    func runBody() throws {
        guard let body else { return }
        bodyCount += 1
        let tracker = EnvironmentReadTracker(values: hostedEnvironment)
        let outer = EnvironmentValues.tracker
        EnvironmentValues.tracker = tracker
        defer {
            EnvironmentValues.tracker = outer
            dependencies = tracker.read
        }
        rendered = try body(hostedEnvironment)
    }
}

/// What a representable's make and update functions get (SwiftUI's `Context`).
public struct RepresentableContext {
    /// The representable's environment.
    public let environment: EnvironmentValues
}

/// UIKit content inside SwiftUI: a `UIViewControllerRepresentable` or a
/// `UIViewRepresentable`. Its view controller (or view) is made when the
/// representable is first hosted in a window and goes into the host's view,
/// where it inherits the SwiftUI environment as traits: bridged keys through
/// their bridges' `write`, the built-in keys as their system traits.
public final class Representable: SwiftUIView {
    /// Whether a representable wraps a view controller or a view.
    public enum Kind: String, Sendable {
        /// `UIViewControllerRepresentable`.
        case viewController = "ViewControllerRepresentable"
        /// `UIViewRepresentable`.
        case view = "ViewRepresentable"
    }

    /// What the representable wraps.
    public let kind: Kind
    let make: (RepresentableContext) throws -> TraitEnvironment
    let update: ((TraitEnvironment, RepresentableContext) throws -> Void)?
    /// The view controller or view it made, while it is hosted.
    public private(set) var root: TraitEnvironment?
    /// The overrides on ``root`` that carry the environment, set by the host.
    private var managedOverrides: [TraitDefinition] = []

    /// Wraps a view controller (`UIViewControllerRepresentable`).
    public init(name: String? = nil, makeViewController: @escaping (RepresentableContext) throws -> ViewController,
                updateViewController: ((ViewController, RepresentableContext) throws -> Void)? = nil) {
        kind = .viewController
        make = makeViewController
        update = updateViewController.map { u in
            { root, context in if let vc = root as? ViewController { try u(vc, context) } }
        }
        super.init(leafNamed: name)
    }

    /// Wraps a view (`UIViewRepresentable`).
    public init(name: String? = nil, makeView: @escaping (RepresentableContext) throws -> View,
                updateView: ((View, RepresentableContext) throws -> Void)? = nil) {
        kind = .view
        make = makeView
        update = updateView.map { u in
            { root, context in if let v = root as? View { try u(v, context) } }
        }
        super.init(leafNamed: name)
    }

    /// For hosts whose make function returns any environment (checked when it is placed).
    public init(kind: Kind, name: String? = nil, make: @escaping (RepresentableContext) throws -> TraitEnvironment,
                update: ((TraitEnvironment, RepresentableContext) throws -> Void)?) {
        self.kind = kind
        self.make = make
        self.update = update
        super.init(leafNamed: name)
    }

    /// `ViewControllerRepresentable` or `ViewRepresentable`.
    override public var className: String { kind.rawValue }

    /// How many SwiftUI hosts may enclose one another through representables.
    public static let maximumHostingDepth = 64

    /// The SwiftUI hosts at `view` and above it, counted up to the limit.
    static func hostingDepth(of view: View) -> Int {
        var count = 0
        var e: TraitEnvironment? = view
        while let cur = e, count < maximumHostingDepth {
            if cur.hostedContent != nil { count += 1 }
            e = cur.traitParent
        }
        return count
    }

    /// Makes, places and updates the UIKit content (first time), or brings it
    /// up to date with a changed environment.
    func render(in hostView: View, controller: ViewController?, previous: EnvironmentValues,
                overrides: [TraitCollection.Entry]) throws {
        let context = RepresentableContext(environment: hostedEnvironment)
        guard hasAppeared else {
            // UIKit content that hosts SwiftUI that makes more UIKit content can
            // go on forever inside one update: stop before making another level.
            if Representable.hostingDepth(of: hostView) >= Representable.maximumHostingDepth {
                // As for a `make...` that failed: not tried again until hosted anew
                // (every later update would stop at the same place).
                hasAppeared = true
                throw TraitError("SwiftUI hosting is nested more than \(Representable.maximumHostingDepth) levels deep "
                                 + "(\(self) is inside UIKit content made by representables that host more): not making its content")
            }
            hasAppeared = true
            let made = try make(context)
            try place(made, in: hostView, controller: controller)
            root = made
            try apply(overrides)
            try update?(made, context)
            return
        }
        guard let root else { return }
        try apply(overrides)
        if hostedEnvironment != previous { try update?(root, context) }
    }

    /// Puts `made` into the host's view: a view controller as a child of the
    /// enclosing controller with its view as a subview; a view as a subview.
    private func place(_ made: TraitEnvironment, in hostView: View, controller: ViewController?) throws {
        let what = kind == .viewController ? "makeViewController" : "makeView"
        switch kind {
        case .viewController:
            guard let vc = made as? ViewController else {
                throw TraitError("\(what) of \(self) must return a view controller, got \(made)")
            }
            if let w = vc.windowAsRoot { throw TraitError("\(what) of \(self) returned \(vc), which is the root view controller of \(w)") }
            if let p = vc.parent { throw TraitError("\(what) of \(self) returned \(vc), which is already a child of \(p)") }
            if let p = vc.presentingViewController { throw TraitError("\(what) of \(self) returned \(vc), which is presented by \(p)") }
            let v = try vc.loadViewIfNeeded()
            if let s = v.superview { throw TraitError("\(what) of \(self) returned \(vc), whose view is already in \(s)") }
            if let controller { try controller.addChild(vc) }
            do {
                try hostView.addSubview(v)
            } catch {
                vc.removeFromParent()
                throw error
            }
        case .view:
            guard let v = made as? View, !(made is Window) else {
                throw TraitError("\(what) of \(self) must return a view, got \(made)")
            }
            if let s = v.superview { throw TraitError("\(what) of \(self) returned \(v), which is already in \(s)") }
            if let vc = v.owningViewController, vc.viewIfLoaded === v {
                throw TraitError("\(what) of \(self) returned the view of \(vc); wrap the controller in a ViewControllerRepresentable")
            }
            try hostView.addSubview(v)
        }
    }

    /// Sets the overrides that carry the environment and removes the ones no longer needed.
    private func apply(_ overrides: [TraitCollection.Entry]) throws {
        guard let root else { return }
        for d in managedOverrides where !overrides.contains(where: { $0.definition === d }) {
            root.removeTraitOverride(d)
        }
        for e in overrides where root.traitOverride(e.definition) != e.value {
            try root.setTraitOverride(e.definition, e.value)
        }
        managedOverrides = overrides.map(\.definition)
    }

    /// Takes the UIKit content out of the host (the representable left it).
    func removeRoot() {
        guard let root else { return }
        for d in managedOverrides { root.removeTraitOverride(d) }
        managedOverrides = []
        if let vc = root as? ViewController {
            vc.removeFromParent()
            vc.viewIfLoaded?.removeFromSuperview()
        } else if let v = root as? View {
            v.removeFromSuperview()
        }
        self.root = nil
    }
}

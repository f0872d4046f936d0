import TraitEngine

// A small reference model of trait flow (docs/guide.md, from "The hierarchy
// and overrides" to "Automatic tracking and observable models"), an operation
// language over the engine's public API, and a harness that runs both side by
// side and reports the first difference. ModelBasedTests drives it with seeded
// random sequences; the fuzzer in Fuzz/ compiles this same file (with
// TraitFlowModelWorld.swift) and drives it with libFuzzer's bytes. Plain Swift
// and the engine's public API only (no XCTest, no @testable), so both can build it.
//
// The model never asks the engine how traits flow: it keeps its own tree
// (superviews, owners, parents, roots, presentations, scenes) and computes
// every collection from scratch from that tree and its own overrides, and
// takes size classes and each OS version's rules from its own tables
// (TraitFlowModelWorld.swift).

// MARK: - Traits and values the model uses

/// The traits the sequences set. Values are indices into `values`; index 0 is
/// always the trait's default, so an override to index 0 is an override to the
/// default value.
enum ModelTraits {
    static let theme: TraitDefinition = {
        let e = TraitEnum(name: "ModelTheme", cases: ["standard", "pastel", "bold"])
        // invariant: a literal default that fits its type
        return try! TraitDefinition(name: "ModelTheme", valueType: .enumeration(e), defaultValue: .string("standard"))
    }()
    static let level: TraitDefinition = {
        // invariant: a literal default that fits its type
        try! TraitDefinition(name: "ModelLevel", valueType: .integer, defaultValue: .int(0), affectsColorAppearance: true)
    }()

    static let definitions: [TraitDefinition] = [
        SystemTraits.userInterfaceStyle, SystemTraits.horizontalSizeClass, SystemTraits.displayScale,
        SystemTraits.typesettingLanguage, theme, level, SystemTraits.userInterfaceLevel,
        SystemTraits.verticalSizeClass, SystemTraits.userInterfaceIdiom,
    ]
    static let names = ["userInterfaceStyle", "horizontalSizeClass", "displayScale", "typesettingLanguage", "theme", "level",
                        "userInterfaceLevel", "verticalSizeClass", "userInterfaceIdiom"]
    static let values: [[TraitValue]] = [
        [.string("unspecified"), .string("light"), .string("dark")],
        [.string("unspecified"), .string("compact"), .string("regular")],
        [.number(0), .number(2), .number(3)],
        [.none, .string("en"), .string("ja")],
        [.string("standard"), .string("pastel"), .string("bold")],
        [.int(0), .int(1), .int(2)],
        [.string("unspecified"), .string("base"), .string("elevated")],
        [.string("unspecified"), .string("compact"), .string("regular")],
        [.string("unspecified"), .string("phone"), .string("pad")],
    ]
    /// The indices of traits and values the model gives meaning to.
    static let style = 0, horizontalSizeClass = 1, displayScale = 2, typesettingLanguage = 3, interfaceLevel = 6, verticalSizeClass = 7, idiom = 8
    static let light = 1, base = 1, elevated = 2, compact = 1, phone = 1, pad = 2
    static let valueCount = 3

    /// The other traits of a device screen (the default profile's text size,
    /// layout direction, ..., and the device's gamut, 3D Touch and dynamic
    /// range), which the model does not follow: its idiom tells a device's
    /// collection from another.
    static let unfollowed: [TraitDefinition] = [
        SystemTraits.layoutDirection, SystemTraits.preferredContentSizeCategory, SystemTraits.legibilityWeight,
        SystemTraits.accessibilityContrast, SystemTraits.displayGamut, SystemTraits.activeAppearance,
        SystemTraits.forceTouchCapability, SystemTraits.imageDynamicRange, SystemTraits.sceneCaptureState,
    ]

    /// A collection as the model writes it: trait index -> value index, defaults left out.
    typealias Collection = [Int: Int]

    static func describe(_ c: Collection?) -> String {
        guard let c else { return "(values outside the model)" }
        if c.isEmpty { return "{}" }
        return "{" + c.keys.sorted().map { "\(names[$0])=\(values[$0][c[$0]!])" }.joined(separator: ", ") + "}"
    }

    private static let indexOfDefinition = Dictionary(uniqueKeysWithValues: definitions.indices.map { (ObjectIdentifier(definitions[$0]), $0) })
    private static let unfollowedKeys = Set(unfollowed.map(ObjectIdentifier.init))

    /// The engine's collection in the model's terms, or nil when it holds a
    /// trait or value the model never uses.
    static func modelForm(_ tc: TraitCollection) -> Collection? {
        var result: Collection = [:]
        for e in tc.entries {
            let key = ObjectIdentifier(e.definition)
            if unfollowedKeys.contains(key) { continue }
            guard let t = indexOfDefinition[key], let v = values[t].firstIndex(of: e.value) else { return nil }
            if v != 0 { result[t] = v }
        }
        return result
    }

    static func collection(_ c: Collection) -> TraitCollection {
        TraitCollection { m in for (t, v) in c { m[definitions[t]] = values[t][v] } }
    }
}

// MARK: - Operations

/// One trait set to one value, as indices into ``ModelTraits``.
struct ModelSetting: Equatable, CustomStringConvertible {
    let trait: Int
    let value: Int
    init(_ trait: Int, _ value: Int) { self.trait = trait; self.value = value }
    var description: String { "ModelSetting(\(trait), \(value))" }
}

/// A step of a sequence. Nodes are numbered in creation order (a view
/// controller's view is numbered when it is loaded, a presentation controller
/// when it is created). A step naming a node that does not exist, or one of the
/// wrong kind, is skipped, so any sub-sequence of a sequence is runnable
/// (shrinking relies on it). `description` is Swift source for the step.
enum ModelOp: Equatable, CustomStringConvertible {
    case newScreen([ModelSetting])
    case newScene(screen: Int)
    case newWindow(scene: Int?)
    case newViewController
    case newView
    case addSubview(Int, to: Int)
    case removeFromSuperview(Int)
    case loadView(Int)
    case addChild(Int, to: Int)
    case removeFromParent(Int)
    case setRoot(Int?, window: Int)
    case present(Int, from: Int)
    case dismiss(Int)
    case setWindowScene(Int?, window: Int)
    case disconnect(scene: Int)
    case setOverride(Int, ModelSetting)
    case removeOverride(Int, trait: Int)
    case setMode(HierarchyMode)
    case setScreenTraits(Int, [ModelSetting])
    case register(Int, traits: [Int])
    case unregister(Int, registration: Int)
    case update
    case updateTraitsIfNeeded(Int)
    /// The view's next `layoutSubviews` sets the override on its first
    /// subview and asks that subview for layout (a parent configuring a child
    /// during layout); the view asks for layout now.
    case armLayout(Int, ModelSetting)
    /// A screen of a device of ``ModelDevices/rows`` (by index) in an
    /// orientation, with `settings` over its traits.
    case newDeviceScreen(Int, ModelOrientation, [ModelSetting])
    case rotate(Int, to: ModelOrientation)
    case resize(Int, to: ModelSceneSize)
    /// `world.os`, by major version.
    case setOS(Int)
    /// The view's `layoutSubviews` and `updateProperties` read the trait from
    /// now on (tracked reads from iOS 18); the view asks for both now.
    case readTrait(Int, trait: Int)
    case setNeedsUpdateProperties(Int)

    var description: String {
        func opt(_ i: Int?) -> String { i.map(String.init) ?? "nil" }
        switch self {
        case .newScreen(let s): return ".newScreen(\(s))"
        case .newScene(let s): return ".newScene(screen: \(s))"
        case .newWindow(let s): return ".newWindow(scene: \(opt(s)))"
        case .newViewController: return ".newViewController"
        case .newView: return ".newView"
        case .addSubview(let c, let p): return ".addSubview(\(c), to: \(p))"
        case .removeFromSuperview(let v): return ".removeFromSuperview(\(v))"
        case .loadView(let v): return ".loadView(\(v))"
        case .addChild(let c, let p): return ".addChild(\(c), to: \(p))"
        case .removeFromParent(let c): return ".removeFromParent(\(c))"
        case .setRoot(let vc, let w): return ".setRoot(\(opt(vc)), window: \(w))"
        case .present(let b, let a): return ".present(\(b), from: \(a))"
        case .dismiss(let v): return ".dismiss(\(v))"
        case .setWindowScene(let s, let w): return ".setWindowScene(\(opt(s)), window: \(w))"
        case .disconnect(let s): return ".disconnect(scene: \(s))"
        case .setOverride(let n, let s): return ".setOverride(\(n), \(s))"
        case .removeOverride(let n, let t): return ".removeOverride(\(n), trait: \(t))"
        case .setMode(let m): return ".setMode(.\(m))"
        case .setScreenTraits(let s, let c): return ".setScreenTraits(\(s), \(c))"
        case .register(let n, let t): return ".register(\(n), traits: \(t))"
        case .unregister(let n, let r): return ".unregister(\(n), registration: \(r))"
        case .update: return ".update"
        case .updateTraitsIfNeeded(let n): return ".updateTraitsIfNeeded(\(n))"
        case .armLayout(let v, let x): return ".armLayout(\(v), \(x))"
        case .newDeviceScreen(let d, let o, let s): return ".newDeviceScreen(\(d), \(o), \(s))"
        case .rotate(let s, let o): return ".rotate(\(s), to: \(o))"
        case .resize(let s, let size): return ".resize(\(s), to: \(size))"
        case .setOS(let v): return ".setOS(\(v))"
        case .readTrait(let v, let t): return ".readTrait(\(v), trait: \(t))"
        case .setNeedsUpdateProperties(let v): return ".setNeedsUpdateProperties(\(v))"
        }
    }
}

// MARK: - The reference model

enum ModelKind: String { case screen, scene, window, viewController, view, presentation }

final class ModelNode {
    let kind: ModelKind
    init(_ kind: ModelKind) { self.kind = kind }
    // Views (windows included)
    var superview: Int?
    var subviews: [Int] = []
    var owner: Int?                 // the controller whose view this is
    // View controllers
    var view: Int?
    var parent: Int?
    var children: [Int] = []
    var rootOf: Int?                // window
    var presentedBy: Int?           // presentation controller presenting it
    var presenting: Int?            // presentation controller of what it presents
    // Windows
    var root: Int?
    var scene: Int?
    var windows: [Int] = []         // scenes
    var screen: Int?                // scenes
    var isConnected = true          // scenes
    var presenter: Int?             // presentation controllers
    var presented: Int?             // presentation controllers
    var device: ModelTraits.Collection = [:]   // screens: the traits after the next update
    var overrides: [Int: Int] = [:]
    /// The collection as of the last update that reached this node.
    var current: ModelTraits.Collection = [:]
    /// Whether an update has reached this node (before: its prediction).
    var updated = false
    /// The traits of each live registration, in registration order.
    var registrations: [[Int]] = []
    /// Plain views: the override the next layout sets on the first subview.
    var layoutHook: ModelSetting?
    // Device screens: the device (an index of ModelDevices.rows) and orientation.
    var deviceRow: Int?
    var orientation = ModelOrientation.portrait
    /// Scenes: the size.
    var sceneSize = ModelSceneSize.full
    // Views: the trait layoutSubviews and updateProperties read; whether the
    // last run of each recorded that read (a tracked read); whether each runs
    // at the next update that reaches the view.
    var readTrait: Int?
    var layoutRecordsRead = false
    var propertiesRecordRead = false
    var needsLayout = false
    var needsProperties = false
}

/// What the model expects of one step.
enum ModelOutcome: Equatable { case skipped, refused, applied }

/// The model: a tree built from the steps, with trait flow computed from
/// scratch. Knows nothing of the engine.
struct TraitFlowModel {
    var nodes: [ModelNode] = []
    var mode = HierarchyMode.ios17
    /// A world starts on the newest version.
    var os = ModelOS.versions.last!
    /// Trait prediction: a new node starts with the main screen's traits
    /// (the harness gives the engine's main screen these).
    static let prediction: ModelTraits.Collection = [0: 1, 2: 2]

    func ids(_ kinds: ModelKind...) -> [Int] { nodes.indices.filter { kinds.contains(nodes[$0].kind) } }
    func node(_ i: Int, _ kinds: ModelKind...) -> ModelNode? {
        guard i >= 0, i < nodes.count, kinds.contains(nodes[i].kind) else { return nil }
        return nodes[i]
    }
    func isView(_ i: Int) -> Bool { node(i, .view, .window) != nil }

    // MARK: Trait flow (docs/guide.md, "The hierarchy and overrides")

    /// The node `i` inherits from in the current mode.
    func traitParent(_ i: Int) -> Int? {
        let n = nodes[i]
        switch n.kind {
        case .screen: return nil
        case .scene: return n.screen
        case .window: return n.scene
        case .view: return n.owner ?? n.superview
        case .presentation:
            // The window that shows it: the presenter's view's window
            // (docs/guide.md, "Presentations"). A dismissed presentation controller is out of the hierarchy.
            guard let p = n.presented, nodes[p].presentedBy == i, let a = n.presenter, let v = nodes[a].view,
                  let top = viewAncestors(v).last, nodes[top].kind == .window else { return nil }
            return top
        case .viewController:
            if let w = n.rootOf { return w }
            if let pc = n.presentedBy { return pc }
            // iOS 17: from the view's superview (nothing while the view is out
            // of any superview); legacy, or a view not loaded yet: the parent.
            if mode == .ios17, let v = n.view { return nodes[v].superview }
            return n.parent
        }
    }

    /// Whether `i` is below a connected window scene (and so updates).
    func isConnected(_ i: Int) -> Bool {
        var cur: Int? = i
        var steps = 0
        while let c = cur, steps <= nodes.count {   // more steps than nodes: a cycle
            if nodes[c].kind == .scene { return nodes[c].isConnected }
            cur = traitParent(c)
            steps += 1
        }
        return false   // no scene, or a cycle of detached nodes
    }

    /// The device of a screen node, if it is a device screen.
    func device(ofScreen s: Int) -> ModelDevice? { nodes[s].deviceRow.map { ModelDevices.rows[$0] } }

    /// The size classes a scene's size gives it on its screen now (nil: a
    /// full-screen scene on a screen that is no device).
    func sceneSizeClasses(_ scene: Int) -> ModelSizeClasses? {
        guard let s = nodes[scene].screen else { return nil }
        return ModelDevices.sizeClasses(nodes[scene].sceneSize, on: device(ofScreen: s), nodes[s].orientation) ?? nil
    }

    /// A device screen's traits (the model's ones) in `orientation` over
    /// `settings`: the device's idiom, scale and full-screen size classes.
    static func deviceTraits(_ d: ModelDevice, _ orientation: ModelOrientation,
                             over settings: ModelTraits.Collection) -> ModelTraits.Collection {
        var c = settings
        let classes = orientation.isLandscape ? d.landscape : d.portrait
        c[ModelTraits.idiom] = d.isPad ? ModelTraits.pad : ModelTraits.phone
        c[ModelTraits.displayScale] = d.scale
        c[ModelTraits.horizontalSizeClass] = classes.horizontal
        c[ModelTraits.verticalSizeClass] = classes.vertical
        return c
    }

    /// Whether a rotation of screen `s` to `orientation` is refused: the
    /// screen is no device, the device does not turn so, or one of its
    /// scenes has a size the device does not offer in that orientation.
    func refusesRotation(_ s: Int, to orientation: ModelOrientation) -> Bool {
        guard let d = device(ofScreen: s) else { return true }
        if orientation == .portraitUpsideDown && !d.turnsUpsideDown { return true }
        return ids(.scene).contains { nodes[$0].screen == s && ModelDevices.sizeClasses(nodes[$0].sceneSize, on: d, orientation) == nil }
    }

    /// `base` with the node's overrides applied.
    func applyingOverrides(_ base: ModelTraits.Collection, _ i: Int) -> ModelTraits.Collection {
        var c = base
        for (t, v) in nodes[i].overrides { c[t] = v == 0 ? nil : v }
        return c
    }

    /// Every node's collection after a full update: device traits for
    /// screens, parent plus overrides below a connected scene, and the last
    /// collection elsewhere ("outside any window never updates").
    func collectionsAfterUpdate() -> [ModelTraits.Collection] {
        var result: [ModelTraits.Collection?] = Array(repeating: nil, count: nodes.count)
        func compute(_ i: Int) -> ModelTraits.Collection {
            if let r = result[i] { return r }
            let c: ModelTraits.Collection
            if nodes[i].kind == .screen {
                c = shownOnScreen(nodes[i].device)
            } else if isConnected(i), let p = traitParent(i) {
                var base = compute(p)
                // A presentation in the default style (automatic: a page
                // sheet) is elevated, unless its window is compact height,
                // where a page sheet is shown full screen
                // (https://developer.apple.com/documentation/uikit/uimodalpresentationstyle/pagesheet).
                if nodes[i].kind == .presentation, base[ModelTraits.verticalSizeClass] != ModelTraits.compact {
                    base[ModelTraits.interfaceLevel] = ModelTraits.elevated
                }
                // A scene that is not full screen has its size's size classes.
                if nodes[i].kind == .scene, nodes[i].sceneSize != .full, let classes = sceneSizeClasses(i) {
                    base[ModelTraits.horizontalSizeClass] = classes.horizontal
                    base[ModelTraits.verticalSizeClass] = classes.vertical
                }
                c = applyingOverrides(base, i)
            } else {
                c = nodes[i].current
            }
            result[i] = c
            return c
        }
        return nodes.indices.map(compute)
    }

    /// Collections after `updateTraitsIfNeeded` on `i`: the node, what it
    /// inherits from, and everything that inherits from it; nothing else.
    func collectionsAfterUpdating(along i: Int) -> [ModelTraits.Collection] {
        var result = nodes.map(\.current)
        let along = updated(along: i)
        guard !along.isEmpty else { return result }
        let full = collectionsAfterUpdate()
        for j in along { result[j] = full[j] }
        return result
    }

    /// The nodes `updateTraitsIfNeeded` on `i` reaches: `i`, what it inherits
    /// from, and every connected node that inherits from it.
    func updated(along i: Int) -> Set<Int> {
        guard nodes[i].kind == .screen || isConnected(i) else { return [] }
        var result: Set<Int> = []
        var cur: Int? = i
        var steps = 0
        while let c = cur, steps <= nodes.count { result.insert(c); cur = traitParent(c); steps += 1 }
        for j in nodes.indices where isConnected(j) {
            var up = traitParent(j)
            var n = 0
            while let u = up, n <= nodes.count {
                if u == i { result.insert(j); break }
                up = traitParent(u)
                n += 1
            }
        }
        return result
    }

    /// At an update: every armed layout hook of a view that updates fires
    /// (its layout runs), setting its override on its first subview. Returns
    /// the views that laid out because of it: (hooked view, subview or nil).
    mutating func fireLayoutHooks() -> [(view: Int, target: Int?)] {
        var fired: [(view: Int, target: Int?)] = []
        for v in nodes.indices {
            guard let hook = nodes[v].layoutHook, isConnected(v) else { continue }
            nodes[v].layoutHook = nil
            let target = nodes[v].subviews.first
            if let t = target { nodes[t].overrides[hook.trait] = hook.value }
            fired.append((v, target))
        }
        return fired
    }

    // MARK: Layout and updateProperties of views that read a trait

    /// Whether view `v`'s layoutSubviews and updateProperties run at an update
    /// that takes its collection from `before` to `after`: when asked for, or
    /// when the trait they read changed and their last run's read was tracked
    /// (iOS 18 and later; updateProperties runs only on 26).
    func renderWorkDue(_ v: Int, before: ModelTraits.Collection, after: ModelTraits.Collection) -> (layout: Bool, properties: Bool) {
        let n = nodes[v]
        let changed = os.tracksTraits && n.readTrait.map { before[$0] != after[$0] } == true
        return (n.needsLayout || (changed && n.layoutRecordsRead),
                os.updateProperties && (n.needsProperties || (changed && n.propertiesRecordRead)))
    }

    /// After an update: every view it reached has done its work, and a run
    /// recorded the trait it read if this version tracks reads.
    mutating func settleRenderWork(_ due: [Int: (layout: Bool, properties: Bool)]) {
        for (v, d) in due {
            let n = nodes[v]
            if d.layout { n.layoutRecordsRead = n.readTrait != nil && os.tracksTraits }
            if d.properties { n.propertiesRecordRead = n.readTrait != nil && os.tracksTraits }
            n.needsLayout = false
            n.needsProperties = false
        }
    }

    /// After `updateTraitsIfNeeded`: views whose tracked trait changed run
    /// their work at the next update.
    mutating func noteTrackedChanges(before: [ModelTraits.Collection], after: [ModelTraits.Collection]) {
        guard os.tracksTraits else { return }
        for v in ids(.view) {
            let n = nodes[v]
            guard let t = n.readTrait, before[v][t] != after[v][t] else { continue }
            if n.layoutRecordsRead { n.needsLayout = true }
            if n.propertiesRecordRead { n.needsProperties = true }
        }
    }

    // MARK: Tree rules (refused edits change nothing)

    /// `v` and what contains it: superviews, and for a presented controller's
    /// view the presenter's view (the presented view joins the presenter's window).
    func viewAncestors(_ v: Int) -> [Int] {
        var result: [Int] = []
        var cur: Int? = v
        while let c = cur, !result.contains(c) {
            result.append(c)
            if let s = nodes[c].superview { cur = s; continue }
            if let o = nodes[c].owner, let pc = nodes[o].presentedBy, let p = nodes[pc].presenter {
                cur = nodes[p].view
            } else {
                cur = nil
            }
        }
        return result
    }

    /// `vc` and the controllers above it: parents and presenters.
    func controllerAncestors(_ vc: Int) -> [Int] {
        var result: [Int] = []
        var cur: Int? = vc
        while let c = cur, !result.contains(c) {
            result.append(c)
            cur = nodes[c].parent ?? nodes[c].presentedBy.flatMap { nodes[$0].presenter }
        }
        return result
    }

    /// Whether one of `targets` is `i` or above it in either mode (superviews,
    /// owners, parents, presenters, windows): an edit putting one of them
    /// below `i` would make a loop, now or after a mode switch.
    func isBelow(_ i: Int, anyOf targets: [Int]) -> Bool {
        var seen = Set<Int>()
        var todo = [i]
        while let c = todo.popLast() {
            guard seen.insert(c).inserted else { continue }
            if targets.contains(c) { return true }
            let n = nodes[c]
            switch n.kind {
            case .view:
                todo += [n.superview, n.owner].compactMap { $0 }
            case .viewController:
                todo += [n.rootOf, n.presentedBy, n.parent, n.view.flatMap { nodes[$0].superview }].compactMap { $0 }
            case .presentation:
                if let p = traitParent(c) { todo.append(p) }
                if let p = n.presented, nodes[p].presentedBy == c, let a = n.presenter { todo.append(a) }
            default:
                break
            }
        }
        return false
    }

    func presenter(of vc: Int) -> Int? { nodes[vc].presentedBy.flatMap { nodes[$0].presenter } }

    /// The controller that makes a presentation `a` requests (the model
    /// presents in the default style): the top of `a`'s parent chain, or `a`
    /// itself when it presents itself (docs/guide.md, "Presentations": forwarded up).
    func presentationTarget(_ a: Int, presenting b: Int) -> Int {
        if a == b { return a }
        var t = a
        var steps = 0
        while let p = nodes[t].parent, steps <= nodes.count { t = p; steps += 1 }
        return t
    }

    /// What the model expects of `op`, without changing anything.
    func outcome(of op: ModelOp) -> ModelOutcome {
        switch op {
        case .newScreen, .newViewController, .newView, .setMode, .update:
            return .applied
        case .newScene(let s):
            return node(s, .screen) == nil ? .skipped : .applied
        case .newWindow(let s):
            if let s, node(s, .scene) == nil { return .skipped }
            return .applied
        case .addSubview(let c, let p):
            guard isView(c), isView(p) else { return .skipped }
            if nodes[c].kind == .window { return .refused }                      // a window has no superview
            if viewAncestors(p).contains(c) { return .refused }                   // below itself
            if let o = nodes[c].owner, nodes[o].rootOf != nil || nodes[o].presentedBy != nil {
                return .refused                                                    // placed by its window or presentation
            }
            if isBelow(p, anyOf: [c] + [nodes[c].owner].compactMap { $0 }) { return .refused }
            return .applied
        case .removeFromSuperview(let v):
            return isView(v) ? .applied : .skipped
        case .loadView(let vc), .removeFromParent(let vc), .dismiss(let vc):
            return node(vc, .viewController) == nil ? .skipped : .applied
        case .addChild(let c, let p):
            guard node(c, .viewController) != nil, node(p, .viewController) != nil else { return .skipped }
            if controllerAncestors(p).contains(c) { return .refused }
            let n = nodes[c]
            if n.parent != nil || n.rootOf != nil || n.presentedBy != nil { return .refused }   // two parents
            if isBelow(p, anyOf: [c]) { return .refused }
            return .applied
        case .setRoot(let vc, let w):
            guard node(w, .window) != nil else { return .skipped }
            guard let vc else { return .applied }
            guard node(vc, .viewController) != nil else { return .skipped }
            if nodes[w].root == vc { return .applied }
            let n = nodes[vc]
            if n.rootOf != nil || n.parent != nil || n.presentedBy != nil { return .refused }
            if let v = n.view, let s = nodes[v].superview, s != w { return .refused }
            return .applied
        case .present(let b, let requester):
            guard node(requester, .viewController) != nil, node(b, .viewController) != nil else { return .skipped }
            let a = presentationTarget(requester, presenting: b)
            if nodes[a].presenting != nil { return .refused }
            if controllerAncestors(a).contains(b) || controllerAncestors(b).contains(a) { return .refused }
            let n = nodes[b]
            if n.parent != nil || n.rootOf != nil || n.presentedBy != nil { return .refused }
            if let v = n.view {
                if nodes[v].superview != nil { return .refused }
                // The presented view would contain its presenter's view.
                if let av = nodes[a].view, viewAncestors(av).contains(v) { return .refused }
            }
            if isBelow(a, anyOf: [b]) { return .refused }
            return .applied
        case .setWindowScene(let s, let w):
            guard node(w, .window) != nil else { return .skipped }
            if let s, node(s, .scene) == nil { return .skipped }
            return .applied
        case .disconnect(let s):
            return node(s, .scene) == nil ? .skipped : .applied
        case .setOverride(let n, _), .removeOverride(let n, _):
            guard n >= 0, n < nodes.count, nodes[n].kind != .screen else { return .skipped }
            return .applied
        case .setScreenTraits(let s, _):
            return node(s, .screen) == nil ? .skipped : .applied
        case .register(let n, let traits):
            guard n >= 0, n < nodes.count else { return .skipped }
            return traits.isEmpty ? .refused : .applied
        case .unregister(let n, let r):
            guard n >= 0, n < nodes.count, r >= 0, r < nodes[n].registrations.count else { return .skipped }
            return .applied
        case .updateTraitsIfNeeded(let n):
            return n >= 0 && n < nodes.count ? .applied : .skipped
        case .armLayout(let v, _), .readTrait(let v, _), .setNeedsUpdateProperties(let v):
            return node(v, .view) == nil ? .skipped : .applied
        case .newDeviceScreen(let d, let o, _):
            guard d >= 0, d < ModelDevices.rows.count else { return .skipped }
            return o == .portraitUpsideDown && !ModelDevices.rows[d].turnsUpsideDown ? .refused : .applied
        case .rotate(let s, let o):
            guard node(s, .screen) != nil else { return .skipped }
            return refusesRotation(s, to: o) ? .refused : .applied
        case .resize(let sc, let size):
            guard node(sc, .scene) != nil, let s = nodes[sc].screen else { return .skipped }
            return ModelDevices.sizeClasses(size, on: device(ofScreen: s), nodes[s].orientation) == nil ? .refused : .applied
        case .setOS(let v):
            return ModelOS.version(v) == nil ? .skipped : .applied
        }
    }

    // MARK: Applying steps (only those whose outcome is `.applied`)

    mutating func add(_ kind: ModelKind) -> ModelNode {
        let n = ModelNode(kind)
        n.current = TraitFlowModel.prediction
        nodes.append(n)
        return n
    }

    mutating func loadView(_ vc: Int) {
        guard nodes[vc].view == nil else { return }
        let v = add(.view)
        v.owner = vc
        nodes[vc].view = nodes.count - 1
    }

    func detachView(_ v: Int) {
        guard let s = nodes[v].superview else { return }
        nodes[s].subviews.removeAll { $0 == v }
        nodes[v].superview = nil
    }

    /// A screen's device traits as its collection shows them: without the
    /// system traits the model's iOS lacks (`typesettingLanguage`, "iOS
    /// 17.0+" on https://developer.apple.com/documentation/uikit/uitraitcollection/typesettinglanguage).
    func shownOnScreen(_ c: ModelTraits.Collection) -> ModelTraits.Collection {
        guard os.major < 17, c[ModelTraits.typesettingLanguage] != nil else { return c }
        var shown = c
        shown[ModelTraits.typesettingLanguage] = nil
        return shown
    }

    /// Collections are applied by the update steps (see ``ModelHarness``).
    mutating func apply(_ op: ModelOp) {
        switch op {
        case .newScreen(let settings):
            let s = add(.screen)
            for x in settings { s.device[x.trait] = x.value == 0 ? nil : x.value }
            s.current = shownOnScreen(s.device)
        case .newScene(let screen):
            // Trait prediction: a scene starts with its screen's traits
            // (the ones its next update gives it).
            let scene = add(.scene)
            scene.screen = screen
            scene.current = shownOnScreen(nodes[screen].device)
        case .newWindow(let scene):
            _ = add(.window)
            if let scene { apply(.setWindowScene(scene, window: nodes.count - 1)) }
        case .newViewController:
            _ = add(.viewController)
        case .newView:
            _ = add(.view)
        case .addSubview(let c, let p):
            detachView(c)
            nodes[c].superview = p
            nodes[p].subviews.append(c)
        case .removeFromSuperview(let v):
            detachView(v)
        case .loadView(let vc):
            loadView(vc)
        case .addChild(let c, let p):
            nodes[p].children.append(c)
            nodes[c].parent = p
        case .removeFromParent(let c):
            guard let p = nodes[c].parent else { return }
            nodes[p].children.removeAll { $0 == c }
            nodes[c].parent = nil
        case .setRoot(let vc, let w):
            if nodes[w].root == vc { return }
            if let old = nodes[w].root {
                nodes[w].root = nil
                nodes[old].rootOf = nil
                if let v = nodes[old].view { detachView(v) }
            }
            guard let vc else { return }
            nodes[w].root = vc
            nodes[vc].rootOf = w
            loadView(vc)
            let v = nodes[vc].view!
            if nodes[v].superview != w {
                nodes[v].superview = w
                nodes[w].subviews.insert(v, at: 0)
            }
        case .present(let b, let requester):
            let a = presentationTarget(requester, presenting: b)
            let pc = add(.presentation)
            let id = nodes.count - 1
            pc.presenter = a
            pc.presented = b
            nodes[a].presenting = id
            nodes[b].presentedBy = id
            loadView(b)
        case .dismiss(let vc):
            if let pc = nodes[vc].presenting {
                nodes[vc].presenting = nil
                nodes[nodes[pc].presented!].presentedBy = nil
            } else if let p = presenter(of: vc) {
                apply(.dismiss(p))
            } else if let p = nodes[vc].parent {
                apply(.dismiss(p))   // forwarded, as UIKit forwards it
            }
        case .setWindowScene(let s, let w):
            if nodes[w].scene == s { return }
            if let old = nodes[w].scene { nodes[old].windows.removeAll { $0 == w } }
            nodes[w].scene = s
            if let s { nodes[s].windows.append(w) }
            // Trait prediction: a window no update reached yet takes its
            // scene's traits and its own overrides when it joins the scene.
            if let s, !nodes[w].updated { nodes[w].current = applyingOverrides(nodes[s].current, w) }
        case .disconnect(let s):
            nodes[s].isConnected = false
        case .setOverride(let n, let x):
            nodes[n].overrides[x.trait] = x.value
        case .removeOverride(let n, let t):
            nodes[n].overrides[t] = nil
        case .setMode(let m):
            mode = m
        case .setScreenTraits(let s, let settings):
            for x in settings { nodes[s].device[x.trait] = x.value == 0 ? nil : x.value }
        case .register(let n, let traits):
            nodes[n].registrations.append(traits)
        case .unregister(let n, let r):
            nodes[n].registrations.remove(at: r)
        case .armLayout(let v, let x):
            nodes[v].layoutHook = x
        case .newDeviceScreen(let d, let o, let settings):
            let s = add(.screen)
            s.deviceRow = d
            s.orientation = o
            // The default profile's light style and base level under the device's traits, then the settings.
            s.device = TraitFlowModel.deviceTraits(ModelDevices.rows[d], o, over: [ModelTraits.style: ModelTraits.light,
                                                                                   ModelTraits.interfaceLevel: ModelTraits.base])
            // Settings are a collection laid over the device's: a trait
            // set to its default there is unset, and leaves the device's value.
            var laid: [Int: Int] = [:]
            for x in settings { laid[x.trait] = x.value }
            for (t, v) in laid where v != 0 { s.device[t] = v }
            s.current = shownOnScreen(s.device)
        case .rotate(let s, let o):
            nodes[s].orientation = o
            nodes[s].device = TraitFlowModel.deviceTraits(device(ofScreen: s)!, o, over: nodes[s].device)
        case .resize(let sc, let size):
            nodes[sc].sceneSize = size
        case .setOS(let v):
            os = ModelOS.version(v)!
            mode = os.legacyFlow ? .legacy : .ios17
        case .readTrait(let v, let t):
            nodes[v].readTrait = t
            nodes[v].needsLayout = true
            nodes[v].needsProperties = true
        case .setNeedsUpdateProperties(let v):
            nodes[v].needsProperties = true
        case .update:
            for j in nodes.indices where nodes[j].kind == .screen || isConnected(j) { nodes[j].updated = true }
        case .updateTraitsIfNeeded(let n):
            for j in updated(along: n) { nodes[j].updated = true }
        }
    }
}

// MARK: - The harness: engine and model in lockstep

/// A plain view whose `layoutSubviews` runs the model's layout hook and
/// counts its layouts and property updates.
final class ModelView: View {
    var hook: (definition: TraitDefinition, value: TraitValue)?
    /// A trait layoutSubviews and updateProperties read (a tracked read from iOS 18).
    var reads: TraitDefinition?
    var layouts = 0
    var propertyUpdates = 0
    override func updateProperties() throws {
        propertyUpdates += 1
        if let reads { _ = traitCollection[reads] }
    }
    override func layoutSubviews() throws {
        layouts += 1
        if let reads { _ = traitCollection[reads] }
        guard let hook else { return }
        self.hook = nil
        guard let target = subviews.first else { return }
        try target.setTraitOverride(hook.definition, hook.value)
        target.setNeedsLayout()
    }
}

/// A registration made on the engine, with the deliveries it received since
/// the last check: the previous collection and the one the environment had at
/// delivery time, both in the model's terms.
final class DeliveryLog {
    var token: TraitChangeRegistration?
    var calls: [(previous: ModelTraits.Collection?, current: ModelTraits.Collection?)] = []
}

/// Runs steps on a fresh ``TraitWorld`` and on the model, checking after each
/// step that the tree matches and, after each update, that every collection
/// and every delivery is what the model computed.
final class ModelHarness {
    private(set) var world: TraitWorld? = TraitWorld()
    private(set) var model = TraitFlowModel()
    private var envs: [TraitEnvironment] = []
    private var ids: [ObjectIdentifier: Int] = [:]
    private var logs: [[DeliveryLog]] = []
    /// Whether no step since the last update changed the tree (or a hook
    /// was armed): then no view lays out or updates its properties at the
    /// next update unless asked to or because a trait it read changed.
    private var quiet = true

    init() {
        // Trait prediction: new environments start with the main screen's traits.
        world?.mainScreen.setTraits(ModelTraits.collection(TraitFlowModel.prediction))
        try? world?.update()
    }

    /// Runs one step; returns a description of the first difference, if any.
    func step(_ op: ModelOp) -> String? {
        guard let world else { return "the harness was finished" }
        let expected = model.outcome(of: op)
        if expected == .skipped { return nil }
        var thrown: Error?
        do {
            try perform(op, in: world)
        } catch {
            thrown = error
        }
        if expected == .refused && thrown == nil { return "the engine accepted a step the model refuses" }
        if expected == .applied, let thrown { return "the engine refused a step the model accepts: \(thrown)" }
        let before = model.nodes.map(\.current)
        if expected == .applied {
            model.apply(op)
            if let problem = adoptNewNodes() { return problem }
            if Self.changesStructure(op) { quiet = false }
        }
        var fired: [(view: Int, target: Int?)] = []
        if case .update = op { fired = model.fireLayoutHooks() }
        if let problem = checkTree() { return problem }
        switch op {
        case .update:
            // One traversal: a hooked view lays out once, and so does the
            // subview it configured when that subview inherits from it (it is
            // visited after its parent's layout, with the new override).
            for (v, t) in fired {
                let engine = (envs[v] as! ModelView).layouts
                // (A view another hook configured from outside its trait
                // subtree, visited before that hook ran, lays out again.)
                let configured = fired.contains { $0.target == v }
                if engine != 1 && !(configured && engine == 2) { return "node \(v) (view): layoutSubviews ran \(engine) time(s) in the update, expected once" }
                if let t, model.traitParent(t) == v, let tv = envs[t] as? ModelView, tv.layouts != 1 {
                    return "node \(t) (view): layoutSubviews ran \(tv.layouts) time(s) after its superview configured it, expected once"
                }
            }
            let after = model.collectionsAfterUpdate()
            if let problem = checkRenderWork(after, from: before) { return problem }
            return checkCollections(after, from: before)
        case .updateTraitsIfNeeded(let n):
            let after = model.collectionsAfterUpdating(along: n)
            if let problem = checkCollections(after, from: before) { return problem }
            model.noteTrackedChanges(before: before, after: after)
            return nil
        default:
            return nil
        }
    }

    /// Drops everything: after the world's teardown and the harness letting go,
    /// no environment may stay alive (nothing in the tree keeps itself alive).
    func finish() -> String? {
        guard let world else { return nil }
        world.tearDown()
        logs.removeAll()
        ids.removeAll()
        envs.removeAll()
        self.world = nil
        let alive = world.stats.environments
        return alive == 0 ? nil : "\(alive) environments still alive after everything was released"
    }

    private func env(_ i: Int) -> TraitEnvironment { envs[i] }
    private func view(_ i: Int) -> View? { envs[i] as? View }
    private func controller(_ i: Int) -> ViewController? { envs[i] as? ViewController }

    private func perform(_ op: ModelOp, in world: TraitWorld) throws {
        let defs = ModelTraits.definitions, values = ModelTraits.values
        switch op {
        case .newScreen(let settings):
            let tc = TraitCollection { m in for x in settings { m[defs[x.trait]] = values[x.trait][x.value] } }
            adopt(Screen(world: world, traits: tc))
        case .newScene(let s):
            adopt(WindowScene(world: world, screen: envs[s] as! Screen))
        case .newWindow(let s):
            let w = Window(world: world)
            adopt(w)
            if let s { w.setWindowScene(envs[s] as? WindowScene) }
        case .newViewController:
            let vc = ViewController(world: world)
            vc.makeView = { ModelView(world: $0.world) }
            adopt(vc)
        case .newView:
            adopt(ModelView(world: world))
        case .addSubview(let c, let p):
            try view(p)!.addSubview(view(c)!)
        case .removeFromSuperview(let v):
            view(v)!.removeFromSuperview()
        case .loadView(let vc):
            _ = try controller(vc)!.loadViewIfNeeded()
        case .addChild(let c, let p):
            try controller(p)!.addChild(controller(c)!)
        case .removeFromParent(let c):
            controller(c)!.removeFromParent()
        case .setRoot(let vc, let w):
            try (envs[w] as! Window).setRootViewController(vc.map { controller($0)! })
        case .present(let b, let a):
            try controller(a)!.present(controller(b)!)
        case .dismiss(let vc):
            controller(vc)!.dismiss()
        case .setWindowScene(let s, let w):
            (envs[w] as! Window).setWindowScene(s.map { envs[$0] as! WindowScene })
        case .disconnect(let s):
            (envs[s] as! WindowScene).disconnect()
        case .setOverride(let n, let x):
            try env(n).setTraitOverride(defs[x.trait], values[x.trait][x.value])
        case .removeOverride(let n, let t):
            env(n).removeTraitOverride(defs[t])
        case .setMode(let m):
            world.hierarchyMode = m
        case .setScreenTraits(let s, let settings):
            (envs[s] as! Screen).setTraits { m in for x in settings { m[defs[x.trait]] = values[x.trait][x.value] } }
        case .register(let n, let traits):
            let log = DeliveryLog()
            log.token = try env(n).registerForTraitChanges(traits.map { defs[$0] }) { [unowned log] e, previous in
                log.calls.append((ModelTraits.modelForm(previous), ModelTraits.modelForm(e.traitCollection)))
            }
            logs[n].append(log)
        case .unregister(let n, let r):
            let log = logs[n].remove(at: r)
            if let token = log.token { env(n).unregisterForTraitChanges(token) }
        case .update:
            try world.update()
        case .updateTraitsIfNeeded(let n):
            try env(n).updateTraitsIfNeeded()
        case .armLayout(let v, let x):
            let view = envs[v] as! ModelView
            view.hook = (defs[x.trait], values[x.trait][x.value])
            view.setNeedsLayout()
        case .newDeviceScreen(let d, let o, let settings):
            let tc = TraitCollection { m in for x in settings { m[defs[x.trait]] = values[x.trait][x.value] } }
            let device = try DeviceCatalogue.device(named: ModelDevices.rows[d].name)
            adopt(try Screen(world: world, device: device, orientation: Self.orientation(o), settings: tc))
        case .rotate(let s, let o):
            try (envs[s] as! Screen).rotate(to: Self.orientation(o))
        case .resize(let s, let size):
            try (envs[s] as! WindowScene).resize(to: Self.sceneSize(size))
        case .setOS(let v):
            world.os = OSVersion(String(v))!
        case .readTrait(let v, let t):
            let view = envs[v] as! ModelView
            view.reads = defs[t]
            view.setNeedsLayout()
            view.setNeedsUpdateProperties()
        case .setNeedsUpdateProperties(let v):
            view(v)!.setNeedsUpdateProperties()
        }
    }

    /// Steps after which views may lay out or update their properties for
    /// reasons the model does not follow (a view entering a window, a hook).
    private static func changesStructure(_ op: ModelOp) -> Bool {
        switch op {
        case .newScene, .newWindow, .addSubview, .removeFromSuperview, .loadView, .addChild, .removeFromParent, .setRoot,
             .present, .dismiss, .setWindowScene, .disconnect, .setMode, .setOS, .armLayout:
            return true
        default:
            return false
        }
    }

    private static func orientation(_ o: ModelOrientation) -> Orientation {
        [Orientation.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight][o.rawValue]
    }

    private static func sceneSize(_ s: ModelSceneSize) -> SceneSize {
        switch s {
        case .full: return .full
        case .twoThirds: return .twoThirds
        case .half: return .half
        case .oneThird: return .oneThird
        case .slideOver: return .slideOver
        case .custom(let w, let h): return .custom(Size(w, h))
        }
    }

    private func adopt(_ e: TraitEnvironment) {
        ids[ObjectIdentifier(e)] = envs.count
        envs.append(e)
        logs.append([])
    }

    /// Finds the engine objects for nodes the model created as a side effect
    /// (views loaded, presentation controllers).
    private func adoptNewNodes() -> String? {
        while envs.count < model.nodes.count {
            let i = envs.count, n = model.nodes[i]
            let found: TraitEnvironment?
            switch n.kind {
            case .view where n.owner != nil: found = controller(n.owner!)?.viewIfLoaded
            case .presentation: found = controller(n.presented!)?.presentationController
            default: found = nil
            }
            guard let found else { return "node \(i) (\(n.kind.rawValue)) has no engine object" }
            if ids[ObjectIdentifier(found)] != nil { return "node \(i) (\(n.kind.rawValue)) is an engine object seen before" }
            adopt(found)
        }
        return nil
    }

    private func id(_ e: TraitEnvironment?) -> Int? { e.flatMap { ids[ObjectIdentifier($0)] } }

    /// Compares the engine's tree with the model's, node by node.
    private func checkTree() -> String? {
        for (i, n) in model.nodes.enumerated() {
            let e = envs[i]
            func differ(_ what: String, _ engine: Any, _ expected: Any) -> String {
                "node \(i) (\(n.kind.rawValue)): \(what) is \(engine) in the engine, \(expected) in the model"
            }
            let parent = model.traitParent(i)
            if id(e.traitParent) != parent || (e.traitParent != nil) != (parent != nil) {
                return differ("traitParent", id(e.traitParent).map(String.init) ?? "nil", parent.map(String.init) ?? "nil")
            }
            for (t, d) in ModelTraits.definitions.enumerated() {
                let engine = e.traitOverride(d), expected = n.overrides[t].map { ModelTraits.values[t][$0] }
                if engine != expected { return differ("the override of \(d.name)", engine as Any, expected as Any) }
            }
            if e.activeRegistrationCount != n.registrations.count {
                return differ("registration count", e.activeRegistrationCount, n.registrations.count)
            }
            if let v = e as? View {
                if id(v.superview) != n.superview { return differ("superview", id(v.superview) as Any, n.superview as Any) }
                let subviews = v.subviews.map { id($0) ?? -1 }
                if subviews != n.subviews { return differ("subviews", subviews, n.subviews) }
            }
            if let w = e as? Window {
                if id(w.rootViewController) != n.root { return differ("rootViewController", id(w.rootViewController) as Any, n.root as Any) }
                if id(w.windowScene) != n.scene { return differ("windowScene", id(w.windowScene) as Any, n.scene as Any) }
            }
            if let vc = e as? ViewController {
                if id(vc.viewIfLoaded) != n.view { return differ("view", id(vc.viewIfLoaded) as Any, n.view as Any) }
                if id(vc.parent) != n.parent { return differ("parent", id(vc.parent) as Any, n.parent as Any) }
                let children = vc.children.map { id($0) ?? -1 }
                if children != n.children { return differ("children", children, n.children) }
                let presented = n.presenting.flatMap { model.nodes[$0].presented }
                if id(vc.presentedViewController) != presented {
                    return differ("presentedViewController", id(vc.presentedViewController) as Any, presented as Any)
                }
                let presenter = model.presenter(of: i)
                if id(vc.presentingViewController) != presenter {
                    return differ("presentingViewController", id(vc.presentingViewController) as Any, presenter as Any)
                }
            }
            if let s = e as? WindowScene {
                let windows = s.windows.map { id($0) ?? -1 }
                if windows != n.windows { return differ("windows", windows, n.windows) }
                if s.isConnected != n.isConnected { return differ("isConnected", s.isConnected, n.isConnected) }
                if s.size != Self.sceneSize(n.sceneSize) { return differ("size", s.size, n.sceneSize) }
                let classes = s.geometry.map { g in
                    ModelSizeClasses(horizontal: g.sizeClasses.horizontal == .regular ? 2 : 1,
                                     vertical: g.sizeClasses.vertical == .regular ? 2 : 1)
                }
                let expected = model.sceneSizeClasses(i)
                if classes != expected {
                    return differ("size classes", classes.map(String.init(describing:)) ?? "nil",
                                  expected.map(String.init(describing:)) ?? "nil")
                }
            }
            if let s = e as? Screen {
                let d = model.device(ofScreen: i)
                if s.device?.name != d?.name { return differ("device", s.device?.name ?? "nil", d?.name ?? "nil") }
                if d != nil && s.orientation != Self.orientation(n.orientation) {
                    return differ("orientation", s.orientation, n.orientation)
                }
                let size = d.map { n.orientation.isLandscape ? Size($0.height, $0.width) : Size($0.width, $0.height) }
                if s.size != size { return differ("size", s.size as Any, size as Any) }
            }
        }
        return nil
    }

    /// After an update: which views laid out and updated their properties,
    /// and how often (every view the update reached when nothing changed the
    /// tree since the last one; views outside any window never).
    private func checkRenderWork(_ after: [ModelTraits.Collection], from before: [ModelTraits.Collection]) -> String? {
        defer {
            quiet = true
            for e in envs { if let v = e as? ModelView { v.layouts = 0; v.propertyUpdates = 0 } }
        }
        var due: [Int: (layout: Bool, properties: Bool)] = [:]
        for v in model.ids(.view) {
            let view = envs[v] as! ModelView
            func problem(_ what: String, _ count: Int, _ expected: String) -> String {
                "node \(v) (view): \(what) ran \(count) time(s) in the update on iOS \(model.os.major), expected \(expected)"
                    + " (reads \(model.nodes[v].readTrait.map { ModelTraits.names[$0] } ?? "nothing"): "
                    + "\(ModelTraits.describe(before[v])) -> \(ModelTraits.describe(after[v])))"
            }
            if !model.os.updateProperties && view.propertyUpdates != 0 {
                return problem("updateProperties", view.propertyUpdates, "never before iOS 26")
            }
            guard model.isConnected(v) else {
                if view.layouts != 0 { return problem("layoutSubviews", view.layouts, "never outside a window") }
                if view.propertyUpdates != 0 { return problem("updateProperties", view.propertyUpdates, "never outside a window") }
                continue
            }
            let d = model.renderWorkDue(v, before: before[v], after: after[v])
            due[v] = d
            if quiet {
                if view.layouts != (d.layout ? 1 : 0) { return problem("layoutSubviews", view.layouts, d.layout ? "once" : "never") }
                if view.propertyUpdates != (d.properties ? 1 : 0) {
                    return problem("updateProperties", view.propertyUpdates, d.properties ? "once" : "never")
                }
            } else {
                if d.layout && view.layouts == 0 { return problem("layoutSubviews", 0, "at least once") }
                if d.properties && view.propertyUpdates == 0 { return problem("updateProperties", 0, "at least once") }
            }
        }
        model.settleRenderWork(due)
        return nil
    }

    /// After an update: every collection and every registration's deliveries.
    private func checkCollections(_ expected: [ModelTraits.Collection], from before: [ModelTraits.Collection]) -> String? {
        for (i, n) in model.nodes.enumerated() {
            let engine = ModelTraits.modelForm(envs[i].traitCollection)
            if engine != expected[i] {
                return "node \(i) (\(n.kind.rawValue)): traitCollection is \(ModelTraits.describe(engine)) in the engine, "
                    + "\(ModelTraits.describe(expected[i])) in the model (before the update: \(ModelTraits.describe(before[i])))"
            }
            let changed = Set(ModelTraits.definitions.indices.filter { before[i][$0] != expected[i][$0] })
            for (r, traits) in n.registrations.enumerated() {
                let log = logs[i][r]
                let due = traits.contains { changed.contains($0) }
                let calls = log.calls
                log.calls.removeAll()
                if !due && !calls.isEmpty {
                    return "node \(i) (\(n.kind.rawValue)): registration \(r) for traits \(traits) ran \(calls.count) time(s), "
                        + "but none of its traits changed (\(ModelTraits.describe(before[i])) -> \(ModelTraits.describe(expected[i])))"
                }
                if due && calls.count != 1 {
                    return "node \(i) (\(n.kind.rawValue)): registration \(r) for traits \(traits) ran \(calls.count) time(s), "
                        + "expected once (\(ModelTraits.describe(before[i])) -> \(ModelTraits.describe(expected[i])))"
                }
                if due, let call = calls.first, call.previous != before[i] || call.current != expected[i] {
                    return "node \(i) (\(n.kind.rawValue)): registration \(r) got previous \(ModelTraits.describe(call.previous)) "
                        + "and current \(ModelTraits.describe(call.current)), expected \(ModelTraits.describe(before[i])) "
                        + "and \(ModelTraits.describe(expected[i]))"
                }
            }
            n.current = expected[i]
        }
        return nil
    }
}

// MARK: - Generating sequences

/// Where a generator's choices come from: a seeded generator in the tests,
/// the fuzzer's input bytes in Fuzz/ (nil when they run out).
protocol ModelChoiceSource {
    /// A number in `0..<n` (n > 0), or nil when there are no more choices.
    mutating func choose(_ n: Int) -> Int?
}

/// SplitMix64, the seeded source of the randomized tests.
struct SplitMix64: ModelChoiceSource {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func choose(_ n: Int) -> Int? { Int(next() % UInt64(n)) }
}

/// Picks steps that mostly make sense for the model's current tree, with
/// enough refused edits mixed in to check that refusals change nothing.
enum ModelGenerator {
    static let maxNodes = 28

    /// A usual start: a screen, a connected scene, a window with a root
    /// controller; on iOS `os` (a world's version is fixed when it starts;
    /// nil: the default, 26) with the trait flow `mode` (nil: the version's)
    /// and, with `device`, on a screen of that row of ``ModelDevices/rows``.
    static func prelude(mode: HierarchyMode?, os: Int? = nil, device: Int? = nil) -> [ModelOp] {
        // Nodes 0 screen, 1 scene, 2 window, 3 root controller, 4 its view.
        let screen: ModelOp = device.map { .newDeviceScreen($0, .portrait, []) } ?? .newScreen([ModelSetting(0, 1), ModelSetting(2, 2)])
        let start = (os.map { [ModelOp.setOS($0)] } ?? []) + (mode.map { [ModelOp.setMode($0)] } ?? [])
        return start + [screen, .newScene(screen: 0), .newWindow(scene: 1), .newViewController,
                        .setRoot(3, window: 2), .update]
    }

    /// The next step; with `focus`, mostly rotations, resizes, trait changes
    /// of what views read, and updates (the tree changes now and then).
    static func next<S: ModelChoiceSource>(_ model: TraitFlowModel, focus: Bool = false, _ source: inout S) -> ModelOp? {
        func pick(_ list: [Int]) -> Int? {
            guard !list.isEmpty, let i = source.choose(list.count) else { return nil }
            return list[i]
        }
        func setting() -> ModelSetting? {
            guard let t = source.choose(ModelTraits.definitions.count), let v = source.choose(ModelTraits.valueCount) else { return nil }
            return ModelSetting(t, v)
        }
        func settings() -> [ModelSetting]? {
            guard let n = source.choose(3) else { return nil }
            var result: [ModelSetting] = []
            for _ in 0...n { guard let s = setting() else { return nil }; result.append(s) }
            return result
        }
        /// Mostly from the part of the tree that updates, where changes show.
        func pickLive(_ list: [Int]) -> Int? {
            let live = list.filter(model.isConnected)
            guard !live.isEmpty, let c = source.choose(3) else { return pick(list) }
            return c == 0 ? pick(list) : pick(live)
        }
        /// Mostly controllers that can take a new place (no parent, window or presenter).
        func pickFree(_ list: [Int]) -> Int? {
            let free = list.filter { model.nodes[$0].parent == nil && model.nodes[$0].rootOf == nil && model.nodes[$0].presentedBy == nil }
            guard !free.isEmpty, let c = source.choose(4) else { return pick(list) }
            return c == 0 ? pick(list) : pick(free)
        }
        let all = Array(model.nodes.indices)
        let views = model.ids(.view), windows = model.ids(.window), vcs = model.ids(.viewController)
        let scenes = model.ids(.scene), screens = model.ids(.screen)
        let full = model.nodes.count >= maxNodes
        func rotation() -> ModelOp? {
            // Mostly device screens with a scene that updates; now and then a plain one, to be refused.
            let devices = screens.filter { model.nodes[$0].deviceRow != nil }
            guard let c = source.choose(8), let s = c == 0 ? pick(screens) : pickLive(devices.isEmpty ? screens : devices),
                  let o = source.choose(4) else { return nil }
            return .rotate(s, to: ModelOrientation(rawValue: o)!)
        }
        func resize() -> ModelOp? {
            guard let sc = pickLive(scenes), let c = source.choose(10) else { return nil }
            switch c {
            case 0..<6: return .resize(sc, to: ModelSceneSize.named[c % ModelSceneSize.named.count])
            case 6, 7: return pick(Array(ModelSceneSize.probes.indices)).map { .resize(sc, to: ModelSceneSize.probes[$0]) }
            case 8:
                guard let w = source.choose(1_400), let h = source.choose(1_400) else { return nil }
                return .resize(sc, to: .custom(Double(w + 1), Double(h + 1)))
            default:
                return pick(Array(ModelSceneSize.invalid.indices)).map { .resize(sc, to: ModelSceneSize.invalid[$0]) }
            }
        }
        func override() -> ModelOp? {
            guard let n = pickLive(all.filter { model.nodes[$0].kind != .screen }), let s = setting() else { return nil }
            return .setOverride(n, s)
        }
        /// An override of the trait a view reads, on it or on what it inherits from.
        func readTraitChange() -> ModelOp? {
            let readers = views.filter { model.nodes[$0].readTrait != nil && model.isConnected($0) }
            guard let r = pick(readers), let v = source.choose(ModelTraits.valueCount) else { return override() }
            var chain = [r]
            var up = model.traitParent(r)
            while let u = up, model.nodes[u].kind != .screen, chain.count < 8 { chain.append(u); up = model.traitParent(u) }
            return pick(chain).map { .setOverride($0, ModelSetting(model.nodes[r].readTrait!, v)) }
        }
        func screenTraits() -> ModelOp? {
            guard let s = pick(screens), let c = settings() else { return nil }
            return .setScreenTraits(s, c)
        }
        func readTrait() -> ModelOp? {
            guard let v = pickLive(views), let t = source.choose(ModelTraits.definitions.count) else { return nil }
            return .readTrait(v, trait: t)
        }
        if focus, let c = source.choose(4), c != 0 {
            switch source.choose(12) {
            case 0?, 1?: return rotation()
            case 2?, 3?: return resize()
            case 4?, 5?: return readTraitChange()
            case 6?: return screenTraits()
            case 7?: return readTrait()
            case 8?: return pickLive(views).map { .setNeedsUpdateProperties($0) }
            case 9?: return pickLive(all).map { .updateTraitsIfNeeded($0) }
            case nil: return nil
            default: return .update
            }
        }
        guard let roll = source.choose(117) else { return nil }
        switch roll {
        case 0..<3 where !full && screens.count < 3:
            return settings().map { .newScreen($0) }
        case 3..<6 where !full && scenes.count < 4:
            return pick(screens).map { .newScene(screen: $0) }
        case 6..<9 where !full && windows.count < 4:
            guard let c = source.choose(4) else { return nil }
            return c == 0 ? .newWindow(scene: nil) : pick(scenes).map { .newWindow(scene: $0) }
        case 9..<15 where !full:
            return .newViewController
        case 15..<21 where !full:
            return .newView
        case 21..<34:
            // Mostly plain views; now and then a window or a controller's view, to be refused.
            guard let c = source.choose(10) else { return nil }
            let placeable = views.filter { v in
                model.nodes[v].owner.map { model.nodes[$0].rootOf == nil && model.nodes[$0].presentedBy == nil } ?? true
            }
            let child = c == 0 ? pick(windows) : c == 1 ? pick(views) : pick(placeable.isEmpty ? views : placeable)
            guard let child, let parent = pickLive(views + windows) else { return nil }
            return .addSubview(child, to: parent)
        case 34..<38:
            return pick(views).map { .removeFromSuperview($0) }
        case 38..<41:
            return pick(vcs).map { .loadView($0) }
        case 41..<47:
            guard let c = pickFree(vcs), let p = pickLive(vcs) else { return nil }
            return .addChild(c, to: p)
        case 47..<50:
            return pick(vcs).map { .removeFromParent($0) }
        case 50..<55:
            guard let w = pick(windows), let c = source.choose(8) else { return nil }
            return c == 0 ? .setRoot(nil, window: w) : pickFree(vcs).map { .setRoot($0, window: w) }
        case 55..<59:
            guard let a = pickLive(vcs), let b = pickFree(vcs) else { return nil }
            return .present(b, from: a)
        case 59..<62:
            return pick(vcs).map { .dismiss($0) }
        case 62..<65:
            guard let w = pick(windows), let c = source.choose(6) else { return nil }
            return c == 0 ? .setWindowScene(nil, window: w) : pick(scenes).map { .setWindowScene($0, window: w) }
        case 65:
            // Rarely: it usually ends the trait flow of the whole sequence.
            guard source.choose(3) == 0 else { return .update }
            return pick(scenes).map { .disconnect(scene: $0) }
        case 66..<74:
            return override()
        case 74..<77:
            let withOverrides = all.filter { !model.nodes[$0].overrides.isEmpty }
            guard let n = pick(withOverrides), let t = pick(model.nodes[n].overrides.keys.sorted()) else { return nil }
            return .removeOverride(n, trait: t)
        case 77..<79:
            return source.choose(2).map { .setMode($0 == 0 ? .ios17 : .legacy) }
        case 79..<82:
            return screenTraits()
        case 82..<87:
            guard let n = pickLive(all), let s = settings() else { return nil }
            return .register(n, traits: Array(Set(s.map(\.trait))).sorted())
        case 87:
            let registered = all.filter { !model.nodes[$0].registrations.isEmpty }
            guard let n = pick(registered), let r = source.choose(model.nodes[n].registrations.count) else { return nil }
            return .unregister(n, registration: r)
        case 88..<94:
            return .update
        case 94..<97:
            guard let v = pickLive(views), let s = setting() else { return nil }
            return .armLayout(v, s)
        case 100..<103 where !full && screens.count < 4:
            guard let d = source.choose(ModelDevices.rows.count), let o = source.choose(4), let c = source.choose(3) else { return nil }
            let extra = c == 0 ? settings() : []
            return extra.map { .newDeviceScreen(d, ModelOrientation(rawValue: o)!, $0) }
        case 103..<108:
            return rotation()
        case 108..<113:
            return resize()
        case 113..<115:
            return readTrait()
        case 115..<117:
            return pickLive(views).map { .setNeedsUpdateProperties($0) }
        default:
            return pickLive(all).map { .updateTraitsIfNeeded($0) }
        }
    }

    /// A sequence of about `length` steps after the prelude, ending with an update.
    static func sequence<S: ModelChoiceSource>(mode: HierarchyMode?, os: Int? = nil, device: Int? = nil, focus: Bool = false,
                                               length: Int, _ source: inout S) -> [ModelOp] {
        var ops = prelude(mode: mode, os: os, device: device)
        if focus {
            // Two subviews below the root's view, each view reading a trait
            // (mostly a size class: what rotations and resizes change).
            ops += [.newView, .addSubview(5, to: 4), .newView, .addSubview(6, to: 5)]
            for v in 4...6 {
                guard let c = source.choose(ModelTraits.definitions.count + 4) else { break }
                let t = c < ModelTraits.definitions.count ? c : [ModelTraits.horizontalSizeClass, ModelTraits.verticalSizeClass][c % 2]
                ops.append(.readTrait(v, trait: t))
            }
            ops.append(.update)
        }
        var model = TraitFlowModel()
        for op in ops where model.outcome(of: op) == .applied { model.apply(op) }
        var attempts = 0
        while ops.count < length && attempts < length * 4 {
            attempts += 1
            guard let op = next(model, focus: focus, &source) else {
                if source.choose(1) == nil { break }   // out of input
                continue
            }
            ops.append(op)
            if model.outcome(of: op) == .applied { model.apply(op) }
        }
        ops.append(.update)
        return ops
    }
}

// MARK: - Running and shrinking

struct ModelFailure {
    /// The steps that were run, the failing one last.
    let steps: [ModelOp]
    let message: String
}

enum ModelRunner {
    /// Runs `ops` on a fresh engine and model; the first difference, if any.
    static func run(_ ops: [ModelOp]) -> ModelFailure? {
        let harness = ModelHarness()
        for (i, op) in ops.enumerated() {
            if let problem = harness.step(op) { return ModelFailure(steps: Array(ops[...i]), message: problem) }
        }
        if let problem = harness.finish() { return ModelFailure(steps: ops, message: problem) }
        return nil
    }

    /// A shorter sequence that still fails: drops chunks of steps, then single
    /// steps, for as long as the failure remains (not necessarily the same message).
    static func shrink(_ failure: ModelFailure, budget: Int = 2_000) -> ModelFailure {
        var best = failure
        var runs = 0
        var chunk = max(1, best.steps.count / 2)
        while runs < budget {
            var i = 0
            var removedAny = false
            while i < best.steps.count && runs < budget {
                var candidate = best.steps
                candidate.removeSubrange(i..<min(i + chunk, candidate.count))
                runs += 1
                if let f = run(candidate) {
                    best = f
                    removedAny = true
                } else {
                    i += chunk
                }
            }
            if chunk > 1 { chunk /= 2 } else if !removedAny { break }
        }
        return best
    }

    static func report(_ f: ModelFailure) -> String {
        "\(f.message)\nsteps (\(f.steps.count)):\n" + f.steps.map { "    \($0)," }.joined(separator: "\n")
    }
}


import TraitEngine

/// The hierarchy every engine case runs on: screen → window scene → window →
/// root view controller → its view, and below that view `views` plain views,
/// each with up to `fanout` subviews, filled breadth-first (depth 5 at 10k,
/// 6 at 100k and 1M with the default fanout of 10), updated once.
final class BenchTree {
    let world = TraitWorld()
    let scene: WindowScene
    let window: Window
    let root: ViewController
    /// The views below the root view, breadth-first: the last ones are the deepest leaves.
    private(set) var views: [View] = []
    /// A custom trait every case changes, and a second one nobody registers for.
    let theme: TraitDefinition
    let density: TraitDefinition
    private var flips = 0

    init(views count: Int, fanout: Int = 10) throws {
        let themes = TraitEnum(name: "BenchTheme", cases: ["standard", "pastel", "bold", "compact", "loose"])
        theme = try TraitDefinition(name: "BenchTheme", valueType: .enumeration(themes), defaultValue: .string("standard"))
        density = try TraitDefinition(name: "BenchDensity", valueType: .integer, defaultValue: .int(0))
        try world.registry.register(theme)
        try world.registry.register(density)

        scene = WindowScene(world: world, screen: world.mainScreen)
        window = Window(world: world)
        window.setWindowScene(scene)
        root = ViewController(world: world)
        try window.setRootViewController(root)
        let rootView = try root.loadViewIfNeeded()

        views.reserveCapacity(count)
        var parentIndex = -1   // -1: the root view
        var childrenOfParent = 0
        while views.count < count {
            let parent = parentIndex < 0 ? rootView : views[parentIndex]
            let v = View(world: world)
            try parent.addSubview(v)
            views.append(v)
            childrenOfParent += 1
            if childrenOfParent == fanout {
                parentIndex += 1
                childrenOfParent = 0
            }
        }
        try world.update()
    }

    /// A leaf at the deepest level.
    var leaf: View { views[views.count - 1] }

    /// The next value for an override at the scene, different from the
    /// previous one, so every call is a real change.
    func nextTheme() -> TraitValue {
        flips += 1
        return .string(flips % 2 == 0 ? "pastel" : "bold")
    }

    /// The same for an override at a leaf, never equal to what the scene sets,
    /// so the leaf always gets a collection of its own.
    func nextLeafTheme() -> TraitValue {
        flips += 1
        return .string(flips % 2 == 0 ? "compact" : "loose")
    }

    func nextDensity() -> TraitValue {
        flips += 1
        return .int(flips)
    }
}

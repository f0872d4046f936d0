import TraitEngine

// The engine's cases, in Swift with no Lua involved: propagation, dispatch
// and memory. Each returns its figures; main.swift prints them and judges them.

/// The code whose instructions `scripts/bench-callgrind.sh` counts
/// (`--toggle-collect='*measuredRegion*'`): everything `body` runs, and only that.
@inline(never)
func measuredRegion(_ body: () throws -> Void) rethrows {
    try body()
}

// MARK: - Propagation

struct PropagationFigures {
    let views: Int
    /// Seconds per update (best of the runs).
    var rootChange = 0.0
    var leafChange = 0.0
    var idleUpdate = 0.0
    /// `TraitCollection.createdCount` deltas for one update.
    var collectionsPerRootChange = 0
    var collectionsPerLeafChange = 0
    /// Environments the leaf change visited (the path from the screen down).
    var leafChangeVisited = 0
    /// Checks: the root change reached the deepest leaf; the leaf change
    /// updated exactly one collection.
    var rootReachedLeaf = true
    var leafChangedOnlyLeaf = true
}

/// The three propagation cases on one tree of `views` views, `iterations` each.
func measurePropagation(views: Int, iterations: Int) throws -> PropagationFigures {
    let tree = try BenchTree(views: views)
    var f = PropagationFigures(views: views)

    var samples: [Double] = []
    for _ in 0..<iterations {
        let value = tree.nextTheme()
        try tree.scene.setTraitOverride(tree.theme, value)
        let created = TraitCollection.createdCount
        samples.append(try seconds { try tree.world.update() })
        f.collectionsPerRootChange = TraitCollection.createdCount - created
        if tree.leaf.traitCollection[tree.theme] != value { f.rootReachedLeaf = false }
    }
    f.rootChange = best(samples)

    samples = []
    for _ in 0..<max(iterations, 20) {
        try tree.leaf.setTraitOverride(tree.theme, tree.nextLeafTheme())
        let created = TraitCollection.createdCount
        let updated = tree.world.stats.traitUpdates
        samples.append(try seconds { try tree.world.update() })
        f.collectionsPerLeafChange = TraitCollection.createdCount - created
        f.leafChangeVisited = tree.world.stats.lastUpdateVisited
        if tree.world.stats.traitUpdates - updated != 1 { f.leafChangedOnlyLeaf = false }
    }
    f.leafChange = best(samples)

    // An idle update is a few nanoseconds: time batches, not single calls.
    let batch = 10_000
    samples = []
    for _ in 0..<max(iterations, 5) {
        samples.append(try seconds { for _ in 0..<batch { try tree.world.update() } } / Double(batch))
    }
    f.idleUpdate = best(samples)
    return f
}

/// One propagation case alone, for instruction counts under callgrind.
/// Returns seconds per iteration.
func runSingleCase(_ name: String, views: Int, iterations: Int) throws -> Double {
    // The Swift-built counterparts of lua-root-change-registration and -layout.
    if name.hasPrefix("root-change-"), let variant = TreeVariant(rawValue: String(name.dropFirst("root-change-".count))) {
        let tree = try SwiftTree(views: views, variant: variant)
        var s = 0.0
        for _ in 0..<iterations {
            try measuredRegion {
                let r = try tree.change()
                guard r.reached, r.callbacks == views else { throw TraitError("the change did not do its work") }
                s += r.seconds
            }
        }
        return s / Double(iterations)
    }
    let tree = try BenchTree(views: views)
    let body: () throws -> Void
    switch name {
    case "root-change":
        body = { try tree.scene.setTraitOverride(tree.theme, tree.nextTheme()); try tree.world.update() }
    case "leaf-change":
        body = { try tree.leaf.setTraitOverride(tree.theme, tree.nextLeafTheme()); try tree.world.update() }
    case "idle-update":
        body = { try tree.world.update() }
    default:
        throw TraitError("unknown case '\(name)' (root-change, root-change-registration, root-change-layout, leaf-change, idle-update, memory)")
    }
    let start = now()
    for _ in 0..<iterations { try measuredRegion(body) }
    return (now() - start) / Double(iterations)
}

// MARK: - Dispatch

struct DispatchFigures {
    let views: Int
    var otherTraitSeconds = 0.0
    var otherTraitHandlers = 0
    var registeredTraitSeconds = 0.0
    var registeredTraitHandlers = 0
}

/// Every view registers a handler for one trait; a change to another trait
/// must call none of them, a change to that trait each exactly once.
func measureDispatch(views: Int) throws -> DispatchFigures {
    let tree = try BenchTree(views: views)
    var f = DispatchFigures(views: views)
    var called = 0
    for v in tree.views {
        try v.registerForTraitChanges([tree.theme]) { _, _ in called += 1 }
    }
    try tree.scene.setTraitOverride(tree.density, tree.nextDensity())
    f.otherTraitSeconds = try seconds { try tree.world.update() }
    f.otherTraitHandlers = called

    called = 0
    try tree.scene.setTraitOverride(tree.theme, tree.nextTheme())
    f.registeredTraitSeconds = try seconds { try tree.world.update() }
    f.registeredTraitHandlers = called
    return f
}

// MARK: - Memory

/// Peak resident bytes per view for a tree of `views` views after its first
/// update and one root change. Meant for a fresh process (`--case memory`),
/// where nothing else has touched the heap.
func measureMemory(views: Int) throws -> Double {
    resetPeakResident()
    let before = procStatusBytes("VmHWM") ?? 0
    let tree = try BenchTree(views: views)
    try tree.scene.setTraitOverride(tree.theme, tree.nextTheme())
    try tree.world.update()
    let after = procStatusBytes("VmHWM") ?? 0
    return withExtendedLifetime(tree) { Double(after - before) / Double(views) }
}

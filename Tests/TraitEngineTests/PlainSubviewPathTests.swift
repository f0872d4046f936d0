@testable import TraitEngine
import XCTest

/// The update's fast path for plain subviews (`TraitWorld.enterPlainSubview`,
/// docs/performance.md "Engine instructions per view (issue 14, third round)")
/// must do exactly what the general path (`updateOwnTraits` and `enter`) does.
/// A world with a tracer set never takes the fast path, so two worlds built and
/// changed alike, one of them traced, must agree on every collection, every
/// recorded previous collection, every pending mark, the stats and the order
/// of every callback. The trees mix plain views with what leaves the fast path
/// (overrides, registrations, a Swift subclass overriding
/// `traitCollectionDidChange`, child controllers' views, a handler that moves
/// views during the update) so that the two paths alternate within one frame.
final class PlainSubviewPathTests: XCTestCase {
    private final class Twin {
        let stage: Stage
        let journal = Journal()
        var views: [View] = []
        let theme: TraitDefinition

        init(traced: Bool, seed: UInt64) throws {
            stage = try Stage()
            let world = stage.world
            world.recordsRecentChanges = true
            if traced { world.tracer = { _ in } }
            theme = try makeTrait("PathTheme", .enumeration(themeEnum), default: .string("standard"))
            try world.registry.register(theme)
            var rng = SeededGenerator(seed: seed)
            for k in 0..<80 {
                let parents = [stage.rootView] + views
                let parent = parents[Int.random(in: 0..<parents.count, using: &rng)]
                let kind = Int.random(in: 0..<10, using: &rng)
                let v: View
                switch kind {
                case 0:
                    v = RecordingView(world: world, journal: journal, name: "v\(k)")
                case 1:
                    let vc = ViewController(world: world)
                    try stage.root.addChild(vc)
                    v = try vc.loadViewIfNeeded()
                default:
                    v = View(world: world)
                }
                v.name = "v\(k)"
                try parent.addSubview(v)
                if kind == 2 {
                    try v.registerForTraitChanges([theme]) { [journal] env, _ in journal.record("\(env.name!).handler") }
                }
                if kind == 3 { try v.setTraitOverride(theme, .string("monochrome")) }
                views.append(v)
            }
            // A handler that moves a view during updates: it leaves its
            // superview (whose frame still lists it) and comes back later.
            let mover = views[5], moved = views[40]
            // Weak references: `views` keeps every view alive, and a strong
            // capture would make a cycle through the tree (mover -> its
            // registration -> moved's old superview -> ... -> mover) that
            // keeps the world alive after the test (LeakSanitizer).
            final class Home { weak var view: View? }
            let home = Home()
            try mover.registerForTraitChanges([theme]) { [journal, weak moved] _, _ in
                guard let moved else { return }
                if let s = moved.superview {
                    home.view = s
                    moved.removeFromSuperview()
                    journal.record("moved.out")
                } else if let h = home.view {
                    try h.addSubview(moved)
                    journal.record("moved.in")
                }
            }
            try world.update()
        }

        /// One round of changes, the same for both twins given the same generator.
        func change(_ rng: inout SeededGenerator) throws {
            let values: [TraitValue] = [.string("standard"), .string("pastel"), .string("bold"), .string("monochrome")]
            try stage.scene.setTraitOverride(theme, values[Int.random(in: 0..<4, using: &rng)])
            if Bool.random(using: &rng) {
                try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string(Bool.random(using: &rng) ? "dark" : "light"))
            }
            let v = views[Int.random(in: 0..<views.count, using: &rng)]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: try v.setTraitOverride(theme, values[Int.random(in: 0..<4, using: &rng)])
            case 1: v.removeTraitOverride(theme)
            default: break
            }
            try stage.world.update()
        }
    }

    private func assertSame(_ a: Twin, _ b: Twin, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.views, b.views) {
            let what = "\(x.name!) \(context)"
            // Each twin has its own theme definition: compare what the collections show.
            XCTAssertEqual(x.traitCollection.description, y.traitCollection.description, what, file: file, line: line)
            XCTAssertEqual(x.traitCollectionBeforeLastUpdate?.description, y.traitCollectionBeforeLastUpdate?.description,
                           what, file: file, line: line)
            XCTAssertEqual(x.traitsChangedInLastUpdate.map(\.name), y.traitsChangedInLastUpdate.map(\.name), what,
                           file: file, line: line)
            XCTAssertEqual(x.pending.rawValue, y.pending.rawValue, what, file: file, line: line)
            XCTAssertEqual(x.superview?.name, y.superview?.name, what, file: file, line: line)
        }
        let s = a.stage.world.stats, t = b.stage.world.stats
        XCTAssertEqual(s, t, context, file: file, line: line)
        XCTAssertEqual(a.journal.entries, b.journal.entries, context, file: file, line: line)
    }

    func testTheFastPathDoesWhatTheGeneralPathDoes() throws {
        for seed in [1, 7, 42, 2024] as [UInt64] {
            let fast = try Twin(traced: false, seed: seed)
            let general = try Twin(traced: true, seed: seed)
            assertSame(fast, general, "seed \(seed) after building")
            var rngA = SeededGenerator(seed: seed &* 31), rngB = SeededGenerator(seed: seed &* 31)
            for round in 1...40 {
                try fast.change(&rngA)
                try general.change(&rngB)
                assertSame(fast, general, "seed \(seed) round \(round)")
            }
            // The runs did take both paths: most environments changed more than once.
            XCTAssertGreaterThan(fast.stage.world.stats.traitUpdates, 40 * fast.views.count / 2)
        }
    }

    /// `ui.trace` turned on by a callback during an update traces every change
    /// after it in that update: the plain views after the callback's view leave
    /// the fast path, which traces nothing.
    func testATracerSetDuringAnUpdateSeesTheRestOfIt() throws {
        let stage = try Stage()
        let world = stage.world
        let theme = try makeTrait("TracedTheme", .enumeration(themeEnum), default: .string("standard"))
        try world.registry.register(theme)
        let first = try stage.addView("first", to: stage.rootView)
        var expected: [String] = []
        for k in 1...3 {
            let v = try stage.addView("p\(k)", to: stage.rootView)
            try stage.addView("p\(k).child", to: v)
            expected += ["p\(k)", "p\(k).child"]
        }
        try world.update()
        var traced: [String] = []
        try first.registerForTraitChanges([theme]) { [weak world] _, _ in
            world?.tracer = { event in
                if case .traitsChanged(let env, _) = event { traced.append(env.name ?? "?") }
            }
        }
        try stage.scene.setTraitOverride(theme, .string("bold"))
        try world.update()
        XCTAssertEqual(traced, expected)
    }

    /// A chain far deeper than the traversal's first stack allocation: every
    /// level is entered on the fast path and pushes a frame.
    func testADeepPlainChainUpdatesToItsLeaf() throws {
        let stage = try Stage()
        let theme = try makeTrait("ChainTheme", .enumeration(themeEnum), default: .string("standard"))
        try stage.world.registry.register(theme)
        var last = stage.rootView
        for _ in 0..<3000 {
            let v = View(world: stage.world)
            try last.addSubview(v)
            last = v
        }
        try stage.world.update()
        let before = stage.world.stats.traitUpdates
        try stage.scene.setTraitOverride(theme, .string("bold"))
        try stage.world.update()
        XCTAssertEqual(last.traitCollection[theme], .string("bold"))
        // The scene, window, root controller, its view and the chain.
        XCTAssertEqual(stage.world.stats.traitUpdates - before, 4 + 3000)
        XCTAssertFalse(last.needsTraitUpdate)
    }
}

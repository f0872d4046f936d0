@testable import TraitEngine
import XCTest

/// The update's fast path for plain subviews (`TraitWorld.enterPlainSubview`,
/// docs/performance.md, "History": a fast path for plain subviews)
/// must do exactly what the general path (`updateOwnTraits` and `enter`) does.
/// A world with a tracer set never takes the fast path, so two worlds built and
/// changed alike, one of them traced, must agree on every collection, every
/// recorded previous collection, every pending mark, the stats and the order
/// of every callback. The trees mix plain views with what leaves the fast path
/// (overrides, registrations, a Swift subclass overriding
/// `traitCollectionDidChange`, child controllers' views, a handler that moves
/// views during the update) so that the two paths alternate within one frame.
final class PlainSubviewPathTests: XCTestCase {
    private final class Twin: TwinWorld {
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
                let (v, kind) = try addRandomView(k, kinds: 10, to: stage, views: views, journal: journal, using: &rng)
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

    /// What both twins' views must agree on. Each twin has its own theme
    /// definition: compare what the collections show.
    private func assertSameView(_ x: View, _ y: View, _ what: String, file: StaticString, line: UInt) {
        XCTAssertEqual(x.traitCollection.description, y.traitCollection.description, what, file: file, line: line)
        XCTAssertEqual(x.traitCollectionBeforeLastUpdate?.description, y.traitCollectionBeforeLastUpdate?.description,
                       what, file: file, line: line)
        XCTAssertEqual(x.traitsChangedInLastUpdate.map(\.name), y.traitsChangedInLastUpdate.map(\.name), what,
                       file: file, line: line)
        XCTAssertEqual(x.pending.rawValue, y.pending.rawValue, what, file: file, line: line)
        XCTAssertEqual(x.superview?.name, y.superview?.name, what, file: file, line: line)
    }

    private func assertSame(_ a: Twin, _ b: Twin, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.views, b.views) {
            assertSameView(x, y, "\(x.name!) \(context)", file: file, line: line)
        }
        let s = a.stage.world.stats, t = b.stage.world.stats
        XCTAssertEqual(s, t, context, file: file, line: line)
        XCTAssertEqual(a.journal.entries, b.journal.entries, context, file: file, line: line)
    }

    /// Builds the twins of each seed, untraced (fast) and traced (general),
    /// and changes them alike for 40 rounds, comparing them with `same` after
    /// building and after each round (stopping at the first round whose
    /// journals differ: `same` reported it); `done` gets the fast twin of
    /// each seed at the end.
    private func runTwins<T: TwinWorld>(_ type: T.Type, seeds: [UInt64], changeSeed: UInt64,
                                        same: (T, T, String) -> Void, done: (T) -> Void) throws {
        for seed in seeds {
            let fast = try T(traced: false, seed: seed)
            let general = try T(traced: true, seed: seed)
            same(fast, general, "seed \(seed) after building")
            var rngA = SeededGenerator(seed: seed &* changeSeed), rngB = SeededGenerator(seed: seed &* changeSeed)
            for round in 1...40 {
                try fast.change(&rngA)
                try general.change(&rngB)
                same(fast, general, "seed \(seed) round \(round)")
                if fast.journal.entries != general.journal.entries { return }
            }
            done(fast)
        }
    }

    func testTheFastPathDoesWhatTheGeneralPathDoes() throws {
        try runTwins(Twin.self, seeds: [1, 7, 42, 2024], changeSeed: 31, same: { assertSame($0, $1, $2) }) { fast in
            // The runs did take both paths: most environments changed more than once.
            XCTAssertGreaterThan(fast.stage.world.stats.traitUpdates, 40 * fast.views.count / 2)
        }
    }

    /// Views whose only non-plain feature is their registrations take the
    /// fast path too (docs/performance.md, "History"), their callbacks run there.
    /// UIKit's semantics, which both paths must give in the same order: a
    /// registration's handler runs after the environment has its new
    /// collection, with the previous one, only when one of its traits
    /// changed, parents before children (WWDC23 "Unleash the UIKit trait
    /// system"; `registerForTraitChanges(_:handler:)` docs); a handler may
    /// change anything (the hierarchy, overrides, registrations) and what it
    /// marks is seen in the same update. Here most views have registrations,
    /// several per view, on one trait or on two, whose handlers (drawn from a
    /// generator the twins share, so that the same call makes the same move)
    /// move, remove and re-add views (the handler's own included), set and
    /// remove overrides, unregister themselves or others, end themselves by
    /// returning false, register more, mark layout and display, and throw.
    /// Each call records the stats as the handler sees them.
    private final class RegisteredTwin: TwinWorld {
        let stage: Stage
        let journal = Journal()
        var views: [View] = []
        var detached: [View] = []
        var tokens: [(view: View, registration: TraitChangeRegistration)] = []
        let theme: TraitDefinition
        var rng: SeededGenerator

        init(traced: Bool, seed: UInt64) throws {
            stage = try Stage()
            rng = SeededGenerator(seed: seed &+ 5)
            let world = stage.world
            // Both settings: the fast path records recent changes as the general one does.
            world.recordsRecentChanges = seed % 2 == 1
            if traced { world.tracer = { _ in } }
            theme = try makeTrait("RegisteredTheme", .enumeration(themeEnum), default: .string("standard"))
            try world.registry.register(theme)
            var shape = SeededGenerator(seed: seed)
            for k in 0..<80 {
                let (v, kind) = try addRandomView(k, kinds: 12, to: stage, views: views, journal: journal, using: &shape)
                switch kind {
                case 0, 2, 3: try register(v, [theme], "a")
                case 4:
                    try register(v, [theme], "a")
                    try register(v, [theme, Sys.userInterfaceStyle], "b")
                    try register(v, [Sys.userInterfaceStyle], "c")
                case 5:
                    try register(v, [Sys.userInterfaceStyle, theme], "b")
                case 6:
                    try register(v, [theme], "a")
                    try v.setTraitOverride(Sys.userInterfaceLevel, .string("elevated"))
                case 7: try v.setTraitOverride(theme, .string("monochrome"))
                default: break
                }
                views.append(v)
            }
            do { try world.update() } catch { journal.record("first update threw \(error)") }
        }

        func register(_ v: View, _ traits: [TraitDefinition], _ tag: String) throws {
            // Weak: the twin holds the views, which hold their registrations.
            let r = try v.addTraitChangeRegistration(for: traits) { [weak self] env, previous in
                guard let self else { return false }
                return try self.handle(unsafeDowncast(env, to: View.self), tag, previous)
            }
            tokens.append((v, r))
        }

        private func pick() -> View { views[Int.random(in: 0..<views.count, using: &rng)] }

        private func handle(_ v: View, _ tag: String, _ previous: TraitCollection) throws -> Bool {
            let st = stage.world.stats
            journal.record("\(v.name!).\(tag) \(previous[theme]) -> \(v.traitCollection[theme]) "
                           + "\(previous[Sys.userInterfaceStyle]) -> \(v.traitCollection[Sys.userInterfaceStyle]) "
                           + "visited \(st.environmentsVisited) last \(st.lastUpdateVisited) "
                           + "updates \(st.traitUpdates) handlers \(st.handlersCalled) pending \(v.pending.rawValue)")
            let values: [TraitValue] = [.string("standard"), .string("pastel"), .string("bold"), .string("monochrome")]
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<6:
                // Remove a view (this one, one of its ancestors or a later sibling, perhaps).
                let x = Bool.random(using: &rng) ? v : pick()
                if x.superview != nil {
                    x.removeFromSuperview()
                    detached.append(x)
                    journal.record("removed \(x.name!)")
                }
            case 6..<12:
                if !detached.isEmpty {
                    let x = detached.removeFirst()
                    let p = Bool.random(using: &rng) ? v : pick()
                    do {
                        try p.addSubview(x)
                        journal.record("added \(x.name!) to \(p.name!)")
                    } catch {
                        detached.append(x)
                        journal.record("refused \(x.name!) under \(p.name!)")
                    }
                }
            case 12..<18:
                // Move a view below this one: the frame about to be made lists it.
                let x = pick()
                do {
                    try v.addSubview(x)
                    detached.removeAll { $0 === x }
                    journal.record("moved \(x.name!) to \(v.name!)")
                } catch {
                    journal.record("refused \(x.name!) under \(v.name!)")
                }
            case 18..<26:
                let x = Bool.random(using: &rng) ? v : pick()
                try x.setTraitOverride(theme, values[Int.random(in: 0..<4, using: &rng)])
            case 26..<32:
                let x = Bool.random(using: &rng) ? v : pick()
                x.removeTraitOverride(theme)
            case 32..<38:
                // Unregister a registration (this one, another of this view, or elsewhere).
                if !tokens.isEmpty {
                    let t = tokens.remove(at: Int.random(in: 0..<tokens.count, using: &rng))
                    t.view.unregisterForTraitChanges(t.registration)
                    journal.record("unregistered one of \(t.view.name!)")
                }
            case 38..<42:
                journal.record("\(v.name!).\(tag) ends")
                return false
            case 42..<45:
                throw TraitError("\(v.name!).\(tag) failed")
            case 45..<51:
                if tokens.count < 300 {
                    let x = Bool.random(using: &rng) ? v : pick()
                    try register(x, Bool.random(using: &rng) ? [theme] : [theme, Sys.userInterfaceStyle], "n")
                }
            case 51..<55: v.setNeedsLayout()
            case 55..<58: v.setNeedsDisplay()
            default: break
            }
            return true
        }

        func change(_ rng: inout SeededGenerator) throws {
            let values: [TraitValue] = [.string("standard"), .string("pastel"), .string("bold"), .string("monochrome")]
            try stage.scene.setTraitOverride(theme, values[Int.random(in: 0..<4, using: &rng)])
            if Bool.random(using: &rng) {
                try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string(Bool.random(using: &rng) ? "dark" : "light"))
            }
            do {
                try stage.world.update()
                journal.record("updated")
            } catch {
                journal.record("update threw \(error)")
            }
        }
    }

    private func assertSame(_ a: RegisteredTwin, _ b: RegisteredTwin, _ context: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.views, b.views) {
            let what = "\(x.name!) \(context)"
            assertSameView(x, y, what, file: file, line: line)
            XCTAssertEqual(x.subviews.map(\.name), y.subviews.map(\.name), what, file: file, line: line)
            XCTAssertEqual(x.activeRegistrationCount, y.activeRegistrationCount, what, file: file, line: line)
        }
        XCTAssertEqual(a.stage.world.stats, b.stage.world.stats, context, file: file, line: line)
        XCTAssertEqual(a.journal.entries, b.journal.entries, context, file: file, line: line)
    }

    func testRegisteredViewsOnTheFastPathDoWhatTheGeneralPathDoes() throws {
        var threw = 0, handled = 0, seeds = 0
        try runTwins(RegisteredTwin.self, seeds: [3, 10, 99, 4096], changeSeed: 17, same: { assertSame($0, $1, $2) }) { fast in
            threw += fast.journal.entries.filter { $0.hasPrefix("update threw") }.count
            handled += fast.stage.world.stats.handlersCalled
            seeds += 1
        }
        guard seeds == 4 else { return }   // (a difference was reported)
        // The runs did exercise the handlers' moves, failures included.
        XCTAssertGreaterThan(threw, 10)
        XCTAssertGreaterThan(handled, 1000)
    }

    /// Registered leaves between plain siblings (the fast path's case): each
    /// handler runs once, with its view's previous collection and its new
    /// one, and sees the stats counted up to it (`registerForTraitChanges`
    /// docs: the handler receives the environment and the previous collection).
    func testARegisteredLeafAfterPlainSiblingsSeesItsOwnChange() throws {
        let stage = try Stage()
        let theme = try makeTrait("LeafTheme", .enumeration(themeEnum), default: .string("standard"))
        try stage.world.registry.register(theme)
        let parent = try stage.addView("parent", to: stage.rootView)
        var seen: [String] = []
        for k in 0..<4 {
            let v = try stage.addView("c\(k)", to: parent)
            if k % 2 == 1 {
                try v.registerForTraitChanges([theme]) { [weak world = stage.world] env, previous in
                    seen.append("\(env.name!) \(previous[theme]) -> \(env.traitCollection[theme]) "
                                + "handlers so far \(world?.stats.handlersCalled ?? -1)")
                }
            }
        }
        try stage.world.update()
        try stage.scene.setTraitOverride(theme, .string("bold"))
        try stage.world.update()
        XCTAssertEqual(seen, ["c1 string(\"standard\") -> string(\"bold\") handlers so far 1",
                              "c3 string(\"standard\") -> string(\"bold\") handlers so far 2"])
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

/// Adds view number `k` of a twin's tree under a parent drawn from `rng` (the
/// root view or an earlier view), of a kind drawn from `0..<kinds`: 0 a
/// `RecordingView`, 1 a child controller's view, any other a plain view (the
/// caller gives the kinds above 1 their registrations and overrides).
private func addRandomView(_ k: Int, kinds: Int, to stage: Stage, views: [View], journal: Journal,
                           using rng: inout SeededGenerator) throws -> (View, Int) {
    let parents = [stage.rootView] + views
    let parent = parents[Int.random(in: 0..<parents.count, using: &rng)]
    let kind = Int.random(in: 0..<kinds, using: &rng)
    let world = stage.world
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
    return (v, kind)
}

/// What ``PlainSubviewPathTests``'s twin runs need of a twin world.
private protocol TwinWorld {
    var journal: Journal { get }
    init(traced: Bool, seed: UInt64) throws
    func change(_ rng: inout SeededGenerator) throws
}

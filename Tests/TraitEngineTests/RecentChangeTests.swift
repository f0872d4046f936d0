@testable import TraitEngine
import XCTest

/// What dumps and pictures mark as "changed in the last update", and freeing
/// trees far deeper than the thread's stack.
final class RecentChangeTests: XCTestCase {
    func testTheLastUpdateRemembersWhatChangedAndWhatItWas() throws {
        let stage = try Stage()
        stage.world.recordsRecentChanges = true
        let card = View(world: stage.world)
        try stage.rootView.addSubview(card)
        try stage.world.update()
        // Its first collection is not a change (everything was "unspecified").
        XCTAssertEqual(card.traitsChangedInLastUpdate.map(\.property), [])
        XCTAssertNil(card.traitCollectionBeforeLastUpdate)
        try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try stage.world.update()
        XCTAssertEqual(card.traitsChangedInLastUpdate.map(\.property), ["userInterfaceStyle"])
        XCTAssertEqual(card.traitCollectionBeforeLastUpdate?[Sys.userInterfaceStyle], .string("light"))
        // An update that changes something else clears the marks here.
        try card.setTraitOverride(Sys.horizontalSizeClass, .string("regular"))
        try stage.world.update()
        XCTAssertEqual(card.traitsChangedInLastUpdate.map(\.property), ["horizontalSizeClass"])
        XCTAssertEqual(stage.rootView.traitsChangedInLastUpdate.map(\.property), [])
        // An update with nothing to do keeps them.
        try stage.world.update()
        XCTAssertEqual(card.traitsChangedInLastUpdate.map(\.property), ["horizontalSizeClass"])
    }

    func testAValueChangedAndChangedBackInOneUpdateIsNotMarked() throws {
        let stage = try Stage()
        stage.world.recordsRecentChanges = true
        try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try stage.rootView.updateTraitsIfNeeded()   // its own trait update
        XCTAssertEqual(stage.rootView.traitsChangedInLastUpdate.map(\.property), ["userInterfaceStyle"])
        try stage.world.update()
        try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string("light"))
        // Weak: the registration is held by the tree, which the scene holds.
        try stage.root.registerForTraitChanges([Sys.userInterfaceStyle]) { [weak scene = stage.scene] env, _ in
            if env.traitCollection[Sys.userInterfaceStyle] == .string("light") {
                try scene?.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
            }
        }
        try stage.world.update()   // light, then dark again in a second pass
        XCTAssertEqual(stage.rootView.traitsChangedInLastUpdate.map(\.property), [])
    }

    /// The previous collection is not retained by the environment: the world
    /// keeps what the current update replaced. Replaced collections whose only
    /// owner was the environment must still read back whole in that update,
    /// over many updates and with collections freed in between (ASan checks
    /// the reads in `scripts/test-asan.sh`).
    func testPreviousCollectionsOutliveTheUpdateThatReplacedThem() throws {
        let stage = try Stage()
        stage.world.recordsRecentChanges = true
        let cards = (0..<20).map { _ in View(world: stage.world) }
        for c in cards { try stage.rootView.addSubview(c) }
        try stage.world.update()
        for round in 1...30 {
            // Each card gets its own collection (an override), replaced every round.
            for (i, c) in cards.enumerated() { try c.setTraitOverride(Sys.displayScale, .number(Double(round * 100 + i))) }
            try stage.world.update()
            for (i, c) in cards.enumerated() {
                let before = try XCTUnwrap(c.traitCollectionBeforeLastUpdate)
                let expected: TraitValue = round == 1 ? stage.rootView.traitCollection[Sys.displayScale] : .number(Double((round - 1) * 100 + i))
                XCTAssertEqual(before[Sys.displayScale], expected)
                XCTAssertEqual(c.traitsChangedInLastUpdate.map(\.property), ["displayScale"])
            }
            // An update changing only the first card: the others' marks go.
            try cards[0].setTraitOverride(Sys.userInterfaceStyle, .string(round % 2 == 1 ? "dark" : "light"))
            try stage.world.update()
            XCTAssertNotNil(cards[0].traitCollectionBeforeLastUpdate)
            for c in cards.dropFirst() { XCTAssertNil(c.traitCollectionBeforeLastUpdate) }
        }
    }

    func testWithoutRecordingNothingIsMarked() throws {
        let stage = try Stage()
        try stage.scene.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try stage.world.update()
        XCTAssertEqual(stage.rootView.traitsChangedInLastUpdate.map(\.property), [])
    }

    func testFreeingAChainFarDeeperThanTheStackDoesNotRecurse() {
        let world = TraitWorld()
        var top = View(world: world)
        for _ in 0..<200_000 {
            let parent = View(world: world)
            try? parent.addSubview(top)
            top = parent
        }
        XCTAssertEqual(world.stats.environments, 200_001)
        top = View(world: world)
        XCTAssertEqual(world.stats.environments, 1)
    }

    func testFreeingDeepChainsOfControllersAndPresentationsDoesNotRecurse() throws {
        let world = TraitWorld()
        var child = ViewController(world: world)
        for _ in 0..<100_000 {
            let parent = ViewController(world: world)
            try parent.addChild(child)
            child = parent
        }
        var presented = ViewController(world: world)
        for _ in 0..<50_000 {
            let presenter = ViewController(world: world)
            try presenter.present(presented)
            presented = presenter
        }
        XCTAssertGreaterThan(world.stats.environments, 150_000)
        child = ViewController(world: world)
        presented = ViewController(world: world)
        XCTAssertEqual(world.stats.environments, 2)
    }
}

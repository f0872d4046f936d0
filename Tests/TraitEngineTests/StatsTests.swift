@testable import TraitEngine
import XCTest

/// Instrumentation counters (docs/guide.md, "Dumps, pictures and traces").
final class StatsTests: XCTestCase {
    func testEnvironmentsCountsLiveEnvironments() throws {
        let world = TraitWorld()
        XCTAssertEqual(world.stats.environments, 0)
        do {
            let card = View(world: world)
            try card.addSubview(View(world: world))
            XCTAssertEqual(world.stats.environments, 2)
        }
        XCTAssertEqual(world.stats.environments, 0, "the view and its subview were freed")
    }

    func testAViewControllerTreeIsFreedWithItsRoot() throws {
        let world = TraitWorld()
        do {
            let parent = ViewController(world: world)
            let child = ViewController(world: world)
            try parent.addChild(child)
            try parent.loadViewIfNeeded().addSubview(child.loadViewIfNeeded())
            try parent.present(ViewController(world: world))
            // parent, its view, child, its view, presentation controller, presented and its view
            XCTAssertEqual(world.stats.environments, 7)
        }
        XCTAssertEqual(world.stats.environments, 0)
    }

    func testARegistrationDoesNotKeepItsEnvironmentAlive() throws {
        let world = TraitWorld()
        weak var weakView: View?
        do {
            let view = View(world: world)
            weakView = view
            try view.registerForTraitChanges([Sys.userInterfaceStyle]) { env, _ in (env as? View)?.setNeedsLayout() }
        }
        XCTAssertNil(weakView)
        XCTAssertEqual(world.stats.environments, 0)
    }

    func testADisconnectedSceneIsFreedWithEverythingInIt() throws {
        let world = TraitWorld()
        do {
            let screen = Screen(world: world, traits: phoneTraits)
            let scene = WindowScene(world: world, screen: screen)
            let window = Window(world: world)
            window.setWindowScene(scene)
            try window.setRootViewController(ViewController(world: world))
            try world.update()
            XCTAssertEqual(world.stats.environments, 5, "screen, scene, window, root and its view")
            scene.disconnect()
            try world.update()
        }
        XCTAssertEqual(world.stats.environments, 0)
    }

    func testAViewRemovedFromTheTreeIsFreedWhenNothingElseHoldsIt() throws {
        let s = try Stage()
        let count = s.world.stats.environments
        weak var weakCard: View?
        do {
            let card = View(world: s.world)
            weakCard = card
            try s.rootView.addSubview(card)
        }
        try s.world.update()
        XCTAssertNotNil(weakCard, "the tree holds it")
        XCTAssertEqual(s.world.stats.environments, count + 1)
        weakCard?.removeFromSuperview()
        try s.world.update()
        XCTAssertNil(weakCard)
        XCTAssertEqual(s.world.stats.environments, count)
    }

    func testTraitUpdatesCountsEnvironmentsWhoseCollectionChanged() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        try s.world.update()
        let before = s.world.stats.traitUpdates
        try card.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try s.world.update()
        XCTAssertEqual(s.world.stats.traitUpdates, before + 1)
        s.screen.setTraits { $0[Sys.displayScale] = .number(2) }
        try s.world.update()
        XCTAssertEqual(s.world.stats.traitUpdates, before + 1 + 6, "screen, scene, window, root, root view and card")
    }
}

@testable import TraitEngine
import XCTest

/// Deferred updates, dirty-subtree propagation, tracked reads and failures (docs/guide.md, "The update cycle").
final class UpdateCycleTests: XCTestCase {
    private let theme = try! makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))

    func testTraitCollectionKeepsThePreviousValueUntilTheNextUpdate() throws {
        let s = try Stage()
        let before = s.rootView.traitCollection
        try s.rootView.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        s.screen.setTraits { $0[Sys.horizontalSizeClass] = .string("regular") }
        XCTAssertTrue(s.world.needsUpdate)
        XCTAssertTrue(s.rootView.traitCollection === before)
        XCTAssertTrue(s.screen.traitCollection === phoneTraits, "device traits are deferred too")
        try s.world.update()
        XCTAssertFalse(s.world.needsUpdate)
        XCTAssertEqual(s.rootView.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(s.rootView.traitCollection[Sys.horizontalSizeClass], .string("regular"))
    }

    func testAnUpdateWithNothingPendingDoesNoWork() throws {
        let s = try Stage()
        let stats = s.world.stats
        try s.world.update()
        XCTAssertEqual(s.world.stats, stats)
    }

    func testAViewOutsideAnyWindowNeverUpdates() throws {
        let s = try Stage()
        let loose = View(world: s.world)
        let inner = View(world: s.world)
        try loose.addSubview(inner)
        try loose.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        try inner.updateTraitsIfNeeded()
        XCTAssertFalse(inner.isInWindowScene)
        // Still the prediction it started with (the main screen's traits).
        XCTAssertTrue(loose.traitCollection === s.world.mainScreen.traitCollection)
        XCTAssertTrue(inner.traitCollection === s.world.mainScreen.traitCollection)
    }

    func testAWindowWithoutASceneNeverUpdates() throws {
        let s = try Stage()
        let window = Window(world: s.world)
        let vc = ViewController(world: s.world)
        try window.setRootViewController(vc)
        try s.world.update()
        XCTAssertTrue(vc.traitCollection === s.world.mainScreen.traitCollection)
        window.setWindowScene(s.scene)
        try s.world.update()
        XCTAssertEqual(vc.viewIfLoaded!.traitCollection, phoneTraits)
    }

    func testADisconnectedSceneStopsUpdating() throws {
        let s = try Stage()
        s.scene.disconnect()
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertFalse(s.rootView.isInWindowScene)
        XCTAssertEqual(s.rootView.traitCollection[Sys.userInterfaceStyle], .string("light"))
    }

    func testUpdateTraitsIfNeededUpdatesOneNodeAndWhatItInheritsFromAtOnce() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        let sibling = try s.addView("sibling", to: s.rootView)
        try s.world.update()
        try s.rootView.setTraitOverride(theme, .string("pastel"))
        try card.updateTraitsIfNeeded()
        XCTAssertEqual(card.traitCollection[theme], .string("pastel"))
        XCTAssertEqual(s.rootView.traitCollection[theme], .string("pastel"))
        XCTAssertEqual(sibling.traitCollection[theme], .string("standard"), "the rest waits for the update")
        XCTAssertTrue(s.world.needsUpdate)
        try s.world.update()
        XCTAssertEqual(sibling.traitCollection[theme], .string("pastel"))
    }

    func testEnvironmentsWithoutOverridesShareTheirParentsCollection() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        let label = try s.addView("label", to: card)
        try card.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        for env: TraitEnvironment in [s.scene, s.window, s.root, s.rootView] {
            XCTAssertTrue(env.traitCollection === s.screen.traitCollection, "\(env)")
        }
        XCTAssertFalse(card.traitCollection === s.rootView.traitCollection)
        XCTAssertTrue(label.traitCollection === card.traitCollection)
    }

    func testAnUpdateVisitsOnlyThePathToWhatChanged() throws {
        let s = try Stage()
        var leaves: [View] = []
        var middles: [View] = []
        for m in 0..<10 {
            let middle = try s.addView("m\(m)", to: s.rootView)
            middles.append(middle)
            for l in 0..<10 { leaves.append(try s.addView("m\(m)l\(l)", to: middle)) }
        }
        try s.world.update()
        try leaves[57].setTraitOverride(theme, .string("bold"))
        try s.world.update()
        // screen, scene, window, root, root view, middle, leaf
        XCTAssertEqual(s.world.stats.lastUpdateVisited, 7)
        XCTAssertEqual(leaves[57].traitCollection[theme], .string("bold"))

        try middles[3].setTraitOverride(theme, .string("pastel"))
        try s.world.update()
        XCTAssertEqual(s.world.stats.lastUpdateVisited, 6 + 10, "a middle view whose value changed revisits its leaves")
        XCTAssertEqual(leaves[30].traitCollection[theme], .string("pastel"))
    }

    func testAnOverrideThatLeavesTheValueUnchangedDoesNotRevisitDescendants() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        for n in 0..<5 { try s.addView("label\(n)", to: card) }
        try s.world.update()
        let before = card.traitCollection
        let updates = s.world.stats.traitUpdates
        try card.setTraitOverride(Sys.userInterfaceStyle, .string("light"))
        try s.world.update()
        XCTAssertTrue(card.traitCollection === before)
        XCTAssertEqual(s.world.stats.lastUpdateVisited, 6, "screen, scene, window, root, root view, card")
        XCTAssertEqual(s.world.stats.traitUpdates, updates)
    }

    func testAnUpdateThatDoesNotSettleStopsWithAnErrorAndTheNextUpdateWorks() throws {
        let s = try Stage()
        let counter = try makeTrait("Counter", .integer, default: .int(0))
        var keepChanging = true
        try s.rootView.registerForTraitChanges([counter]) { env, _ in
            guard keepChanging, case .int(let n) = env.traitCollection[counter] else { return }
            try env.setTraitOverride(counter, .int(n + 1))
        }
        try s.rootView.setTraitOverride(counter, .int(1))
        XCTAssertThrowsError(try s.world.update()) { error in
            XCTAssertTrue(message(of: error).contains("did not settle after 100 passes"), message(of: error))
        }
        keepChanging = false
        try s.world.update()
        XCTAssertFalse(s.world.needsUpdate)
        XCTAssertEqual(s.rootView.traitCollection[counter], s.rootView.traitOverride(counter))
    }

    func testAnErrorFromAHandlerPropagatesAndTheNextUpdateFinishesThePendingWork() throws {
        let s = try Stage()
        let journal = Journal()
        let a = RecordingView(world: s.world, journal: journal, name: "a")
        let b = RecordingView(world: s.world, journal: journal, name: "b")
        try s.rootView.addSubview(a)
        try s.rootView.addSubview(b)
        try s.world.update()
        journal.clear()
        a.failOnce = ["traitCollectionDidChange"]
        try s.rootView.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        XCTAssertThrowsError(try s.world.update()) { XCTAssertEqual($0 as? CallbackFailure, CallbackFailure(callback: "traitCollectionDidChange")) }
        XCTAssertEqual(a.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertTrue(s.world.needsUpdate)
        try s.world.update()
        XCTAssertEqual(b.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(journal.only("traitCollectionDidChange"), ["a.traitCollectionDidChange", "b.traitCollectionDidChange"])
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testAnErrorFromLayoutPropagatesAndTheNextUpdateLaysOutTheRest() throws {
        let s = try Stage()
        let journal = Journal()
        let a = RecordingView(world: s.world, journal: journal, name: "a")
        let b = RecordingView(world: s.world, journal: journal, name: "b")
        try s.rootView.addSubview(a)
        try s.rootView.addSubview(b)
        try s.world.update()
        journal.clear()
        a.failOnce = ["layoutSubviews"]
        a.setNeedsLayout()
        b.setNeedsLayout()
        XCTAssertThrowsError(try s.world.update())
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), ["a.layoutSubviews", "b.layoutSubviews"])
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testCallingUpdateFromInsideAnUpdateIsAnError() throws {
        let s = try Stage()
        var inner: Error?
        try s.rootView.registerForTraitChanges([Sys.userInterfaceStyle], handler: { env, _ in
            do { try env.world.update() } catch { inner = error }
        })
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertEqual(inner.map(message(of:)), "ui.update() cannot be called from inside an update callback")
    }

    func testLayoutRunsAgainWhenATraitItReadChanges() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        card.onLayout = { [theme] v in _ = v.traitCollection[theme] }
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        try s.rootView.setTraitOverride(Sys.horizontalSizeClass, .string("regular"))
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), [], "a trait it did not read")
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), ["card.layoutSubviews"])
    }

    // Automatic trait tracking is iOS 18's (WWDC24 "What's new in UIKit"):
    // reads recorded on 18 invalidate nothing once the world runs iOS 17
    // (found by the model-based test).
    func testReadsRecordedOnIOS18InvalidateNothingOnceTheWorldRunsIOS17() throws {
        let s = try Stage()
        s.world.os = .iOS18
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        card.onLayout = { [theme] v in _ = v.traitCollection[theme] }
        try s.rootView.addSubview(card)
        try s.world.update()
        s.world.os = .iOS17
        try s.world.update()
        journal.clear()
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), [])
    }

    // UIKit: "each view only updates its trait collection immediately before it
    // performs layout" (WWDC23, Unleash the UIKit trait system), and the talk's
    // pattern is a registration whose action is setNeedsLayout: what a view
    // marks on itself while its traits update is done in that same visit, so
    // the update walks the tree once (no second pass along the marked path).
    func testLayoutAViewAsksForWhileItsTraitsUpdateRunsInTheSameWalk() throws {
        let s = try Stage()
        let journal = Journal()
        var leaves: [RecordingView] = []
        for m in 0..<10 {
            let middle = try s.addView("m\(m)", to: s.rootView)
            try middle.registerForTraitChanges([theme], action: .setNeedsLayout)   // the fast path's registered views
            for l in 0..<10 {
                let leaf = RecordingView(world: s.world, journal: journal, name: "m\(m)l\(l)")
                leaf.onLayout = { [theme] v in _ = v.traitCollection[theme] }   // tracked
                try middle.addSubview(leaf)
                leaves.append(leaf)
            }
        }
        try s.world.update()
        journal.clear()
        let (layouts, passes) = (s.world.stats.layouts, s.world.stats.passes)
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews").count, 100, "each leaf once")
        XCTAssertEqual(s.world.stats.layouts - layouts, 110, "each leaf and middle once")
        XCTAssertEqual(s.world.stats.lastUpdateVisited, 5 + 10 + 100, "screen, scene, window, root, root view, middles, leaves: once each")
        XCTAssertEqual(s.world.stats.passes - passes, 1)
        XCTAssertFalse(s.world.needsUpdate)
    }

    // What a view marks on itself once its own step has run still comes back
    // (UIKit runs a layout requested during layoutSubviews in a later pass).
    func testLayoutOrPropertiesAViewAsksForAfterItsOwnStepRunAgain() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        var again = true
        card.onLayout = { v in if again { again = false; v.setNeedsLayout(); v.setNeedsUpdateProperties() } }
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        again = true
        card.setNeedsLayout()
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), ["card.layoutSubviews", "card.layoutSubviews"])
        XCTAssertEqual(journal.only("updateProperties"), ["card.updateProperties"])
        XCTAssertFalse(s.world.needsUpdate)
    }

    // A callback that fails after its view asked for layout leaves the layout
    // for the next update (docs/guide.md, "Errors in callbacks": "the engine stays consistent and
    // the next update finishes the work").
    func testLayoutAskedForBeforeAHandlerFailedRunsInTheNextUpdate() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        let label = try s.addView("label", to: card)
        try s.rootView.addSubview(card)
        var fail = true
        try card.registerForTraitChanges([theme]) { env, _ in
            (env as! View).setNeedsLayout()
            if fail { fail = false; throw CallbackFailure(callback: "handler") }
        }
        try s.world.update()
        journal.clear()
        try s.rootView.setTraitOverride(theme, .string("bold"))
        XCTAssertThrowsError(try s.world.update())
        XCTAssertEqual(journal.only("layoutSubviews"), [])
        XCTAssertTrue(s.world.needsUpdate)
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), ["card.layoutSubviews"])
        XCTAssertEqual(label.traitCollection[theme], .string("bold"))
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testAColorAppearanceChangeRedrawsAndOtherChangesDoNot() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        s.screen.setTraits { $0[Sys.horizontalSizeClass] = .string("regular") }
        try s.world.update()
        XCTAssertEqual(journal.only("draw"), [])
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertEqual(journal.only("draw"), ["card.draw"])
    }

    func testACustomTraitThatAffectsColorAppearanceRedraws() throws {
        let s = try Stage()
        let palette = try makeTrait("Palette", .string, default: .string("warm"), affectsColorAppearance: true)
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        try s.rootView.setTraitOverride(palette, .string("cold"))
        try s.world.update()
        XCTAssertEqual(journal.only("draw"), ["card.draw"])
    }

    func testLayoutIfNeededLaysOutAtOnce() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        try s.rootView.setTraitOverride(theme, .string("bold"))
        card.setNeedsLayout()
        try card.layoutIfNeeded()
        XCTAssertEqual(journal.only("layoutSubviews"), ["card.layoutSubviews"])
        XCTAssertEqual(card.seen["layoutSubviews"]?[theme], .string("bold"), "traits are updated first")
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), ["card.layoutSubviews"], "nothing left to lay out")
    }
}

@testable import TraitEngine
import XCTest

/// registerForTraitChanges and the catch-all callback (docs/guide.md, "Trait change registration").
final class RegistrationTests: XCTestCase {
    private let theme = try! makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))

    func testAHandlerRunsOnlyWhenOneOfItsTraitsChanged() throws {
        let s = try Stage()
        var calls = 0
        try s.rootView.registerForTraitChanges([Sys.horizontalSizeClass, theme]) { _, _ in calls += 1 }
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertEqual(calls, 0)
        try s.rootView.setTraitOverride(Sys.horizontalSizeClass, .string("compact"))
        try s.world.update()
        XCTAssertEqual(calls, 0, "an override equal to the current value changes nothing")
        s.screen.setTraits { t in
            t[Sys.horizontalSizeClass] = .string("regular")
            t[Sys.displayScale] = .number(2)
        }
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(calls, 1, "one call per change of the environment, however many of its traits changed")
    }

    func testAHandlerGetsTheEnvironmentAndThePreviousCollection() throws {
        let s = try Stage()
        var seen: (TraitEnvironment, TraitCollection, TraitCollection)?
        try s.rootView.registerForTraitChanges([Sys.userInterfaceStyle]) { env, previous in
            seen = (env, previous, env.traitCollection)
        }
        let before = s.rootView.traitCollection
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        let (env, previous, current) = try XCTUnwrap(seen)
        XCTAssertTrue(env === s.rootView)
        XCTAssertTrue(previous === before)
        XCTAssertEqual(current[Sys.userInterfaceStyle], .string("dark"))
        seen = nil   // the handler holds `seen`, which held the view: a cycle
    }

    func testAHandlerRunsBeforeTheDescendantsAreUpdated() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        try s.world.update()
        var cardStyle: TraitValue?
        try s.rootView.registerForTraitChanges([Sys.userInterfaceStyle]) { _, _ in cardStyle = card.traitCollection[Sys.userInterfaceStyle] }
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertEqual(cardStyle, .string("light"))
        XCTAssertEqual(card.traitCollection[Sys.userInterfaceStyle], .string("dark"))
    }

    func testUnregisteringStopsDeliveryAndUnregisteringTwiceIsHarmless() throws {
        let s = try Stage()
        var calls = 0
        let token = try s.rootView.registerForTraitChanges([theme]) { _, _ in calls += 1 }
        XCTAssertEqual(s.rootView.activeRegistrationCount, 1)
        s.rootView.unregisterForTraitChanges(token)
        s.rootView.unregisterForTraitChanges(token)
        s.root.unregisterForTraitChanges(token)
        XCTAssertFalse(token.isActive)
        XCTAssertEqual(s.rootView.activeRegistrationCount, 0)
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(calls, 0)
    }

    func testATokenOfAnotherEnvironmentDoesNotUnregister() throws {
        let s = try Stage()
        var calls = 0
        let token = try s.rootView.registerForTraitChanges([theme]) { _, _ in calls += 1 }
        s.root.unregisterForTraitChanges(token)
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertTrue(token.isActive)
        XCTAssertEqual(calls, 1)
    }

    func testAHandlerCanUnregisterAnotherDuringDelivery() throws {
        let s = try Stage()
        var calls: [String] = []
        var second: TraitChangeRegistration?
        try s.rootView.registerForTraitChanges([theme], handler: { env, _ in
            calls.append("first")
            if let second { env.unregisterForTraitChanges(second) }
        })
        second = try s.rootView.registerForTraitChanges([theme]) { _, _ in calls.append("second") }
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(calls, ["first"])
    }

    func testAnEmptyTraitListIsRefused() throws {
        let s = try Stage()
        XCTAssertThrowsError(try s.rootView.registerForTraitChanges([] as [TraitDefinition]) { _, _ in }) { error in
            XCTAssertTrue(message(of: error).contains("one or more traits"), message(of: error))
        }
        XCTAssertEqual(s.rootView.activeRegistrationCount, 0)
    }

    func testATraitListedTwiceStillGivesOneCall() throws {
        let s = try Stage()
        var calls = 0
        try s.rootView.registerForTraitChanges([theme, theme]) { _, _ in calls += 1 }
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(calls, 1)
    }

    func testADeliveryWhoseTargetIsGoneEndsTheRegistration() throws {
        let s = try Stage()
        var calls = 0
        try s.rootView.addTraitChangeRegistration(for: [theme], delivery: { (_: TraitEnvironment, _: TraitCollection) -> Bool in calls += 1; return false })
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        try s.rootView.setTraitOverride(theme, .string("pastel"))
        try s.world.update()
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(s.rootView.activeRegistrationCount, 0)
    }

    /// A host's registrations: the world's delegate gets each by its tag,
    /// with the environment and the previous collection; false ends it.
    func testTheDelegateDeliversTaggedRegistrations() throws {
        final class Delegate: TraitWorldDelegate {
            var delivered: [(Int, TraitEnvironment, TraitCollection)] = []
            var keep = true
            func environment(_ env: TraitEnvironment, owner: TraitEnvironment?, holds: Bool) {}
            func environmentDidUpdateTraits(_ env: TraitEnvironment) {}
            func environment(_ env: TraitEnvironment, traitCollectionDidChange previous: TraitCollection) throws {}
            func environment(_ env: TraitEnvironment, lifecycle: LifecycleEvent) throws {}
            func environment(_ env: TraitEnvironment, deliver tag: Int, previous: TraitCollection) throws -> Bool {
                delivered.append((tag, env, previous))
                return keep
            }
        }
        let s = try Stage()
        let delegate = Delegate()
        s.world.delegate = delegate
        let r = try s.rootView.addTraitChangeRegistration(for: [theme], delegateTag: 7)
        let other = try s.rootView.addTraitChangeRegistration(for: [Sys.displayScale], delegateTag: 8)
        XCTAssertEqual(r.delegateTag, 7)
        let before = s.rootView.traitCollection
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(delegate.delivered.map(\.0), [7], "only the registration for the trait that changed")
        XCTAssertTrue(delegate.delivered.first?.1 === s.rootView)
        XCTAssertTrue(delegate.delivered.first?.2 === before)
        delegate.keep = false
        try s.rootView.setTraitOverride(theme, .string("pastel"))
        try s.world.update()
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(delegate.delivered.map(\.0), [7, 7], "a delivery that returns false ends the registration")
        XCTAssertFalse(r.isActive)
        XCTAssertTrue(other.isActive)
        XCTAssertFalse(try s.rootView.registerForTraitChanges([theme]) { _, _ in }.delegateTag != nil)
        // unregisterForTraitChanges says whether it ended one of this environment's.
        XCTAssertFalse(s.window.unregisterForTraitChanges(other))
        XCTAssertTrue(s.rootView.unregisterForTraitChanges(other))
        XCTAssertFalse(s.rootView.unregisterForTraitChanges(other))
    }

    /// Without a delegate a tagged registration has no one to deliver it: it ends.
    func testATaggedRegistrationWithoutADelegateEnds() throws {
        let s = try Stage()
        let r = try s.rootView.addTraitChangeRegistration(for: [theme], delegateTag: 1)
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertFalse(r.isActive)
        XCTAssertEqual(s.rootView.activeRegistrationCount, 0)
    }

    func testTheSetNeedsLayoutActionLaysOutInTheSameUpdate() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        try card.registerForTraitChanges([theme], action: .setNeedsLayout)
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(journal.only("layoutSubviews"), ["card.layoutSubviews"])
        XCTAssertEqual(card.seen["layoutSubviews"]?[theme], .string("bold"))
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testTraitCollectionDidChangeRunsForEveryChangeAfterTheHandlers() throws {
        let s = try Stage()
        let journal = Journal()
        let card = RecordingView(world: s.world, journal: journal, name: "card")
        try s.rootView.addSubview(card)
        try s.world.update()
        journal.clear()
        try card.registerForTraitChanges([theme]) { _, _ in journal.record("card.handler") }
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        s.screen.setTraits { $0[Sys.displayScale] = .number(2) }
        try s.world.update()
        XCTAssertEqual(journal.entries, ["card.handler", "card.traitCollectionDidChange", "card.traitCollectionDidChange"])
    }

    func testHandlersAreCountedInStats() throws {
        let s = try Stage()
        try s.rootView.registerForTraitChanges([theme]) { _, _ in }
        let before = s.world.stats.handlersCalled
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertEqual(s.world.stats.handlersCalled, before + 1)
    }
}

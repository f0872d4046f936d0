@testable import TraitEngine
import XCTest

/// Appearance and layout callbacks of view controllers and views (docs/guide.md, "The update cycle").
final class LifecycleTests: XCTestCase {
    private let journal = Journal()

    private func recording(_ name: String, in world: TraitWorld) -> RecordingViewController {
        RecordingViewController(world: world, journal: journal, name: name)
    }

    func testViewDidLoadRunsOnceOnFirstAccessToTheView() throws {
        let world = TraitWorld()
        let vc = recording("vc", in: world)
        XCTAssertNil(vc.viewIfLoaded)
        XCTAssertEqual(journal.entries, [])
        let view = try vc.loadViewIfNeeded()
        XCTAssertTrue(try vc.loadViewIfNeeded() === view)
        XCTAssertEqual(journal.entries, ["vc.viewDidLoad"])
        XCTAssertTrue(view is RecordingView)
    }

    // Apple, "Updating views automatically with observation tracking": the
    // properties a view shows are set in updateProperties, which "runs before
    // layout", so it runs when the view first enters the window.
    func testARootViewControllerAppearsAtTheFirstUpdateWithDidAppearAfterLayout() throws {
        let s = try Stage { [journal] world in RecordingViewController(world: world, journal: journal, name: "root") }
        XCTAssertEqual(journal.entries, [
            "root.viewDidLoad",
            "root.viewWillAppear",
            "root.traitCollectionDidChange",
            "root.view.traitCollectionDidChange",
            "root.viewIsAppearing",
            "root.view.updateProperties",
            "root.viewWillLayoutSubviews",
            "root.view.layoutSubviews",
            "root.viewDidLayoutSubviews",
            "root.view.draw",
            "root.viewDidAppear",
        ])
        XCTAssertEqual(s.root.traitCollection, phoneTraits)
    }

    func testViewWillAppearSeesStaleTraitsAndViewIsAppearingFreshOnes() throws {
        let s = try Stage()
        let child = recording("child", in: s.world)
        try addChild(child, to: s)
        try s.world.update()
        try removeChild(child)
        try s.world.update()
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        journal.clear()
        try addChild(child, to: s)
        try s.world.update()
        XCTAssertEqual(journal.only("viewWillAppear", "viewIsAppearing", "viewDidAppear"),
                       ["child.viewWillAppear", "child.viewIsAppearing", "child.viewDidAppear"])
        XCTAssertEqual(child.seen["viewWillAppear"]?[Sys.userInterfaceStyle], .string("light"))
        XCTAssertEqual(child.seen["viewIsAppearing"]?[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(child.recordingView.seen["traitCollectionDidChange"]?[Sys.userInterfaceStyle], .string("dark"),
                       "its view is updated before viewIsAppearing")
    }

    func testAViewControllerWhoseViewLeavesTheWindowDisappearsOnce() throws {
        let s = try Stage()
        let child = recording("child", in: s.world)
        try addChild(child, to: s)
        try s.world.update()
        journal.clear()
        try removeChild(child)
        try s.world.update()
        try s.world.update()
        XCTAssertEqual(journal.only("viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"),
                       ["child.viewWillDisappear", "child.viewDidDisappear"])
    }

    func testAPresentedViewControllerAppearsAndDisappearsWhenDismissed() throws {
        let s = try Stage()
        let sheet = recording("sheet", in: s.world)
        try s.root.present(sheet)
        try s.world.update()
        XCTAssertEqual(journal.only("viewWillAppear", "viewIsAppearing", "viewDidAppear"),
                       ["sheet.viewWillAppear", "sheet.viewIsAppearing", "sheet.viewDidAppear"])
        journal.clear()
        sheet.dismiss()
        try s.world.update()
        XCTAssertEqual(journal.only("viewWillDisappear", "viewDidDisappear"), ["sheet.viewWillDisappear", "sheet.viewDidDisappear"])
    }

    func testLayoutOfAViewControllersViewIsBracketedByTheControllersCallbacks() throws {
        let s = try Stage()
        let child = recording("child", in: s.world)
        try addChild(child, to: s)
        try s.world.update()
        journal.clear()
        child.recordingView.setNeedsLayout()
        try s.world.update()
        XCTAssertEqual(journal.entries, ["child.viewWillLayoutSubviews", "child.view.layoutSubviews", "child.viewDidLayoutSubviews"])
    }

    func testUpdateTraitsIfNeededBeforeTheFirstUpdateStillDeliversAppearance() throws {
        let s = try Stage()
        let child = recording("child", in: s.world)
        try addChild(child, to: s)
        try child.recordingView.layoutIfNeeded()
        XCTAssertEqual(child.recordingView.traitCollection, phoneTraits)
        try s.world.update()
        XCTAssertEqual(journal.only("viewWillAppear", "viewIsAppearing", "viewDidAppear"),
                       ["child.viewWillAppear", "child.viewIsAppearing", "child.viewDidAppear"])
    }

    func testAnErrorInViewWillAppearPropagatesAndTheNextUpdateFinishesTheAppearance() throws {
        let s = try Stage()
        let child = recording("child", in: s.world)
        child.failOnce = ["viewWillAppear"]
        try addChild(child, to: s)
        XCTAssertThrowsError(try s.world.update()) { XCTAssertEqual($0 as? CallbackFailure, CallbackFailure(callback: "viewWillAppear")) }
        try s.world.update()
        XCTAssertEqual(child.traitCollection, phoneTraits)
        XCTAssertEqual(child.recordingView.traitCollection, phoneTraits)
        XCTAssertEqual(journal.only("viewWillAppear", "viewIsAppearing", "viewDidAppear"),
                       ["child.viewWillAppear", "child.viewIsAppearing", "child.viewDidAppear"])
    }

    func testAnErrorInATraitCallbackOfAnAppearingControllerStillLetsItAppear() throws {
        let s = try Stage()
        let child = recording("child", in: s.world)
        child.failOnce = ["traitCollectionDidChange"]
        try addChild(child, to: s)
        XCTAssertThrowsError(try s.world.update())
        try s.world.update()
        XCTAssertEqual(child.recordingView.traitCollection, phoneTraits)
        XCTAssertEqual(journal.only("viewWillAppear", "viewIsAppearing", "viewDidAppear"),
                       ["child.viewWillAppear", "child.viewIsAppearing", "child.viewDidAppear"])
    }

    func testAnErrorInViewDidAppearDoesNotLoseTheOtherControllersCallbacks() throws {
        let s = try Stage()
        let first = recording("first", in: s.world)
        let second = recording("second", in: s.world)
        first.failOnce = ["viewDidAppear"]
        try addChild(first, to: s)
        try addChild(second, to: s)
        XCTAssertThrowsError(try s.world.update())
        try s.world.update()
        XCTAssertEqual(journal.only("viewDidAppear"), ["first.viewDidAppear", "second.viewDidAppear"])
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testAnErrorInViewWillDisappearDoesNotLoseTheOtherControllersCallbacks() throws {
        let s = try Stage()
        let first = recording("first", in: s.world)
        let second = recording("second", in: s.world)
        try addChild(first, to: s)
        try addChild(second, to: s)
        try s.world.update()
        journal.clear()
        first.failOnce = ["viewWillDisappear"]
        try removeChild(first)
        try removeChild(second)
        XCTAssertThrowsError(try s.world.update())
        try s.world.update()
        XCTAssertEqual(Set(journal.only("viewWillDisappear", "viewDidDisappear")),
                       ["first.viewWillDisappear", "second.viewWillDisappear", "first.viewDidDisappear", "second.viewDidDisappear"])
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testAnErrorInViewDidDisappearDoesNotLoseTheOtherControllersCallbacks() throws {
        let s = try Stage()
        let first = recording("first", in: s.world)
        let second = recording("second", in: s.world)
        try addChild(first, to: s)
        try addChild(second, to: s)
        try s.world.update()
        journal.clear()
        first.failOnce = ["viewDidDisappear"]
        try removeChild(first)
        try removeChild(second)
        XCTAssertThrowsError(try s.world.update())
        try s.world.update()
        XCTAssertEqual(journal.only("viewDidDisappear"), ["first.viewDidDisappear", "second.viewDidDisappear"])
        XCTAssertFalse(s.world.needsUpdate)
    }

    // MARK: Helpers

    private func addChild(_ child: ViewController, to s: Stage) throws {
        try s.root.addChild(child)
        try s.rootView.addSubview(child.loadViewIfNeeded())
    }

    private func removeChild(_ child: ViewController) throws {
        child.viewIfLoaded?.removeFromSuperview()
        child.removeFromParent()
    }
}

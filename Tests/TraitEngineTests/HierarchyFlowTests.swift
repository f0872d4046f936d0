@testable import TraitEngine
import XCTest

/// Which environment inherits from which, in both hierarchy modes (docs/guide.md, "The hierarchy and overrides").
final class HierarchyFlowTests: XCTestCase {
    private let theme = try! makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))

    func testDeviceTraitsFlowFromTheScreenDownToSubviews() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        let label = try s.addView("label", to: card)
        try s.world.update()
        for env: TraitEnvironment in [s.scene, s.window, s.root, s.rootView, card, label] {
            XCTAssertEqual(env.traitCollection, phoneTraits, "\(env)")
        }
        XCTAssertTrue(s.root.traitParent === s.window)
        XCTAssertTrue(s.rootView.traitParent === s.root)
        XCTAssertTrue(label.traitParent === card)
        XCTAssertTrue(label.window === s.window)
    }

    func testInIOS17AChildViewControllerInheritsFromItsViewsSuperview() throws {
        let s = try Stage(mode: .ios17)
        let (container, child) = try addChildInContainer(s)
        try s.world.update()
        XCTAssertTrue(child.traitParent === container)
        XCTAssertEqual(child.traitCollection[theme], .string("bold"), "from the container view")
        XCTAssertEqual(child.traitCollection[Sys.userInterfaceStyle], .string("dark"), "from the parent, through its view")
        XCTAssertEqual(child.viewIfLoaded!.traitCollection[theme], .string("bold"))
    }

    func testInLegacyModeAChildViewControllerInheritsFromItsParent() throws {
        let s = try Stage(mode: .legacy)
        let (container, child) = try addChildInContainer(s)
        let sibling = try s.addView("sibling", to: container)
        try s.world.update()
        XCTAssertTrue(child.traitParent === s.root)
        XCTAssertEqual(child.traitCollection[theme], .string("standard"), "the container is not on the legacy path")
        XCTAssertEqual(child.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertTrue(child.viewIfLoaded!.traitParent === child, "a view owned by a controller inherits from it")
        XCTAssertEqual(child.viewIfLoaded!.traitCollection[theme], .string("standard"))
        XCTAssertEqual(sibling.traitCollection[theme], .string("bold"), "other views still inherit from their superview")
    }

    func testSwitchingTheHierarchyModeTakesEffectAtTheNextUpdate() throws {
        let s = try Stage(mode: .ios17)
        let (_, child) = try addChildInContainer(s)
        try s.world.update()
        s.world.hierarchyMode = .legacy
        XCTAssertEqual(child.traitCollection[theme], .string("bold"), "still the value of the last update")
        try s.world.update()
        XCTAssertEqual(child.traitCollection[theme], .string("standard"))
        s.world.hierarchyMode = .ios17
        try s.world.update()
        XCTAssertEqual(child.traitCollection[theme], .string("bold"))
    }

    // Apple, UIViewController.overrideUserInterfaceStyle: "the new style
    // applies to the view controller, its entire view hierarchy, and any
    // embedded child view controllers"; UIView.overrideUserInterfaceStyle on
    // a window: "all presentation controllers that display content in that
    // window". So presented content inherits through the window, not from
    // the presenter's overrides.
    func testAPresentationControllerInheritsFromTheWindowAndThePresentedControllerFromIt() throws {
        for mode in HierarchyMode.allCases {
            let s = try Stage(mode: mode)
            try s.root.setTraitOverride(theme, .string("bold"))
            try s.window.setTraitOverride(theme, .string("pastel"))
            let presented = ViewController(world: s.world)
            try s.root.present(presented)
            let pc = try XCTUnwrap(presented.presentationController)
            try pc.setTraitOverride(Sys.userInterfaceLevel, .string("base"))
            try s.world.update()
            XCTAssertTrue(pc.traitParent === s.window, "\(mode)")
            XCTAssertTrue(presented.traitParent === pc, "\(mode)")
            XCTAssertTrue(s.root.presentedViewController === presented)
            XCTAssertEqual(presented.traitCollection[theme], .string("pastel"), "the window's, not the presenter's (\(mode))")
            XCTAssertEqual(presented.traitCollection[Sys.userInterfaceLevel], .string("base"), "\(mode)")
            XCTAssertEqual(presented.viewIfLoaded!.traitCollection[Sys.userInterfaceLevel], .string("base"), "\(mode)")
            XCTAssertTrue(presented.viewIfLoaded!.window === s.window, "the presented view joins the presenter's window")
        }
    }

    func testAPresentationFollowsItsPresenterToAnotherWindow() throws {
        let s = try Stage()
        let other = Window(world: s.world)
        other.setWindowScene(s.scene)
        try other.setTraitOverride(theme, .string("bold"))
        let host = ViewController(world: s.world)
        try s.root.addChild(host)
        try s.rootView.addSubview(try host.loadViewIfNeeded())
        let presented = ViewController(world: s.world)
        presented.modalPresentationStyle = .currentContext
        host.definesPresentationContext = true
        try host.present(presented)
        try s.world.update()
        XCTAssertTrue(presented.presentingViewController === host)
        XCTAssertEqual(presented.traitCollection[theme], .string("standard"))
        try other.addSubview(host.viewIfLoaded!)
        try s.world.update()
        XCTAssertTrue(presented.presentationController!.traitParent === other)
        XCTAssertEqual(presented.traitCollection[theme], .string("bold"))
    }

    func testADismissedControllerLeavesTheHierarchyAndStopsUpdating() throws {
        let s = try Stage()
        let presented = ViewController(world: s.world)
        try s.root.present(presented)
        try s.world.update()
        s.root.dismiss()
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertNil(presented.traitParent)
        XCTAssertNil(s.root.presentedViewController)
        XCTAssertFalse(presented.isInWindowScene)
        XCTAssertEqual(presented.traitCollection[Sys.userInterfaceStyle], .string("light"))
        XCTAssertEqual(s.root.traitCollection[Sys.userInterfaceStyle], .string("dark"))
    }

    func testAddingAViewBelowItselfIsRefusedAndChangesNothing() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        let label = try s.addView("label", to: card)
        XCTAssertThrowsError(try card.addSubview(card)) { XCTAssertEqual(message(of: $0), #"cannot add View "card" as a subview of itself"#) }
        XCTAssertThrowsError(try label.addSubview(card)) {
            XCTAssertEqual(message(of: $0), #"cannot add View "card" as a subview of View "label": it is an ancestor of View "label""#)
        }
        XCTAssertThrowsError(try label.addSubview(s.rootView))
        XCTAssertThrowsError(try card.addSubview(s.window))
        XCTAssertTrue(card.superview === s.rootView)
        XCTAssertTrue(label.superview === card)
        XCTAssertEqual(label.subviews.count, 0)
    }

    func testAddingAViewMovesItFromItsPreviousSuperview() throws {
        let s = try Stage()
        let a = try s.addView("a", to: s.rootView)
        let b = try s.addView("b", to: s.rootView)
        let label = try s.addView("label", to: a)
        try b.setTraitOverride(theme, .string("pastel"))
        try b.addSubview(label)
        try s.world.update()
        XCTAssertTrue(label.superview === b)
        XCTAssertEqual(a.subviews.count, 0)
        XCTAssertEqual(b.subviews.map(\.name), ["label"])
        XCTAssertEqual(label.traitCollection[theme], .string("pastel"))
    }

    func testAViewControllerCannotHaveTwoParentsOrWindows() throws {
        let s = try Stage()
        let other = ViewController(world: s.world)
        let child = ViewController(world: s.world)
        try s.root.addChild(child)
        XCTAssertThrowsError(try other.addChild(child))
        XCTAssertThrowsError(try other.addChild(s.root), "the root of a window cannot become a child")
        XCTAssertThrowsError(try child.addChild(s.root), "an ancestor cannot become a child")
        XCTAssertThrowsError(try child.addChild(child))
        let secondWindow = Window(world: s.world)
        XCTAssertThrowsError(try secondWindow.setRootViewController(s.root))
        XCTAssertThrowsError(try secondWindow.setRootViewController(child))
        XCTAssertThrowsError(try s.root.present(s.root))
        XCTAssertTrue(child.parent === s.root)
        XCTAssertEqual(other.children.count, 0)
        XCTAssertTrue(s.root.windowAsRoot === s.window)
        XCTAssertNil(secondWindow.rootViewController)
    }

    func testRemovingAChildViewControllerAndItsViewTakesItOutOfTheTree() throws {
        let s = try Stage(mode: .legacy)
        let (_, child) = try addChildInContainer(s)
        try s.world.update()
        child.removeFromParent()
        child.viewIfLoaded!.removeFromSuperview()
        s.screen.setTraits { $0[Sys.displayScale] = .number(2) }
        try s.world.update()
        XCTAssertFalse(child.isInWindowScene)
        XCTAssertEqual(child.traitCollection[Sys.displayScale], .number(3), "outside the tree it keeps its last collection")
        XCTAssertEqual(s.rootView.traitCollection[Sys.displayScale], .number(2))
    }

    // MARK: Helpers

    /// root (style dark) → root.view → container (theme bold) → child.view, with child a child of root.
    private func addChildInContainer(_ s: Stage) throws -> (View, ViewController) {
        try s.root.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        let container = try s.addView("container", to: s.rootView)
        try container.setTraitOverride(theme, .string("bold"))
        let child = ViewController(world: s.world)
        child.name = "child"
        try s.root.addChild(child)
        try container.addSubview(child.loadViewIfNeeded())
        return (container, child)
    }
}

@testable import TraitEngine
import XCTest

/// Trait overrides on environments (docs/guide.md, "The hierarchy and overrides").
final class OverrideTests: XCTestCase {
    private let theme = try! makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))

    func testAnOverrideAppliesToItsEnvironmentAndDescendantsButNotAncestors() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        let label = try s.addView("label", to: card)
        try card.setTraitOverride(theme, .string("pastel"))
        try s.world.update()
        XCTAssertEqual(card.traitCollection[theme], .string("pastel"))
        XCTAssertEqual(label.traitCollection[theme], .string("pastel"))
        XCTAssertEqual(s.rootView.traitCollection[theme], .string("standard"))
    }

    func testTheNearestOverrideWins() throws {
        let s = try Stage()
        let card = try s.addView("card", to: s.rootView)
        let label = try s.addView("label", to: card)
        try s.scene.setTraitOverride(theme, .string("pastel"))
        try card.setTraitOverride(theme, .string("monochrome"))
        try s.world.update()
        XCTAssertEqual(s.rootView.traitCollection[theme], .string("pastel"))
        XCTAssertEqual(label.traitCollection[theme], .string("monochrome"))
    }

    func testAnOverrideOfASystemTraitReplacesTheDeviceValue() throws {
        let s = try Stage()
        try s.window.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try s.world.update()
        XCTAssertEqual(s.rootView.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(s.scene.traitCollection[Sys.userInterfaceStyle], .string("light"))
    }

    func testAnOverrideEqualToTheDefaultIsStillAnOverride() throws {
        let s = try Stage()
        try s.scene.setTraitOverride(theme, .string("bold"))
        try s.rootView.setTraitOverride(theme, .string("standard"))
        try s.rootView.setTraitOverride(Sys.userInterfaceStyle, .string("unspecified"))
        try s.world.update()
        XCTAssertTrue(s.rootView.containsTraitOverride(theme))
        XCTAssertEqual(s.rootView.traitOverride(theme), .string("standard"))
        XCTAssertEqual(s.rootView.traitCollection[theme], .string("standard"), "the override hides the scene's value")
        XCTAssertEqual(s.rootView.traitCollection[Sys.userInterfaceStyle], .string("unspecified"))
    }

    func testAnOverrideEqualToTheInheritedValueIsStillAnOverride() throws {
        let s = try Stage()
        try s.rootView.setTraitOverride(Sys.userInterfaceStyle, .string("light"))
        try s.world.update()
        XCTAssertTrue(s.rootView.containsTraitOverride(Sys.userInterfaceStyle))
        s.screen.setTraits { $0[Sys.userInterfaceStyle] = .string("dark") }
        try s.world.update()
        XCTAssertEqual(s.root.traitCollection[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(s.rootView.traitCollection[Sys.userInterfaceStyle], .string("light"), "the override pins the value")
    }

    func testRemovingAnOverrideRestoresTheInheritedValue() throws {
        let s = try Stage()
        try s.scene.setTraitOverride(theme, .string("bold"))
        try s.rootView.setTraitOverride(theme, .string("pastel"))
        try s.world.update()
        s.rootView.removeTraitOverride(theme)
        XCTAssertFalse(s.rootView.containsTraitOverride(theme))
        XCTAssertNil(s.rootView.traitOverride(theme))
        try s.world.update()
        XCTAssertEqual(s.rootView.traitCollection[theme], .string("bold"))
    }

    func testRemovingAnOverrideThatIsNotThereDoesNothing() throws {
        let s = try Stage()
        s.rootView.removeTraitOverride(theme)
        XCTAssertFalse(s.world.needsUpdate)
        XCTAssertTrue(s.rootView.traitOverrideEntries.isEmpty)
    }

    func testAnOverrideOfTheWrongTypeIsRefusedAndChangesNothing() throws {
        let s = try Stage()
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.world.update()
        XCTAssertThrowsError(try s.rootView.setTraitOverride(theme, .string("neon"))) { error in
            XCTAssertTrue(message(of: error).contains("'Theme'"), message(of: error))
        }
        XCTAssertThrowsError(try s.rootView.setTraitOverride(Sys.displayScale, .string("2")))
        XCTAssertEqual(s.rootView.traitOverride(theme), .string("bold"))
        XCTAssertFalse(s.rootView.containsTraitOverride(Sys.displayScale))
        XCTAssertFalse(s.world.needsUpdate)
    }

    func testOverridesAreCheckedAndConvertedLikeAssignments() throws {
        let s = try Stage()
        try s.rootView.setTraitOverride(Sys.displayScale, .int(2))
        XCTAssertEqual(s.rootView.traitOverride(Sys.displayScale), .number(2))
    }

    func testOverridesAreListedSortedByDefinition() throws {
        let s = try Stage()
        try s.rootView.setTraitOverride(theme, .string("bold"))
        try s.rootView.setTraitOverride(Sys.userInterfaceStyle, .string("dark"))
        try s.rootView.setTraitOverride(theme, .string("pastel"))
        let entries = s.rootView.traitOverrideEntries
        XCTAssertEqual(Set(entries.map(\.definition)), [Sys.userInterfaceStyle, theme])
        XCTAssertEqual(entries.map(\.definition.id), entries.map(\.definition.id).sorted())
        XCTAssertEqual(s.rootView.traitOverride(theme), .string("pastel"))
    }
}

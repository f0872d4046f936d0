@testable import TraitEngine
import XCTest

private struct ContainedInSettingsTrait: UITraitDefinition {
    static let defaultValue = false
}

private enum MyAppTheme: String, CaseIterable, TraitEnumValue { case standard, pastel, bold, monochrome }

private struct MyAppThemeTrait: UITraitDefinition {
    static let defaultValue = MyAppTheme.standard
    static let identifier: String? = "com.myapp.theme"
    static let affectsColorAppearance = true
}

/// Traits defined in Swift in UIKit's shape, used with typed subscripts.
final class UITraitDefinitionTests: XCTestCase {
    func testDefinitionsTakeUIKitsShape() {
        let d = MyAppThemeTrait.definition
        XCTAssertTrue(d === MyAppThemeTrait.definition, "one definition per type")
        XCTAssertEqual(d.name, "MyAppTheme")
        XCTAssertEqual(d.property, "myAppTheme")
        XCTAssertEqual(d.identifier, "com.myapp.theme")
        XCTAssertTrue(d.affectsColorAppearance)
        XCTAssertEqual(d.defaultValue, .string("standard"))
        guard case .enumeration(let e) = d.valueType else { return XCTFail("expected an enum trait") }
        XCTAssertEqual(e.cases, ["standard", "pastel", "bold", "monochrome"])
        XCTAssertEqual(ContainedInSettingsTrait.definition.name, "ContainedInSettings")
    }

    func testCollectionsAndMutableTraitsAreTyped() {
        let tc = TraitCollection { t in
            t[ContainedInSettingsTrait.self] = true
            t[MyAppThemeTrait.self] = .pastel
        }
        XCTAssertEqual(tc[ContainedInSettingsTrait.self], true)
        XCTAssertEqual(tc[MyAppThemeTrait.self], .pastel)
        XCTAssertEqual(TraitCollection.empty[MyAppThemeTrait.self], .standard)
        let modified = tc.modifyingTraits { $0[MyAppThemeTrait.self] = .bold }
        XCTAssertEqual(modified[MyAppThemeTrait.self], .bold)
        XCTAssertEqual(modified.changedTraits(from: tc).map(\.name), ["MyAppTheme"])
    }

    func testOverridesFlowToDescendants() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        let scene = WindowScene(world: world, screen: world.mainScreen)
        let window = Window(world: world)
        window.setWindowScene(scene)
        let root = ViewController(world: world)
        try window.setRootViewController(root)
        var seen: [MyAppTheme] = []
        try root.loadViewIfNeeded().registerForTraitChanges([MyAppThemeTrait.self]) { env, _ in
            seen.append(env.traitCollection[MyAppThemeTrait.self])
        }
        scene.traitOverrides[MyAppThemeTrait.self] = .monochrome
        XCTAssertTrue(scene.traitOverrides.contains(MyAppThemeTrait.self))
        try world.update()
        XCTAssertEqual(try root.loadViewIfNeeded().traitCollection[MyAppThemeTrait.self], .monochrome)
        XCTAssertEqual(seen, [.monochrome])
        scene.traitOverrides.remove(MyAppThemeTrait.self)
        XCTAssertNil(scene.traitOverrides[MyAppThemeTrait.self])
    }

    func testRegisteringMakesTheTraitVisibleByPropertyName() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        try world.register(ContainedInSettingsTrait.self)
        try world.register(ContainedInSettingsTrait.self)
        XCTAssertTrue(world.registry.definition(forProperty: "containedInSettings") === ContainedInSettingsTrait.definition)
    }
}

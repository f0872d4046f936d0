@testable import TraitEngine
import XCTest

/// Unique properties and identifiers, and reloads (docs/guide.md, "Traits and trait collections" and "Plugins").
final class TraitRegistryTests: XCTestCase {
    func testSystemTraitsAreFoundByPropertyAndIdentifier() {
        let registry = TraitRegistry()
        XCTAssertTrue(registry.definition(forProperty: "horizontalSizeClass") === Sys.horizontalSizeClass)
        XCTAssertTrue(registry.definition(forIdentifier: "UIKit.userInterfaceStyle") === Sys.userInterfaceStyle)
        XCTAssertEqual(registry.definitions.count, Sys.all.count)
        XCTAssertNil(registry.definition(forProperty: "theme"))
    }

    func testASecondDefinitionWithAPropertyInUseIsRefusedAndChangesNothing() throws {
        let registry = TraitRegistry()
        let first = try makeTrait("Theme", .boolean, default: .bool(false))
        try registry.register(first)
        let before = registry.definitions.count
        let second = try TraitDefinition(name: "OtherTheme", valueType: .boolean, defaultValue: .bool(false), property: "theme")
        XCTAssertThrowsError(try registry.register(second)) { error in
            XCTAssertEqual(message(of: error), "trait 'OtherTheme': property 'theme' is already used by an earlier definition 'Theme'")
        }
        XCTAssertEqual(registry.definitions.count, before)
        XCTAssertTrue(registry.definition(forProperty: "theme") === first)
    }

    func testASecondDefinitionWithAnIdentifierInUseIsRefused() throws {
        let registry = TraitRegistry()
        try registry.register(makeTrait("Theme", .boolean, default: .bool(false), identifier: "com.test.theme"))
        let clash = try makeTrait("Palette", .boolean, default: .bool(false), identifier: "com.test.theme")
        XCTAssertThrowsError(try registry.register(clash)) { error in
            XCTAssertTrue(message(of: error).contains("identifier 'com.test.theme'"), message(of: error))
        }
        XCTAssertNil(registry.definition(forProperty: "palette"))
    }

    func testAClashWithASystemTraitSaysSo() throws {
        let registry = TraitRegistry()
        let clash = try TraitDefinition(name: "Style", valueType: .boolean, defaultValue: .bool(false), property: "userInterfaceStyle")
        XCTAssertThrowsError(try registry.register(clash)) { error in
            XCTAssertTrue(message(of: error).contains("the system trait"), message(of: error))
        }
    }

    func testAClashBetweenTwoPluginsNamesBoth() throws {
        let registry = TraitRegistry()
        let mine = try makeTrait("Theme", .boolean, default: .bool(false), identifier: "com.test.theme")
        mine.owner = "palette"
        try registry.register(mine)
        let theirs = try makeTrait("Theme2", .boolean, default: .bool(false), identifier: "com.test.theme")
        theirs.owner = "theme"
        XCTAssertThrowsError(try registry.register(theirs)) { error in
            XCTAssertEqual(message(of: error),
                           "plugin 'theme' defines trait 'Theme2' with identifier 'com.test.theme', already used by plugin 'palette' ('Theme')")
        }
    }

    func testReplacingADefinitionKeepsItsIdentityAndUpdatesLookups() throws {
        let registry = TraitRegistry()
        let old = try makeTrait("Theme", .boolean, default: .bool(false), identifier: "com.test.v1")
        try registry.register(old)
        let generation = registry.generation
        let new = try makeTrait("Theme", .integer, default: .int(3), identifier: "com.test.v2")
        try registry.replace(old, with: new)
        XCTAssertTrue(registry.definition(forIdentifier: "com.test.v2") === old)
        XCTAssertNil(registry.definition(forIdentifier: "com.test.v1"))
        XCTAssertEqual(old.defaultValue, .int(3))
        XCTAssertGreaterThan(registry.generation, generation)
    }

    func testReplacingIsRefusedWhenTheNewVersionClashesWithAnotherDefinition() throws {
        let registry = TraitRegistry()
        let old = try makeTrait("Theme", .boolean, default: .bool(false))
        try registry.register(old)
        let new = try TraitDefinition(name: "Theme", valueType: .boolean, defaultValue: .bool(false), property: "displayScale")
        XCTAssertThrowsError(try registry.replace(old, with: new))
        XCTAssertEqual(old.property, "theme")
        XCTAssertTrue(registry.definition(forProperty: "displayScale") === Sys.displayScale)
    }

    func testARemovedDefinitionFreesItsPropertyAndIdentifier() throws {
        let registry = TraitRegistry()
        let def = try makeTrait("Theme", .boolean, default: .bool(false), identifier: "com.test.theme")
        try registry.register(def)
        registry.remove(def)
        XCTAssertNil(registry.definition(forProperty: "theme"))
        XCTAssertNil(registry.definition(forIdentifier: "com.test.theme"))
        XCTAssertNoThrow(try registry.register(makeTrait("Theme", .boolean, default: .bool(true), identifier: "com.test.theme")))
    }
}

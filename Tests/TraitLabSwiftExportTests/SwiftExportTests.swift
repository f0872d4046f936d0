import TraitEngine
@testable import TraitLabSwiftExport
import XCTest

/// The Swift writer's rules on their own; Tests/cli/swift_export_test.sh
/// compiles what it writes (Tests/SwiftExport) and checks it in Swift.
final class SwiftNamesTests: XCTestCase {
    func testTypeNamesAreUpperCamelCaseFromTheWords() {
        XCTAssertEqual(SwiftNames.upperCamel("theme"), "Theme")
        XCTAssertEqual(SwiftNames.upperCamel("my app-theme"), "MyAppTheme")
        XCTAssertEqual(SwiftNames.upperCamel("NewCheckoutEnabled"), "NewCheckoutEnabled")
        XCTAssertEqual(SwiftNames.upperCamel("3d mode"), "_3dMode")
        XCTAssertEqual(SwiftNames.upperCamel("!!!"), "Unnamed")
        XCTAssertEqual(SwiftNames.upperCamel("thème"), "ThMe", "non-ASCII letters split words: Swift names stay ASCII")
        XCTAssertEqual(SwiftNames.typeName("Type"), "TypeValue")
        XCTAssertEqual(SwiftNames.typeName("string"), "StringValue", "would shadow Swift.String")
        XCTAssertEqual(SwiftNames.typeName("color"), "ColorValue", "would shadow SwiftUI.Color in the app")
        XCTAssertEqual(SwiftNames.typeName("value"), "ValueValue",
                       "inside a trait or key type, Value is the protocol's associated type: an enum Value there is a recursion")
    }

    func testKeyTypeNamesNeverShadowTheProtocolsTheyConformTo() {
        XCTAssertEqual(SwiftNames.keyTypeName("myAppTheme"), "MyAppThemeKey")
        XCTAssertEqual(SwiftNames.keyTypeName("environment"), "EnvironmentValueKey",
                       "struct EnvironmentKey: EnvironmentKey does not compile")
        XCTAssertEqual(SwiftNames.keyTypeName("UITraitBridgedEnvironment"), "UITraitBridgedEnvironmentValueKey")
    }

    func testNoReservedNameEndsAsATraitTypeNameDoes() {
        // traitTypeName relies on it: a name ending in Trait is never reserved.
        let reserved = SwiftNames.reservedTypeNames.union(SwiftNames.keywords)
        XCTAssertEqual(reserved.filter { $0.hasSuffix("Trait") }, [])
        for name in reserved { XCTAssertFalse(SwiftNames.isReserved(SwiftNames.traitTypeName(name)), name) }
    }

    func testCaseNamesKeepValidIdentifiersAndEscapeKeywords() {
        XCTAssertEqual(SwiftNames.identifier("SRGB"), "SRGB")
        XCTAssertEqual(SwiftNames.identifier("display P3"), "displayP3")
        XCTAssertEqual(SwiftNames.identifier("1x"), "_1x")
        XCTAssertEqual(SwiftNames.declared("default"), "`default`")
        XCTAssertEqual(SwiftNames.declared("theme"), "theme")
    }

    func testLiterals() {
        XCTAssertEqual(SwiftNames.stringLiteral("a\"b\\c\n\u{0}\u{1B}\u{200B}é"), #""a\"b\\c\n\0\u{1b}\u{200b}é""#)
        XCTAssertEqual(SwiftNames.doubleLiteral(2), "2.0")
        XCTAssertEqual(SwiftNames.doubleLiteral(-0.0), "-0.0")
        XCTAssertEqual(SwiftNames.doubleLiteral(.infinity), "Double.infinity")
        XCTAssertEqual(SwiftNames.doubleLiteral(-.infinity), "-Double.infinity")
        XCTAssertEqual(SwiftNames.intLiteral(Int.min), "Int.min")
    }
}

/// Bridges written in Swift, standing in for Lua ones: the analysis only runs them.
private final class ClosureBridge: EnvironmentBridge {
    let readBody: (TraitCollection) throws -> TraitValue
    let writeBody: (inout MutableTraits, TraitValue) throws -> Void
    init(read: @escaping (TraitCollection) throws -> TraitValue, write: @escaping (inout MutableTraits, TraitValue) throws -> Void) {
        readBody = read
        writeBody = write
    }
    func read(from traitCollection: TraitCollection) throws -> TraitValue { try readBody(traitCollection) }
    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws { try writeBody(&mutableTraits, value) }
}

final class BridgeAnalysisTests: XCTestCase {
    let theme = TraitEnum(name: "MyAppTheme", cases: ["standard", "pastel", "bold"])
    lazy var trait = try! TraitDefinition(name: "Theme", valueType: .enumeration(theme), defaultValue: .string("standard"), property: "myAppTheme")
    lazy var other = try! TraitDefinition(name: "Other", valueType: .enumeration(theme), defaultValue: .string("standard"))
    lazy var key = try! EnvironmentKeyDefinition(name: "myAppTheme", valueType: .enumeration(theme), defaultValue: .string("standard"))

    func outcome(_ bridge: EnvironmentBridge) -> String {
        switch BridgeAnalysis.bridgedTrait(of: key, bridge: bridge) {
        case .trait(let t): return "trait " + t.property
        case .notExportable(let why): return why
        }
    }

    func testAPlainMappingIsFound() {
        let t = trait
        XCTAssertEqual(outcome(ClosureBridge(read: { $0[t] }, write: { try $0.set(t, $1) })), "trait myAppTheme")
    }

    func testAWriteThatChangesTheValueIsRefused() {
        let t = trait
        let why = outcome(ClosureBridge(read: { $0[t] }, write: { m, _ in try m.set(t, .string("bold")) }))
        XCTAssertTrue(why.contains("stores \"bold\""), why)
    }

    func testAReadThatIsNotTheTraitIsRefused() {
        let t = trait
        let why = outcome(ClosureBridge(read: { _ in .string("pastel") }, write: { try $0.set(t, $1) }))
        XCTAssertTrue(why.contains("its read of 'myAppTheme'"), why)
    }

    func testWritingTwoTraitsIsRefused() {
        let t = trait, o = other
        let why = outcome(ClosureBridge(read: { $0[t] }, write: { try $0.set(t, $1); try $0.set(o, $1) }))
        XCTAssertTrue(why.contains("changes 2 traits"), why)
    }

    func testASystemTraitIsRefused() {
        let k = try! EnvironmentKeyDefinition(name: "dark", valueType: .boolean, defaultValue: .bool(false))
        let style = SystemTraits.userInterfaceStyle
        let bridge = ClosureBridge(read: { .bool($0[style] == .string("dark")) },
                                   write: { m, v in try m.set(style, .string(v == .bool(true) ? "dark" : "light")) })
        guard case .notExportable(let why) = BridgeAnalysis.bridgedTrait(of: k, bridge: bridge) else { return XCTFail("exported") }
        XCTAssertTrue(why.contains("system trait"), why)
    }

    func testAFailingBridgeIsRefusedWithItsError() {
        let t = trait
        let why = outcome(ClosureBridge(read: { _ in throw TraitError("no reading") }, write: { try $0.set(t, $1) }))
        XCTAssertTrue(why.contains("no reading"), why)
    }
}

final class SwiftExportTests: XCTestCase {
    func testATableDefaultBecomesAStructOrIsReported() throws {
        let insets = try TraitDefinition(name: "Insets", valueType: .table, defaultValue: .table(TraitTable([
            .init(key: .string("top"), value: .int(1)), .init(key: .string("label"), value: .string("x")),
        ])))
        let list = try TraitDefinition(name: "List", valueType: .table, defaultValue: .table(TraitTable(array: [.int(1)])))
        let r = SwiftExport(traits: [insets, list], keys: []).render()
        XCTAssertTrue(r.source.contains("struct Insets: Equatable {\n  var label: String\n  var top: Int\n}"), r.source)
        XCTAssertTrue(r.source.contains("static let defaultValue = Insets(label: \"x\", top: 1)"), r.source)
        XCTAssertFalse(r.source.contains("ListTrait"))
        XCTAssertEqual(r.notExported.count, 1)
        XCTAssertTrue(r.notExported[0].hasPrefix("trait 'List' is not exportable"), r.notExported[0])
    }

    func testSameSwiftNamesGetNumbers() throws {
        let a = try TraitDefinition(name: "my theme", valueType: .boolean, defaultValue: .bool(false), property: "a")
        let b = try TraitDefinition(name: "MyTheme", valueType: .boolean, defaultValue: .bool(false), property: "b")
        let r = SwiftExport(traits: [a, b], keys: []).render()
        XCTAssertTrue(r.source.contains("struct MyThemeTrait:") && r.source.contains("struct MyThemeTrait2:"), r.source)
    }

    func testAKeyNamedEnvironmentIsNoEnvironmentKey() throws {
        let key = try EnvironmentKeyDefinition(name: "environment", valueType: .integer, defaultValue: .int(0))
        let r = SwiftExport(traits: [], keys: [key]).render()
        XCTAssertTrue(r.source.contains("struct EnvironmentValueKey: EnvironmentKey {"), r.source)
        XCTAssertTrue(r.source.contains("var environment: Int {"), r.source)
        XCTAssertFalse(r.source.contains("struct EnvironmentKey"), r.source)
    }

    func testTheSourceIsAskedForAsItGrows() throws {
        let def = try TraitDefinition(name: String(repeating: "n", count: 10_000), valueType: .integer, defaultValue: .int(0),
                                      property: "p")
        var asked = 0
        let r = try SwiftExport(traits: [def], keys: []).render(budget: MemoryBudget { asked += $0 })
        XCTAssertGreaterThanOrEqual(asked, r.source.utf8.count, "asked for before it was added")
        struct Refused: Error {}
        XCTAssertThrowsError(try SwiftExport(traits: [def], keys: []).render(budget: MemoryBudget { _ in throw Refused() }))
    }

    func testSystemTraitsAndBuiltinKeysAreNeverExported() {
        let r = SwiftExport(traits: SystemTraits.all, keys: BuiltinEnvironmentKeys.all).render()
        XCTAssertEqual(r.source, "")
        XCTAssertEqual(r.traitCount + r.keyCount, 0)
    }
}

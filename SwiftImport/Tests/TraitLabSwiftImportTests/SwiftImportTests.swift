import TraitLabSwiftImport
import XCTest

/// The translation rules one declaration at a time; Tests/cli/swift_import_test.sh
/// loads whole plugins into traitlab and runs the round trips.
final class SwiftImportTests: XCTestCase {
    /// The plugin for `files` (name → source), and what was skipped.
    func importing(_ files: [String: String], settings: BuildSettings = BuildSettings(),
                   enums: [String: [String]] = [:]) -> SwiftImport.Plugin {
        var importer = SwiftImport(settings: settings)
        for (type, cases) in enums { importer.declareEnum(type, cases: cases) }
        for name in files.keys.sorted() { importer.add(source: files[name]!, file: name) }
        return importer.plugin(name: "t", sources: files.keys.sorted())
    }

    func importing(_ source: String) -> SwiftImport.Plugin { importing(["A.swift": source]) }

    func testLiteralDefaultsTakeTheirTypeFromTheLiteralOrTheAnnotation() {
        let p = importing("""
        struct A: UITraitDefinition { static let defaultValue = -3 }
        struct B: UITraitDefinition { static let defaultValue: CGFloat = 8 }
        struct C: UITraitDefinition { static let defaultValue: String? = nil }
        struct D: UITraitDefinition { static var defaultValue: Bool { true } }
        struct E: UITraitDefinition { static let defaultValue: Optional<Int> = nil }
        struct F: UITraitDefinition { static let defaultValue = "tab\\there" }
        """)
        XCTAssertEqual(p.traitCount, 6, p.lua)
        XCTAssertTrue(p.lua.contains("type = \"integer\",\n      default = -3,"), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"number\",\n      default = 8.0,"), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"string\",\n      default = nil,"), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"boolean\",\n      default = true,"), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"integer\",\n      default = nil,"), p.lua)
        XCTAssertTrue(p.lua.contains("default = \"tab\\there\""), p.lua)
    }

    func testEnumCasesAreRawStringsOrCaseNames() {
        let p = importing("""
        enum Size: String { case small = "S", large }
        enum Level: Int { case low = 1, high }
        struct SizeTrait: UITraitDefinition { static let defaultValue: Size = .large }
        struct LevelTrait: UITraitDefinition { static let defaultValue = Level.high }
        """)
        XCTAssertTrue(p.lua.contains(#"local Size = traits.enum("Size", { "S", "large" }, { type = "Size", rawType = "String", cases = { "small", "large" }, rawValues = { "\"S\"", "" } })"#), p.lua)
        XCTAssertTrue(p.lua.contains(#"local Level = traits.enum("Level", { "low", "high" }, { type = "Level", rawType = "Int", rawValues = { "1", "" } })"#), p.lua)
        XCTAssertTrue(p.lua.contains("type = Size,\n      default = \"large\","), p.lua)
        XCTAssertTrue(p.lua.contains("type = Level,\n      default = \"high\","), p.lua)
    }

    func testAnUnqualifiedCaseNeedsOneEnumToHaveIt() {
        let p = importing("""
        enum A { case same }
        enum B { case same }
        struct T: UITraitDefinition { static let defaultValue = .same }
        struct U: UITraitDefinition { static let defaultValue = .nowhere }
        """)
        XCTAssertEqual(p.traitCount, 0)
        XCTAssertEqual(p.skipped.map(\.reason), [
            "the case .same is in several enums (A, B): give defaultValue a type",
            "no enum in the sources has the case .nowhere",
        ])
    }

    func testDeclarationsAcrossFilesAndExtensionsComeTogether() {
        // The conformance and the property come before the type, in another file.
        let p = importing([
            "A.swift": """
            extension ZoomTrait: UITraitDefinition {}
            extension UIMutableTraits { var zoomLevel: Int { get { self[ZoomTrait.self] } set { self[ZoomTrait.self] = newValue } } }
            """,
            "B.swift": "struct ZoomTrait { static let defaultValue = 1; static let name = \"Zoom\" }",
        ])
        XCTAssertEqual(p.traitCount, 1, p.skipped.description)
        XCTAssertTrue(p.lua.contains("name = \"Zoom\","), p.lua)
        XCTAssertTrue(p.lua.contains("property = \"zoomLevel\","), p.lua)
        XCTAssertTrue(p.lua.contains("-- ZoomTrait, B.swift:1"), p.lua)
    }

    func testStructValuesBecomeTables() {
        let p = importing("""
        struct Pad { var top: Double; var label = "x"; let on: Bool }
        struct PadTrait: UITraitDefinition { static let defaultValue = Pad(top: 2, on: true) }
        struct Nested { var inner: Pad }
        struct NestedTrait: UITraitDefinition { static let defaultValue = Nested(inner: Pad(top: 1, on: false)) }
        """)
        XCTAssertTrue(p.lua.contains(#"default = { top = 2.0, label = "x", on = true },"#), p.lua)
        XCTAssertEqual(p.skipped.map(\.what), ["NestedTrait"])
        XCTAssertEqual(p.skipped.first?.reason, "the field Nested.inner has type Pad; struct fields must be Bool, Int, Double or String")
    }

    func testEnvironmentKeysNamesAndBridges() {
        let p = importing("""
        struct FlagTrait: UITraitDefinition { static let defaultValue = false }
        extension UITraitCollection { var flag: Bool { self[FlagTrait.self] } }
        struct FlagKey: EnvironmentKey { static let defaultValue = false }
        extension FlagKey: UITraitBridgedEnvironmentKey {
            static func read(from tc: UITraitCollection) -> Bool { return tc[FlagTrait.self] }
            static func write(to traits: inout UIMutableTraits, value v: Bool) { traits.flag = v }
        }
        struct LooseKey: UITraitBridgedEnvironmentKey {
            static let defaultValue = false
            static func read(from tc: UITraitCollection) -> Bool { tc.flag }
            static func write(to traits: inout UIMutableTraits, value: Bool) { traits.flag = !value }
        }
        extension EnvironmentValues { @Entry var count: Int = 2 }
        """)
        XCTAssertEqual(p.keyCount, 3, p.lua)
        XCTAssertEqual(p.bridgeCount, 1, p.lua)
        XCTAssertTrue(p.lua.contains("local flagKey = swiftui.EnvironmentKey { name = \"flag\", type = \"boolean\", default = false, swift = { type = \"FlagKey\", default = \"false\", defaultValue = false } }"), p.lua)
        XCTAssertTrue(p.lua.contains("read = function(traitCollection) return traitCollection.flag end,"), p.lua)
        XCTAssertTrue(p.lua.contains("swiftui.EnvironmentKey { name = \"loose\""), p.lua)
        XCTAssertTrue(p.lua.contains("swiftui.EnvironmentKey { name = \"count\", type = \"integer\", default = 2, swift = { entry = true, valueType = \"Int\", default = \"2\", defaultValue = 2 } }"), p.lua)
        XCTAssertEqual(p.skipped.map(\.description), [
            "A.swift:10: LooseKey's bridge: write(to:value:) does more than set one trait property to the value",
        ])
    }

    func testWhatCannotBeTranslatedIsListedWithItsLine() {
        let p = importing("""
        final class Box {}
        struct Eq: Equatable { var a: Int; static func == (l: Eq, r: Eq) -> Bool { true } }
        struct A: UITraitDefinition { static let defaultValue = UUID() }
        struct B: UITraitDefinition { static let defaultValue = Box() }
        struct C: UITraitDefinition { static let defaultValue: UIFont = .body }
        struct D: UITraitDefinition { static let defaultValue = Eq(a: 1) }
        struct E: UITraitDefinition { static var defaultValue: Int { let x = 1; return x } }
        struct F: UITraitDefinition { static let defaultValue = 1; static let affectsColorAppearance = Bool.random() }
        struct G: UITraitDefinition { static let defaultValue: [Int] = [] }
        struct H: UITraitDefinition { }
        """)
        XCTAssertEqual(p.traitCount, 0)
        XCTAssertEqual(p.skipped.map { "\($0.location) \($0.what)" }, [
            "A.swift:3 A", "A.swift:4 B", "A.swift:5 C", "A.swift:6 D", "A.swift:7 E", "A.swift:8 F", "A.swift:9 G", "A.swift:10 H",
        ])
        XCTAssertTrue(p.skipped[0].reason.hasPrefix("its default value is computed (`UUID()`)"))
        XCTAssertTrue(p.skipped[1].reason.hasPrefix("its value is class-typed (Box)"))
        XCTAssertTrue(p.skipped[2].reason.hasPrefix("its value is class-typed (UIFont)"), p.skipped[2].reason)
        XCTAssertTrue(p.skipped[3].reason.contains("custom Equatable"))
        XCTAssertEqual(p.skipped[4].reason, "its default value is computed (a getter with statements)")
        XCTAssertEqual(p.skipped[5].reason, "its affectsColorAppearance is not true or false")
        XCTAssertTrue(p.skipped[6].reason.hasPrefix("its type `[Int]` is not one TraitLab has"))
        XCTAssertEqual(p.skipped[7].reason, "it has no static defaultValue")
    }

    func testAComputedNameOrIdentifierIsLeftOutWithANote() {
        let p = importing("""
        struct T: UITraitDefinition {
            static let defaultValue = 1
            static let name = "T" + "x"
            static let identifier = "\\(bundle).t"
        }
        """)
        XCTAssertEqual(p.traitCount, 1)
        XCTAssertTrue(p.lua.contains("name = \"T\",\n      type = \"integer\""), p.lua)
        XCTAssertFalse(p.lua.contains("identifier ="), p.lua)
        XCTAssertEqual(p.skipped.map(\.description), [
            "A.swift:3: T.name: it is not a string literal; the trait is imported with UIKit's default name, the type's name",
            "A.swift:4: T.identifier: it is not a string literal; the trait is imported with no identifier",
        ])
    }

    func testNamesThatLuaCannotTakeAsIsAreQuoted() {
        let p = importing("""
        enum end: String { case `repeat`, b = "x\\"y" }
        struct T: UITraitDefinition { static let defaultValue = end.repeat }
        extension UITraitCollection { var `return`: end { self[T.self] } }
        """)
        XCTAssertTrue(p.lua.contains(#"local enum1 = traits.enum("end", { "repeat", "x\"y" }, { type = "end", rawType = "String", cases = { "repeat", "b" }, rawValues = { "", "\"x\\\"y\"" } })"#), p.lua)
        XCTAssertTrue(p.lua.contains("property = \"return\","), p.lua)
    }

    func testOnlyTheClausesCompiledForThePlatformAreRead() {
        let source = """
        #if os(tvOS)
        struct FocusTrait: UITraitDefinition { static let defaultValue = true }
        #elseif targetEnvironment(macCatalyst)
        struct FocusTrait: UITraitDefinition { static let defaultValue = false }
        #else
        struct FocusTrait: UITraitDefinition { static let defaultValue = DEBUGGING }
        #endif
        #if DEBUG
        struct DebugTrait: UITraitDefinition { static let defaultValue = 1 }
        #endif
        """
        var tv = BuildSettings()
        tv.platform = .tvos
        XCTAssertTrue(importing(["A.swift": source], settings: tv).lua.contains("default = true,"))
        var catalyst = BuildSettings()
        catalyst.platform = .maccatalyst
        catalyst.defines = ["DEBUG"]
        let c = importing(["A.swift": source], settings: catalyst)
        XCTAssertTrue(c.lua.contains("default = false,") && c.lua.contains("DebugTrait"), c.lua)
        let ios = importing(source)
        XCTAssertEqual(ios.skipped.map(\.what), ["FocusTrait"], "iOS reads the #else clause")
        XCTAssertFalse(ios.lua.contains("DebugTrait"), "DEBUG is unset unless defined")
    }

    func testAnUndecidableConditionIsReportedAndNothingInItIsRead() {
        let p = importing("""
        #if canImport(SomePackage)
        struct A: UITraitDefinition { static let defaultValue = 1 }
        #else
        struct A: UITraitDefinition { static let defaultValue = 2 }
        #endif
        struct B: UITraitDefinition { static let defaultValue = 3 }
        """)
        XCTAssertEqual(p.traitCount, 1)
        XCTAssertEqual(p.skipped.first?.location, "A.swift:1")
        XCTAssertTrue(p.skipped.first?.reason.contains("pass --can-import SomePackage or --cannot-import SomePackage") == true, p.skipped.description)
    }

    func testDefaultsFollowConstantsToTheirValues() {
        let p = importing("""
        enum Names { static let system = "system" }
        enum Sizes { static let base: CGFloat = 8; static let card = Sizes.base }
        extension String { static let fallback = "plain" }
        struct A: UITraitDefinition { static let defaultValue: String = Names.system }
        struct B: UITraitDefinition { static let defaultValue = Sizes.card }
        struct C: UITraitDefinition { static let defaultValue: String = .fallback }
        struct D: UITraitDefinition { static let defaultValue = Names.missing }
        """)
        XCTAssertTrue(p.lua.contains("type = \"string\",\n      default = \"system\","), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"number\",\n      default = 8.0,"), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"string\",\n      default = \"plain\","), p.lua)
        XCTAssertEqual(p.skipped.map(\.what), ["D"])
        XCTAssertTrue(p.skipped[0].reason.hasPrefix("its enum Names has no cases"), p.skipped[0].reason)
    }

    func testAForeignEnumNeedsItsCases() {
        let source = "struct S: UITraitDefinition { static let defaultValue: LNPopupBar.Style = .compact }"
        let without = importing(source)
        XCTAssertEqual(without.skipped.first?.reason,
                       "its default is `.compact` of LNPopupBar.Style, an enum not declared in the Swift sources read (an Objective-C enum, "
                       + "or one from another module): pass its cases with --enum LNPopupBar.Style=compact,... or its declaration with --types FILE|DIR")
        let with = importing(["A.swift": source], enums: ["LNPopupBar.Style": ["compact", "prominent"]])
        XCTAssertEqual(with.traitCount, 1, with.skipped.description)
        XCTAssertTrue(with.lua.contains(#"traits.enum("LNPopupBar.Style", { "compact", "prominent" }, { type = "LNPopupBar.Style", foreign = true })"#), with.lua)
    }

    func testNamedColoursAndImagesAreKeptByName() {
        let p = importing("""
        struct A: UITraitDefinition { static let defaultValue = UIColor(named: "Brand/Accent")! }
        struct B: UITraitDefinition { static let defaultValue: UIColor = .systemBackground }
        struct C: UITraitDefinition { static let defaultValue = UIImage(named: "Hero")! }
        struct D: UITraitDefinition { static let defaultValue = UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
        """)
        XCTAssertTrue(p.lua.contains("type = \"color\",\n      default = \"Brand/Accent\","), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"color\",\n      default = \"systemBackground\","), p.lua)
        XCTAssertTrue(p.lua.contains("type = \"image\",\n      default = \"Hero\","), p.lua)
        XCTAssertEqual(p.skipped.map(\.what), ["D"])
    }
}

@testable import TraitEngine
import XCTest

/// Checking and converting values against a trait's type (docs/guide.md, "Traits and trait collections").
final class TraitValueTests: XCTestCase {
    func testIntegerTraitAcceptsAFloatWithAnExactIntegerValue() throws {
        let count = try makeTrait("Count", .integer, default: .int(0))
        XCTAssertEqual(try count.validate(.number(3.0)), .int(3))
        XCTAssertEqual(try count.validate(.number(-42)), .int(-42))
        XCTAssertEqual(try count.validate(.int(7)), .int(7))
    }

    func testIntegerTraitRefusesAFractionalNumberNamingTheTrait() throws {
        let count = try makeTrait("Count", .integer, default: .int(0))
        XCTAssertThrowsError(try count.validate(.number(3.5))) { error in
            XCTAssertEqual(message(of: error), "trait 'Count' expects an integer, got the number 3.5")
        }
    }

    func testIntegerTraitRefusesFloatsBeyondTheIntegerRangeWithoutTrapping() throws {
        let count = try makeTrait("Count", .integer, default: .int(0))
        for x in [1e300, -1e300, 9.3e18, Double.infinity, -Double.infinity, Double.nan] {
            XCTAssertThrowsError(try count.validate(.number(x)), "\(x)")
        }
    }

    func testNumberTraitStoresAnIntegerAsANumber() throws {
        let scale = try makeTrait("Scale", .number, default: .number(1))
        XCTAssertEqual(try scale.validate(.int(2)), .number(2))
    }

    func testEnumTraitRefusesAnUnknownCaseNamingTheValidCases() throws {
        let theme = try makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))
        XCTAssertEqual(try theme.validate(.string("bold")), .string("bold"))
        XCTAssertThrowsError(try theme.validate(.string("neon"))) { error in
            XCTAssertEqual(message(of: error),
                           "trait 'Theme' has no case 'neon' (valid cases of MyAppTheme: standard, pastel, bold, monochrome)")
        }
    }

    func testEnumTraitRefusesANonStringNamingTheCases() throws {
        let theme = try makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"))
        XCTAssertThrowsError(try theme.validate(.int(1))) { error in
            XCTAssertEqual(message(of: error),
                           "trait 'Theme' expects a MyAppTheme case (standard, pastel, bold, monochrome), got integer")
        }
    }

    func testOptionalTraitAcceptsNil() throws {
        let language = try makeTrait("Language", .string, default: .none, optional: true)
        XCTAssertEqual(language.defaultValue, TraitValue.none)
        XCTAssertEqual(try language.validate(.none), TraitValue.none)
        XCTAssertEqual(try language.validate(.string("en")), .string("en"))
        XCTAssertThrowsError(try language.validate(.bool(true))) { error in
            XCTAssertEqual(message(of: error), "trait 'Language' expects a string or nil, got boolean")
        }
    }

    func testNonOptionalTraitRefusesNil() throws {
        let flag = try makeTrait("Flag", .boolean, default: .bool(false))
        XCTAssertThrowsError(try flag.validate(.none)) { error in
            XCTAssertEqual(message(of: error), "trait 'Flag' expects a boolean, got nil")
        }
    }

    func testWrongTypeErrorNamesTheTraitAndTheExpectedType() throws {
        let title = try makeTrait("Title", .string, default: .string(""))
        XCTAssertThrowsError(try title.validate(.table(TraitTable()))) { error in
            XCTAssertEqual(message(of: error), "trait 'Title' expects a string, got table")
        }
    }

    func testDefinitionRefusesADefaultThatDoesNotFitItsType() {
        XCTAssertThrowsError(try makeTrait("Count", .integer, default: .string("one"))) { error in
            XCTAssertEqual(message(of: error), "trait 'Count' expects an integer, got string")
        }
        XCTAssertThrowsError(try makeTrait("Theme", .enumeration(themeEnum), default: .string("neon")))
    }

    func testDefinitionRefusesAnEmptyNameIdentifierOrAnInvalidProperty() {
        XCTAssertThrowsError(try makeTrait("", .boolean, default: .bool(false)))
        XCTAssertThrowsError(try makeTrait("Flag", .boolean, default: .bool(false), identifier: ""))
        for bad in ["9lives", "my-prop", "", "naïve"] {
            XCTAssertThrowsError(try TraitDefinition(name: "Flag", valueType: .boolean, defaultValue: .bool(false), property: bad), bad)
        }
        XCTAssertNoThrow(try TraitDefinition(name: "Flag", valueType: .boolean, defaultValue: .bool(false), property: "_flag2"))
    }

    func testPropertyDefaultsToTheNameWithItsFirstLetterLowercased() throws {
        XCTAssertEqual(try makeTrait("ContainedInSettings", .boolean, default: .bool(false)).property, "containedInSettings")
        XCTAssertEqual(Sys.horizontalSizeClass.property, "horizontalSizeClass")
    }

    func testTablesCompareAndHashByContentNotInsertionOrder() {
        let a = TraitTable([.init(key: .string("b"), value: .int(2)), .init(key: .string("a"), value: .int(1))])
        let b = TraitTable([.init(key: .string("a"), value: .int(1)), .init(key: .string("b"), value: .int(2))])
        XCTAssertEqual(a, b)
        XCTAssertEqual(TraitValue.table(a).hashValue, TraitValue.table(b).hashValue)
        XCTAssertNotEqual(a, TraitTable([.init(key: .string("a"), value: .int(1))]))
    }

    func testTableKeysOrderBooleansThenNumbersThenStrings() {
        let t = TraitTable([
            .init(key: .string("x"), value: .int(0)), .init(key: .number(1.5), value: .int(0)),
            .init(key: .int(2), value: .int(0)), .init(key: .bool(true), value: .int(0)), .init(key: .int(1), value: .int(0)),
        ])
        XCTAssertEqual(t.entries.map(\.key), [.bool(true), .int(1), .number(1.5), .int(2), .string("x")])
    }

    func testOnlyTablesKeyedOneToNAreSequences() {
        XCTAssertTrue(TraitTable(array: [.string("a"), .string("b")]).isSequence)
        XCTAssertTrue(TraitTable().isSequence)
        XCTAssertFalse(TraitTable([.init(key: .int(1), value: .int(0)), .init(key: .int(3), value: .int(0))]).isSequence)
        XCTAssertFalse(TraitTable([.init(key: .string("1"), value: .int(0))]).isSequence)
        XCTAssertEqual(TraitTable(array: [.string("a"), .string("b")])[.int(2)], .string("b"))
    }

    func testEnumsWithTheSameNameAndCasesAreEqual() {
        XCTAssertEqual(TraitEnum(name: "E", cases: ["a", "b"]), TraitEnum(name: "E", cases: ["a", "b"]))
        XCTAssertNotEqual(TraitEnum(name: "E", cases: ["a", "b"]), TraitEnum(name: "E", cases: ["b", "a"]))
    }
}

@testable import TraitEngine
import XCTest

/// The JSON reader and writer, and collections encoded by identifier (docs/guide.md, "Traits and trait collections").
final class JSONTests: XCTestCase {
    // MARK: Reading

    func testParsesEveryKindOfValue() throws {
        let v = try JSONValue.parse(#" {"a" : [ true , false , null ],"n":-12,"x":1.5e3,"s":"hi"} "#)
        XCTAssertEqual(v, .object([
            ("a", .array([.bool(true), .bool(false), .null])),
            ("n", .integer(-12)),
            ("x", .number(1500)),
            ("s", .string("hi")),
        ]))
    }

    func testAcceptsAllFourWhitespaceCharactersAndAByteOrderMark() throws {
        XCTAssertEqual(try JSONValue.parse("\t\n\r [ 1 ]\r\n"), .array([.integer(1)]))
        XCTAssertEqual(try JSONValue.parse("\u{FEFF}1"), .integer(1))
    }

    func testNumbersWithoutFractionOrExponentAreIntegersWhenTheyFit() throws {
        XCTAssertEqual(try JSONValue.parse("0"), .integer(0))
        XCTAssertEqual(try JSONValue.parse("-9223372036854775808"), .integer(Int.min))
        XCTAssertEqual(try JSONValue.parse("9223372036854775807"), .integer(Int.max))
        // An integer past Lua's 64-bit range is refused both ways (as a float
        // it would round: -9223372036854775810 to math.mininteger).
        XCTAssertThrowsError(try JSONValue.parse("9223372036854775808"))
        XCTAssertThrowsError(try JSONValue.parse("-9223372036854775810"))
        XCTAssertEqual(try JSONValue.parse("3.0"), .number(3))
        XCTAssertEqual(try JSONValue.parse("1E-2"), .number(0.01))
        XCTAssertEqual(try JSONValue.parse("1e-400"), .number(0))
    }

    func testANumberBeyondTheDoubleRangeIsAnError() {
        assertParseError("1e400", "invalid JSON: number out of range at offset 0")
        assertParseError("[-1e99999999999999999999]", "invalid JSON: number out of range at offset 1")
    }

    func testDecodesEscapesIncludingSurrogatePairs() throws {
        XCTAssertEqual(try JSONValue.parse(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{8}\u{C}\n\r\t"))
        XCTAssertEqual(try JSONValue.parse(#""\u00e9\uD83D\uDE00\u0000""#), .string("é😀\u{0}"))
        XCTAssertEqual(try JSONValue.parse(#""né😀""#), .string("né😀"))
    }

    func testMalformedInputNamesTheOffsetAndWhatWasExpected() {
        assertParseError(#"{"a":1 x"#, "invalid JSON: expected ',' or '}' at offset 7, found 'x'")
        assertParseError("{", "invalid JSON: expected a string key or '}' at offset 1, found the end of the input")
        assertParseError(#"{"a":1,}"#, "invalid JSON: expected a string key at offset 7, found '}'")
        assertParseError(#"{"a" 1}"#, "invalid JSON: expected ':' at offset 5, found '1'")
        assertParseError("[1,]", "invalid JSON: expected a value at offset 3, found ']'")
        assertParseError("[1 2]", "invalid JSON: expected ',' or ']' at offset 3, found '2'")
        assertParseError("", "invalid JSON: expected a value at offset 0, found the end of the input")
        assertParseError("  ", "invalid JSON: expected a value at offset 2, found the end of the input")
        assertParseError("[] x", "invalid JSON: expected the end of the input at offset 3, found 'x'")
        assertParseError("tru", "invalid JSON: expected 'true' at offset 3, found the end of the input")
        assertParseError("nul!", "invalid JSON: expected 'null' at offset 3, found '!'")
        assertParseError("01", "invalid JSON: expected the end of the input at offset 1, found '1'")
        assertParseError("-", "invalid JSON: expected a digit at offset 1, found the end of the input")
        assertParseError("-a", "invalid JSON: expected a digit at offset 1, found 'a'")
        assertParseError("1.", "invalid JSON: expected a digit after '.' at offset 2, found the end of the input")
        assertParseError("1e+", "invalid JSON: expected a digit in the exponent at offset 3, found the end of the input")
        assertParseError("+1", "invalid JSON: expected a value at offset 0, found '+'")
        assertParseError("'a'", "invalid JSON: expected a value at offset 0, found '''")
        assertParseError("NaN", "invalid JSON: expected a value at offset 0, found 'N'")
    }

    func testMalformedStringsNameTheOffset() {
        assertParseError(#""abc"#, #"invalid JSON: expected '"' at offset 4, found the end of the input"#)
        assertParseError(#""\x""#, #"invalid JSON: expected an escape character (" \ / b f n r t u) at offset 2, found 'x'"#)
        assertParseError(#""\u12""#, #"invalid JSON: expected a hex digit at offset 5, found '"'"#)
        assertParseError(#""\uD800""#, #"invalid JSON: expected a low surrogate escape \uDC00-\uDFFF at offset 7, found '"'"#)
        assertParseError(#""\uD800\u0041""#, #"invalid JSON: expected a low surrogate escape \uDC00-\uDFFF at offset 7, found '\'"#)
        assertParseError(#""\uDC00""#, #"invalid JSON: unpaired low surrogate \uDC00 at offset 1"#)
        assertParseError("\"a\u{1}\"", "invalid JSON: control character in a string (it must be escaped) at offset 2")
        assertParseError("\"a\tb\"", "invalid JSON: control character in a string (it must be escaped) at offset 2")
    }

    func testBytesThatAreNotUTF8AreAnError() {
        XCTAssertThrowsError(try JSONValue.parse(utf8: [0x22, 0x61, 0xFF, 0x22])) { error in
            XCTAssertEqual(message(of: error), "invalid JSON: string is not valid UTF-8 at offset 0")
        }
        XCTAssertThrowsError(try JSONValue.parse(utf8: [0x5B, 0xC3])) { error in
            XCTAssertEqual(message(of: error), "invalid JSON: expected a value at offset 1, found byte 0xC3")
        }
        XCTAssertEqual(try JSONValue.parse(utf8: Array(#"["é"]"#.utf8)), .array([.string("é")]))
    }

    func testNestingIsLimitedSoHostileInputCannotExhaustTheStack() throws {
        let depth = JSONValue.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertNoThrow(try JSONValue.parse(deepest))
        assertParseError(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1),
                         "invalid JSON: arrays and objects nested more than \(depth) deep at offset \(depth)")
        XCTAssertThrowsError(try JSONValue.parse(String(repeating: #"{"a":["#, count: 100_000)))
    }

    // MARK: Writing

    func testWritesCompactJSONKeepingMemberOrder() {
        let v = JSONValue.object([("z", .integer(1)), ("a", .array([.null, .bool(false)])), ("z", .object([]))])
        XCTAssertEqual(v.serialized, #"{"z":1,"a":[null,false],"z":{}}"#)
    }

    func testEscapesQuotesBackslashesAndControlCharactersAndKeepsOtherTextAsUTF8() {
        XCTAssertEqual(JSONValue.string("a\"b\\c/\n\r\t\u{1}\u{1F}é😀\u{7F}").serialized,
                       #""a\"b\\c/\n\r\t\u0001\u001fé😀"# + "\u{7F}\"")
    }

    func testWritesNumbersInTheShortestFormThatReadsBack() {
        XCTAssertEqual(JSONValue.number(3).serialized, "3.0")
        XCTAssertEqual(JSONValue.number(0.1).serialized, "0.1")
        XCTAssertEqual(JSONValue.number(-0.0).serialized, "-0.0")
        XCTAssertEqual(JSONValue.number(1e16).serialized, "1e+16")
        XCTAssertEqual(JSONValue.integer(-7).serialized, "-7")
        XCTAssertEqual(JSONValue.number(.nan).serialized, "null")
        XCTAssertEqual(JSONValue.number(-.infinity).serialized, "null")
    }

    func testEveryFiniteDoubleReadsBackExactly() throws {
        var rng = SeededGenerator(seed: 7)
        var checked = 0
        while checked < 5_000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            checked += 1
            let back = try JSONValue.parse(JSONValue.number(d).serialized)
            XCTAssertEqual(back, .number(d), "\(d)")
        }
    }

    func testRandomDocumentsSurviveARoundTrip() throws {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<500 {
            let v = randomValue(&rng, depth: 0)
            XCTAssertEqual(try JSONValue.parse(v.serialized), v, v.serialized)
        }
    }

    // MARK: Hostile input

    func testRandomBytesNeverCrashTheReader() throws {
        var rng = SeededGenerator(seed: 2024)
        let alphabet = Array(#"{}[]:,"\/ -+.0123456789eEtrufalsnbu"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF, 0xED, 0xA0, 0x80]
        let registry = TraitRegistry()
        var parsed = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            if let v = try? JSONValue.parse(utf8: bytes) {
                parsed += 1
                XCTAssertEqual(try JSONValue.parse(v.serialized), v)
            }
            _ = try? TraitCollection.decode(json: String(decoding: bytes, as: UTF8.self), registry: registry)
        }
        XCTAssertGreaterThan(parsed, 0, "the generator should produce some valid documents")
    }

    func testMutatedDocumentsNeverCrashTheReader() throws {
        var rng = SeededGenerator(seed: 99)
        let registry = TraitRegistry()
        let valid = Array(#"{"UIKit.userInterfaceStyle":"dark","UIKit.displayScale":2.5,"x":[1,{"k":"\u00e9"}]}"#.utf8)
        for _ in 0..<10_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: i)
                default: bytes.insert(bytes[Int.random(in: 0..<bytes.count, using: &rng)], at: i)
                }
                if bytes.isEmpty { break }
            }
            if let v = try? JSONValue.parse(utf8: bytes) {
                XCTAssertEqual(try JSONValue.parse(v.serialized), v)
            }
            _ = try? TraitCollection.decode(json: String(decoding: bytes, as: UTF8.self), registry: registry)
        }
    }

    // MARK: Trait collections

    func testEncodesByIdentifierSortedAndCompactLeavingOutTraitsWithoutOne() throws {
        let f = try Fixture()
        let tc = TraitCollection { t in
            t[f.theme] = .string("bold")
            t[Sys.userInterfaceStyle] = .string("dark")
            t[f.local] = .int(4)
            t[Sys.displayScale] = .number(3)
            t[f.count] = .int(-2)
            t[f.enabled] = .bool(true)
        }
        XCTAssertEqual(tc.encodedJSON(),
                       #"{"UIKit.displayScale":3.0,"UIKit.userInterfaceStyle":"dark","com.test.count":-2,"com.test.enabled":true,"com.test.theme":"bold"}"#)
    }

    func testAnEmptyCollectionEncodesAsAnEmptyObject() {
        XCTAssertEqual(TraitCollection.empty.encodedJSON(), "{}")
    }

    func testEncodesSequencesAsArraysAndOtherTablesAsObjectsWithStringKeys() throws {
        let f = try Fixture()
        let nested = TraitTable([.init(key: .string("k"), value: .bool(true))])
        let list = TraitCollection { $0[f.items] = .table(TraitTable(array: [.int(1), .string("x"), .table(nested), .number(2)])) }
        XCTAssertEqual(list.encodedJSON(), #"{"com.test.items":[1,"x",{"k":true},2.0]}"#)
        let mixed = TraitCollection { t in
            t[f.items] = .table(TraitTable([
                .init(key: .string("a"), value: .int(1)), .init(key: .int(2), value: .string("b")),
                .init(key: .bool(true), value: .int(0)), .init(key: .number(0.5), value: .table(TraitTable())),
            ]))
        }
        XCTAssertEqual(mixed.encodedJSON(), #"{"com.test.items":{"true":0,"0.5":[],"2":"b","a":1}}"#)
    }

    // RFC 8259: no NaN or infinity (§6), object keys are strings (§4). What
    // would not read back as it was is named by encodingProblem.
    func testEncodingProblemNamesWhatJSONCannotHold() throws {
        let f = try Fixture()
        let list = TraitCollection { $0[f.items] = .table(TraitTable(array: [.int(1), .string("x")])) }
        XCTAssertNil(list.encodingProblem)
        XCTAssertEqual(try TraitCollection.decode(json: list.encodedJSON(), registry: f.registry), list)
        let keyed = TraitCollection { $0[f.items] = .table(TraitTable([.init(key: .int(2), value: .string("b"))])) }
        XCTAssertEqual(keyed.encodingProblem, "trait 'Items' cannot be encoded: a table key that is a number (2) would come back as a string")
        let nested = TraitCollection { $0[f.items] = .table(TraitTable(array: [.table(TraitTable([.init(key: .bool(true), value: .int(0))]))])) }
        XCTAssertNotNil(nested.encodingProblem)
        XCTAssertEqual(TraitValue.number(.nan).jsonProblem, "NaN has no JSON form")
        XCTAssertEqual(TraitValue.number(-.infinity).jsonProblem, "-infinity has no JSON form")
        XCTAssertNil(TraitValue.number(.greatestFiniteMagnitude).jsonProblem)
    }

    func testTableKeysThatCollideAsTextEncodeARepeatedKeyThatDecodingRefuses() throws {
        let f = try Fixture()
        let tc = TraitCollection { t in
            t[f.items] = .table(TraitTable([.init(key: .int(1), value: .string("a")), .init(key: .string("1"), value: .string("b"))]))
        }
        XCTAssertEqual(tc.encodedJSON(), #"{"com.test.items":{"1":"a","1":"b"}}"#)
        assertDecodeError(tc.encodedJSON(), f.registry, "trait 'Items': key '1' appears more than once in a table")
    }

    func testEscapesStringValuesAndKeepsNonASCIIText() throws {
        let f = try Fixture()
        let tc = TraitCollection { $0[f.title] = .string("\"Café\"\n\u{0}") }
        XCTAssertEqual(tc.encodedJSON(), #"{"com.test.title":"\"Café\"\n\u0000"}"#)
    }

    func testDecodingGivesBackAnEqualCollection() throws {
        let f = try Fixture()
        let tc = TraitCollection { t in
            t[f.theme] = .string("monochrome")
            t[f.count] = .int(Int.max)
            t[f.scale] = .number(0.1)
            t[f.enabled] = .bool(true)
            t[f.title] = .string("línea\u{1}\"")
            t[f.items] = .table(TraitTable(array: [.int(1), .number(1), .table(TraitTable([.init(key: .string("x"), value: .string("y"))]))]))
            t[Sys.typesettingLanguage] = .string("en")
            t[Sys.displayScale] = .number(2)
        }
        let back = try TraitCollection.decode(json: tc.encodedJSON(), registry: f.registry)
        XCTAssertEqual(back, tc)
        XCTAssertEqual(back.encodedJSON(), tc.encodedJSON())
    }

    func testTraitsMissingFromTheJSONReadTheirDefaults() throws {
        let f = try Fixture()
        let tc = try TraitCollection.decode(json: #"{"com.test.theme":"bold"}"#, registry: f.registry)
        XCTAssertEqual(tc[f.theme], .string("bold"))
        XCTAssertEqual(tc[f.count], .int(0))
        XCTAssertEqual(tc[Sys.userInterfaceStyle], .string("unspecified"))
    }

    func testDecodingChecksValuesAgainstTheirTraitsConvertingLikeAssignment() throws {
        let f = try Fixture()
        XCTAssertEqual(try TraitCollection.decode(json: #"{"com.test.count":3.0}"#, registry: f.registry)[f.count], .int(3))
        XCTAssertEqual(try TraitCollection.decode(json: #"{"com.test.scale":2}"#, registry: f.registry)[f.scale], .number(2))
        XCTAssertEqual(try TraitCollection.decode(json: #"{"UIKit.typesettingLanguage":null}"#, registry: f.registry), .empty)
        assertDecodeError(#"{"com.test.theme":"neon"}"#, f.registry, "trait 'Theme' has no case 'neon' (valid cases of MyAppTheme: standard, pastel, bold, monochrome)")
        assertDecodeError(#"{"com.test.count":2.5}"#, f.registry, "trait 'Count' expects an integer, got the number 2.5")
        assertDecodeError(#"{"com.test.count":1e300}"#, f.registry, "trait 'Count' expects an integer, got the number 1e+300")
        assertDecodeError(#"{"com.test.count":123456789012345678901234567890}"#, f.registry,
                          "invalid JSON: integer out of range (-9223372036854775808 to 9223372036854775807; a number with a fraction or exponent is a float) at offset 18")
        assertDecodeError(#"{"UIKit.userInterfaceStyle":null}"#, f.registry,
                          "trait 'UserInterfaceStyle' expects a UIUserInterfaceStyle case (unspecified, light, dark), got nil")
        assertDecodeError(#"{"com.test.title":["a"]}"#, f.registry, "trait 'Title' expects a string, got table")
    }

    func testAnUnknownIdentifierIsAnErrorNamingIt() throws {
        let f = try Fixture()
        assertDecodeError(#"{"com.test.theme":"bold","com.nobody.knows":1}"#, f.registry, "unknown trait identifier 'com.nobody.knows'")
        // A trait without an identifier cannot be named by its property either.
        assertDecodeError(#"{"local":1}"#, f.registry, "unknown trait identifier 'local'")
    }

    func testDecodingRefusesWhatIsNotAnObjectOfTraits() throws {
        let f = try Fixture()
        assertDecodeError("[]", f.registry, "a trait collection is a JSON object keyed by trait identifier, got an array")
        assertDecodeError("\"x\"", f.registry, "a trait collection is a JSON object keyed by trait identifier, got a string")
        assertDecodeError("{", f.registry, "invalid JSON: expected a string key or '}' at offset 1, found the end of the input")
        assertDecodeError(#"{"com.test.theme":"bold","com.test.theme":"pastel"}"#, f.registry,
                          "trait identifier 'com.test.theme' appears more than once")
    }

    func testTablesCannotHoldNullOrRepeatAKey() throws {
        let f = try Fixture()
        assertDecodeError(#"{"com.test.items":[1,null]}"#, f.registry, "trait 'Items': a table cannot hold null")
        assertDecodeError(#"{"com.test.items":{"a":1,"a":2}}"#, f.registry, "trait 'Items': key 'a' appears more than once in a table")
        let tc = try TraitCollection.decode(json: #"{"com.test.items":{"2":"b","a":[]}}"#, registry: f.registry)
        XCTAssertEqual(tc[f.items], .table(TraitTable([
            .init(key: .string("2"), value: .string("b")), .init(key: .string("a"), value: .table(TraitTable())),
        ])))
    }

    // MARK: Helpers

    /// Definitions of every value type, registered in a fresh registry.
    private struct Fixture {
        let registry = TraitRegistry()
        let theme, count, scale, enabled, title, items, local: TraitDefinition

        init() throws {
            theme = try makeTrait("Theme", .enumeration(themeEnum), default: .string("standard"), identifier: "com.test.theme")
            count = try makeTrait("Count", .integer, default: .int(0), identifier: "com.test.count")
            scale = try makeTrait("Scale", .number, default: .number(1), identifier: "com.test.scale")
            enabled = try makeTrait("Enabled", .boolean, default: .bool(false), identifier: "com.test.enabled")
            title = try makeTrait("Title", .string, default: .string(""), identifier: "com.test.title")
            items = try makeTrait("Items", .table, default: .table(TraitTable()), identifier: "com.test.items")
            local = try makeTrait("Local", .integer, default: .int(0))
            for d in [theme, count, scale, enabled, title, items, local] { try registry.register(d) }
        }
    }

    private func assertParseError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try JSONValue.parse(text), file: file, line: line) { error in
            XCTAssertEqual(message(of: error), expected, file: file, line: line)
        }
    }

    private func assertDecodeError(_ json: String, _ registry: TraitRegistry, _ expected: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try TraitCollection.decode(json: json, registry: registry), file: file, line: line) { error in
            XCTAssertEqual(message(of: error), expected, file: file, line: line)
        }
    }

    private func randomValue(_ rng: inout SeededGenerator, depth: Int) -> JSONValue {
        let pick = Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &rng)
        switch pick {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(Int(truncatingIfNeeded: rng.next()))
        case 3: return .number(Double.random(in: -1e6...1e6, using: &rng))
        case 4, 5: return .string(randomString(&rng))
        case 6: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return .object((0..<Int.random(in: 0...4, using: &rng)).map { _ in (randomString(&rng), randomValue(&rng, depth: depth + 1)) })
        }
    }

    private func randomString(_ rng: inout SeededGenerator) -> String {
        let scalars: [Unicode.Scalar] = ["a", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "😀", "\u{2028}", " ", "\u{FFFF}"]
        return String(String.UnicodeScalarView((0..<Int.random(in: 0...6, using: &rng)).map { _ in scalars.randomElement(using: &rng)! }))
    }
}

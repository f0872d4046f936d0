import TraitEngine
import XCTest

/// The engine's asset catalogue as a library user reads one: through
/// `AssetCatalogFiles` (here, files in memory), with no Lua and no disk.
/// Rules from Apple's Asset Catalog Format Reference ("Named Colors",
/// "Image Set Type", "Group": `provides-namespace`) and
/// `UIImageAsset.image(with:)`: the most specific compatible variant, the
/// universal one as the fallback, the nearest scale.
final class AssetCatalogTests: XCTestCase {
    /// A catalogue whose files are a dictionary of path -> text.
    struct MemoryFiles: AssetCatalogFiles {
        var files: [String: String]

        func entries(of path: String) throws -> [(name: String, isFolder: Bool)] {
            let prefix = path.isEmpty ? "" : path + "/"
            var seen: [String: Bool] = [:]
            for key in files.keys where key.hasPrefix(prefix) {
                let rest = key.dropFirst(prefix.count)
                guard let first = rest.split(separator: "/").first else { continue }
                seen[String(first)] = rest.contains("/")
            }
            return seen.map { (name: $0.key, isFolder: $0.value) }.sorted { $0.name < $1.name }
        }

        func contents(of path: String, budget: MemoryBudget?) throws -> [UInt8]? { files[path].map { Array($0.utf8) } }
        func fileExists(_ path: String) throws -> Bool { files[path] != nil }
    }

    static let info = #""info" : { "author" : "xcode", "version" : 1 }"#

    static func colorSet(_ entries: [String]) -> String {
        "{ \"colors\" : [ \(entries.joined(separator: ", ")) ], \(info) }"
    }

    static func color(_ components: String, appearances: String = "", idiom: String = "universal") -> String {
        "{ \(appearances)\"color\" : { \"color-space\" : \"srgb\", \"components\" : \(components) }, \"idiom\" : \"\(idiom)\" }"
    }

    static let dark = #""appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ], "#
    static let high = #""appearances" : [ { "appearance" : "contrast", "value" : "high" } ], "#

    func catalog(_ files: [String: String]) throws -> AssetCatalog {
        var all = files
        all["Contents.json"] = "{ \(Self.info) }"
        return try AssetCatalog(path: "Test.xcassets", files: MemoryFiles(files: all))
    }

    func tc(_ pairs: [(TraitDefinition, TraitValue)]) -> TraitCollection {
        TraitCollection { m in for (d, v) in pairs { m[d] = v } }
    }

    func testColourSetsResolveByAppearanceWithTheUniversalFallback() throws {
        let cat = try catalog([
            "Accent.colorset/Contents.json": Self.colorSet([
                Self.color(#"{ "red" : "0x10", "green" : "0x20", "blue" : "0x30", "alpha" : "1.000" }"#),
                Self.color(#"{ "red" : "0.000", "green" : "0.500", "blue" : "1.000", "alpha" : "1.000" }"#, appearances: Self.dark),
                Self.color(#"{ "red" : "255", "green" : "0", "blue" : "0", "alpha" : "1.000" }"#, appearances: Self.high),
            ]),
        ])
        XCTAssertEqual(cat.colorNames, ["Accent"])
        let accent = try XCTUnwrap(cat.color(named: "Accent"))
        let style = SystemTraits.userInterfaceStyle, contrast = SystemTraits.accessibilityContrast
        XCTAssertEqual(accent.resolvedColor(with: tc([(style, .string("light"))])).hexString, "#102030")
        XCTAssertEqual(accent.resolvedColor(with: tc([(style, .string("dark"))])).hexString, "#0080FF")
        XCTAssertEqual(accent.resolvedColor(with: tc([(contrast, .string("high"))])).hexString, "#FF0000")
        // The traits that chose it are named (dumps and :why show them).
        XCTAssertEqual(accent.resolution(with: tc([(style, .string("dark"))])).traitsDescription, "dark")
        XCTAssertEqual(accent.resolution(with: TraitCollection.empty).traitsDescription, "any")
        // What the lookup reads is what a change must be watched for.
        XCTAssertTrue(accent.traitsRead.contains { $0 === style })
    }

    func testFoldersThatProvideANamespacePrefixTheirSetsNames() throws {
        let set = Self.colorSet([Self.color(#"{ "red" : "1", "green" : "1", "blue" : "1", "alpha" : "1" }"#)])
        let cat = try catalog([
            "Brand/Contents.json": "{ \(Self.info), \"properties\" : { \"provides-namespace\" : true } }",
            "Brand/Primary.colorset/Contents.json": set,
            "Plain/Contents.json": "{ \(Self.info) }",
            "Plain/Secondary.colorset/Contents.json": set,
        ])
        XCTAssertEqual(Set(cat.colorNames), ["Brand/Primary", "Secondary"])
        XCTAssertNotNil(cat.color(named: "Brand/Primary"))
        XCTAssertNil(cat.color(named: "Primary"))
    }

    func testImageSetsPickTheIdiomAppearanceAndNearestScale() throws {
        func image(_ file: String, _ scale: String, idiom: String = "universal", _ extra: String = "") -> String {
            "{ \(extra)\"filename\" : \"\(file)\", \"idiom\" : \"\(idiom)\", \"scale\" : \"\(scale)\" }"
        }
        let entries = [
            image("hero@1x.png", "1x"), image("hero@2x.png", "2x"), image("hero@3x.png", "3x"),
            image("hero-dark@3x.png", "3x", Self.dark), image("hero-ipad@2x.png", "2x", idiom: "ipad"),
        ]
        var files = ["Hero.imageset/Contents.json": "{ \"images\" : [ \(entries.joined(separator: ", ")) ], \(Self.info) }"]
        for f in ["hero@1x.png", "hero@2x.png", "hero@3x.png", "hero-dark@3x.png", "hero-ipad@2x.png"] { files["Hero.imageset/" + f] = "" }
        let cat = try catalog(files)
        let hero = try XCTUnwrap(cat.image(named: "Hero"))
        let idiom = SystemTraits.userInterfaceIdiom, scale = SystemTraits.displayScale, style = SystemTraits.userInterfaceStyle
        XCTAssertEqual(hero.variant(for: tc([(idiom, .string("phone")), (scale, .number(3))]))?.file, "hero@3x.png")
        XCTAssertEqual(hero.variant(for: tc([(idiom, .string("phone")), (scale, .number(3)), (style, .string("dark"))]))?.file, "hero-dark@3x.png")
        // iPad-specific beats universal; the only iPad variant is 2x.
        XCTAssertEqual(hero.variant(for: tc([(idiom, .string("pad")), (scale, .number(2))]))?.file, "hero-ipad@2x.png")
        XCTAssertEqual(hero.variant(for: tc([(idiom, .string("phone")), (scale, .number(2))]))?.file, "hero@2x.png")
    }

    /// A catalogue holds its sets; a set names its catalogue weakly, so a
    /// catalogue nothing holds is freed, and a colour kept after it still resolves.
    func testACatalogueNothingHoldsIsFreedAndItsColoursStillResolve() throws {
        weak var freed: AssetCatalog?
        var kept: NamedColor?
        try {
            let cat = try catalog(["Accent.colorset/Contents.json": Self.colorSet([
                // ("1.000": a float from 0 to 1; "1" would be an integer from 0 to 255)
                Self.color(#"{ "red" : "1.000", "green" : "0.000", "blue" : "0.000", "alpha" : "1.000" }"#),
            ])])
            freed = cat
            kept = cat.color(named: "Accent")
            XCTAssertTrue(kept?.catalog === cat)
            XCTAssertEqual(kept?.kind, .asset(catalogPath: "Test.xcassets"))
            _ = kept?.resolvedColor(with: TraitCollection.empty)
        }()
        XCTAssertNil(freed, "the catalogue outlived every reference to it (a cycle through its colours)")
        XCTAssertNil(kept?.catalog)
        XCTAssertEqual(kept?.resolvedColor(with: TraitCollection.empty).hexString, "#FF0000")
    }

    func testBadCataloguesAreErrorsNamingTheFile() throws {
        XCTAssertThrowsError(try catalog(["Broken.colorset/Contents.json": "{ \"colors\" : [ "])) { error in
            XCTAssertTrue("\(error)".contains("Broken.colorset/Contents.json"), "\(error)")
        }
        let missing = "{ \"images\" : [ { \"filename\" : \"gone.png\", \"idiom\" : \"universal\" } ], \(Self.info) }"
        XCTAssertThrowsError(try catalog(["Gone.imageset/Contents.json": missing])) { error in
            XCTAssertTrue("\(error)".contains("gone.png"), "\(error)")
        }
        let unknownIdiom = Self.colorSet([Self.color(#"{ "red" : "1", "green" : "1", "blue" : "1", "alpha" : "1" }"#, idiom: "toaster")])
        XCTAssertThrowsError(try catalog(["Odd.colorset/Contents.json": unknownIdiom])) { error in
            XCTAssertTrue("\(error)".contains("toaster"), "\(error)")
        }
    }
}

@testable import TraitEngine
import Foundation
import XCTest

/// The device catalogue and the size classes of window scenes (docs/devices.md),
/// each expectation written here from the source cited beside it.
final class DeviceCatalogueTests: XCTestCase {
    private func device(_ name: String) throws -> Device { try DeviceCatalogue.device(named: name) }

    private func classes(_ text: String) -> SizeClasses {
        // "cR" = compact width, regular height, as in the tables' "Compact width, regular height".
        let c: (Character) -> SizeClass = { $0 == "c" || $0 == "C" ? .compact : .regular }
        return SizeClasses(c(text.first!), c(text.last!))
    }

    // MARK: The catalogue as data

    func testEveryRowCitesTheGuidelinesAndItsSpecifications() {
        // Size and scale: the guidelines' table (`Device.source`, the same page for every row);
        // device traits: the row's own specifications page.
        for d in DeviceCatalogue.devices {
            XCTAssertTrue(d.specs.hasPrefix("https://support.apple.com/"), "\(d.name): \(d.specs)")
        }
        XCTAssertEqual(Set(DeviceCatalogue.devices.map(\.specs)).count, DeviceCatalogue.devices.count, "one specifications page per device")
    }

    func testNamesAndAliasesAreUniqueAcrossTheCatalogue() {
        let all = DeviceCatalogue.devices.flatMap { [$0.name] + $0.aliases }
        XCTAssertEqual(Set(all).count, all.count, "a name or alias used twice")
    }

    func testEveryNameAndAliasResolvesToItsRow() throws {
        for d in DeviceCatalogue.devices {
            XCTAssertEqual(try device(d.name).name, d.name)
            for alias in d.aliases { XCTAssertEqual(try device(alias).name, d.name, alias) }
        }
    }

    func testTheGuidelinesRowNameNamesTheNewestProductOfTheRow() throws {
        XCTAssertEqual(try device("iPad Pro 13-inch").name, "iPad Pro 13-inch (M5)")
        XCTAssertEqual(try device("iPad Pro 11-inch 1st–4th generation").name, "iPad Pro 11-inch (4th generation)")
        XCTAssertEqual(try device("iPhone SE 4.7-inch").name, "iPhone SE (3rd generation)")
        XCTAssertEqual(try device("iPhone SE 4-inch").name, "iPhone SE (1st generation)")
        XCTAssertEqual(try device("iPhone 15 Pro Max").aliases, [], "a product named as its row has no alias")
    }

    func testARowsFormerProductNamesStillResolve() throws {
        // The iPad Pro (M5) (October 2025) took over the rows of the iPad Pro (M4): same screens.
        XCTAssertEqual(try device("iPad Pro 13-inch (M4)").name, "iPad Pro 13-inch (M5)")
        XCTAssertEqual(try device("iPad Pro 11-inch (M4)").name, "iPad Pro 11-inch (M5)")
        XCTAssertEqual(try device("iPad Pro 13-inch (M5)").aliases, ["iPad Pro 13-inch", "iPad Pro 13-inch (M4)"])
        XCTAssertThrowsError(try device("ipad pro 13-inch (m4)")) { e in
            XCTAssertEqual(message(of: e), "no device named \"ipad pro 13-inch (m4)\" in the catalogue (did you mean \"iPad Pro 13-inch (M5)\"?)")
        }
    }

    func testTheMiniIPhonesReportTheSizeAppsSeeWithTheGuidelinesSizeBesideIt() throws {
        for name in ["iPhone 12 mini", "iPhone 13 mini"] {
            let d = try device(name)
            XCTAssertEqual(d.portraitSize, Size(375, 812), name)
            XCTAssertEqual(d.guidelinesSize, Size(360, 780), name)
            XCTAssertEqual(d.source, DeviceCatalogue.earlierLayoutGuidelines, name)
            XCTAssertEqual(try d.scene(.full, orientation: .landscapeLeft).size, Size(812, 375), name)
        }
        let others = DeviceCatalogue.devices.filter { $0.portraitSize != $0.guidelinesSize }.map(\.name)
        XCTAssertEqual(others, ["iPhone 13 mini", "iPhone 12 mini"], "only the minis differ from the guidelines")
    }

    func testAnUnknownNameIsAnErrorThatSuggestsTheRightSpelling() {
        XCTAssertThrowsError(try device("iphone 15 pro max")) { e in
            XCTAssertEqual(message(of: e), "no device named \"iphone 15 pro max\" in the catalogue (did you mean \"iPhone 15 Pro Max\"?)")
        }
        XCTAssertThrowsError(try device("Pixel 9")) { e in
            XCTAssertEqual(message(of: e), "no device named \"Pixel 9\" in the catalogue")
        }
    }

    /// The guidelines' "iOS, iPadOS device screen dimensions" table, row by row
    /// (guidelines' name, portrait points, scale), as of its change of September 9, 2025:
    /// https://developer.apple.com/design/human-interface-guidelines/layout#Specifications
    /// The iPod touch row is left out of the catalogue.
    private let guidelinesScreens = """
        iPad Pro 13-inch | 1032x1376 | 2
        iPad Pro 12.9-inch | 1024x1366 | 2
        iPad Pro 11-inch 5th and 6th generation | 834x1210 | 2
        iPad Pro 11-inch 1st–4th generation | 834x1194 | 2
        iPad Pro 10.5-inch | 834x1112 | 2
        iPad Pro 9.7-inch | 768x1024 | 2
        iPad Air 13-inch | 1024x1366 | 2
        iPad Air 11-inch | 820x1180 | 2
        iPad Air 10.9-inch | 820x1180 | 2
        iPad Air 10.5-inch | 834x1112 | 2
        iPad Air 9.7-inch | 768x1024 | 2
        iPad 11-inch | 820x1180 | 2
        iPad 10.2-inch | 810x1080 | 2
        iPad 9.7-inch | 768x1024 | 2
        iPad mini 8.3-inch | 744x1133 | 2
        iPad mini 7.9-inch | 768x1024 | 2
        iPhone 17 Pro Max | 440x956 | 3
        iPhone 17 Pro | 402x874 | 3
        iPhone Air | 420x912 | 3
        iPhone 17 | 402x874 | 3
        iPhone 16 Pro Max | 440x956 | 3
        iPhone 16 Pro | 402x874 | 3
        iPhone 16 Plus | 430x932 | 3
        iPhone 16 | 393x852 | 3
        iPhone 16e | 390x844 | 3
        iPhone 15 Pro Max | 430x932 | 3
        iPhone 15 Pro | 393x852 | 3
        iPhone 15 Plus | 430x932 | 3
        iPhone 15 | 393x852 | 3
        iPhone 14 Pro Max | 430x932 | 3
        iPhone 14 Pro | 393x852 | 3
        iPhone 14 Plus | 428x926 | 3
        iPhone 14 | 390x844 | 3
        iPhone 13 Pro Max | 428x926 | 3
        iPhone 13 Pro | 390x844 | 3
        iPhone 13 | 390x844 | 3
        iPhone 13 mini | 360x780 | 3
        iPhone 12 Pro Max | 428x926 | 3
        iPhone 12 Pro | 390x844 | 3
        iPhone 12 | 390x844 | 3
        iPhone 12 mini | 360x780 | 3
        iPhone 11 Pro Max | 414x896 | 3
        iPhone 11 Pro | 375x812 | 3
        iPhone 11 | 414x896 | 2
        iPhone XS Max | 414x896 | 3
        iPhone XS | 375x812 | 3
        iPhone XR | 414x896 | 2
        iPhone X | 375x812 | 3
        iPhone 8 Plus | 414x736 | 3
        iPhone 8 | 375x667 | 2
        iPhone 7 Plus | 414x736 | 3
        iPhone 7 | 375x667 | 2
        iPhone 6s Plus | 414x736 | 3
        iPhone 6s | 375x667 | 2
        iPhone 6 Plus | 414x736 | 3
        iPhone 6 | 375x667 | 2
        iPhone SE 4.7-inch | 375x667 | 2
        iPhone SE 4-inch | 320x568 | 2
        """

    func testTheCatalogueIsTheGuidelinesScreenTableRowByRow() throws {
        let rows = guidelinesScreens.split(separator: "\n").map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        XCTAssertEqual(DeviceCatalogue.devices.map(\.guidelinesName), rows.map { $0[0] }, "the same rows in the same order")
        for r in rows {
            let d = try device(r[0])
            XCTAssertEqual(d.guidelinesSize.description, r[1] + " pt", r[0])
            XCTAssertEqual(d.scale, Double(r[2]), r[0])
            XCTAssertEqual(d.idiom, r[0].hasPrefix("iPad") ? .pad : .phone, r[0])
        }
    }

    /// Device traits from each product's technical specifications (the row's `specs`):
    /// wide color (P3) from the iPhone 7 and the 9.7-inch iPad Pro on (iOS Device
    /// Compatibility Reference, Table 2-2: the iPhone 6s, SE, 6 Plus, 6 and the
    /// iPad Air 2 are sRGB); 3D Touch on the iPhone 6s to XS Max but not the XR;
    /// an HDR display on the OLED iPhones from the X and the XDR iPads.
    func testDeviceTraitsFollowTheSpecifications() throws {
        let sRGB = ["iPad Air 2", "iPad (A16)", "iPad (9th generation)", "iPad (6th generation)",
                    "iPhone 6s Plus", "iPhone 6s", "iPhone 6 Plus", "iPhone 6", "iPhone SE (1st generation)"]
        let threeDTouch = ["iPhone XS Max", "iPhone XS", "iPhone X", "iPhone 8 Plus", "iPhone 8",
                           "iPhone 7 Plus", "iPhone 7", "iPhone 6s Plus", "iPhone 6s"]
        let standardRange = ["iPad Pro 11-inch (4th generation)", "iPad Pro (10.5-inch)", "iPad Pro (9.7-inch)",
                             "iPad Air 13-inch (M3)", "iPad Air 11-inch (M3)", "iPad Air (5th generation)",
                             "iPad Air (3rd generation)", "iPad Air 2", "iPad (A16)", "iPad (9th generation)",
                             "iPad (6th generation)", "iPad mini (A17 Pro)", "iPad mini (5th generation)",
                             "iPhone 11", "iPhone XR", "iPhone 8 Plus", "iPhone 8", "iPhone 7 Plus", "iPhone 7",
                             "iPhone 6s Plus", "iPhone 6s", "iPhone 6 Plus", "iPhone 6",
                             "iPhone SE (3rd generation)", "iPhone SE (1st generation)"]
        for d in DeviceCatalogue.devices {
            XCTAssertEqual(d.gamut, sRGB.contains(d.name) ? .sRGB : .p3, d.name)
            XCTAssertEqual(d.forceTouch, threeDTouch.contains(d.name), d.name)
            XCTAssertEqual(d.hdr, !standardRange.contains(d.name), d.name)
        }
    }

    func testScreenTraitsCarryTheDevicesTraitsOverTheUsersSettings() throws {
        let settings = TraitCollection { $0[Sys.userInterfaceStyle] = .string("dark") }
        let t = try device("iPhone 6s").screenTraits(.landscapeLeft, settings: settings)
        XCTAssertEqual(t[Sys.userInterfaceStyle], .string("dark"))
        XCTAssertEqual(t[Sys.userInterfaceIdiom], .string("phone"))
        XCTAssertEqual(t[Sys.displayScale], .number(2))
        XCTAssertEqual(t[Sys.displayGamut], .string("SRGB"))
        XCTAssertEqual(t[Sys.forceTouchCapability], .string("available"))
        XCTAssertEqual(t[Sys.imageDynamicRange], .string("standard"))
        XCTAssertEqual(t[Sys.horizontalSizeClass], .string("compact"))
        XCTAssertEqual(t[Sys.verticalSizeClass], .string("compact"))
        let pad = try device("iPad Pro 13-inch (M5)").screenTraits(.portrait, settings: settings)
        XCTAssertEqual(pad[Sys.userInterfaceIdiom], .string("pad"))
        XCTAssertEqual(pad[Sys.displayGamut], .string("P3"))
        XCTAssertEqual(pad[Sys.forceTouchCapability], .string("unavailable"))
        XCTAssertEqual(pad[Sys.imageDynamicRange], .string("high"))
        XCTAssertEqual(pad[Sys.horizontalSizeClass], .string("regular"))
    }

    func testTheMainScreenIsACatalogueDeviceWithTheSameTraits() throws {
        let main = TraitWorld.mainScreenTraits
        let deviceTraits = [Sys.userInterfaceIdiom, Sys.displayScale, Sys.displayGamut, Sys.forceTouchCapability,
                            Sys.imageDynamicRange, Sys.horizontalSizeClass, Sys.verticalSizeClass]
        let settingsOnly = main.modifyingTraits { t in for d in deviceTraits { t[d] = d.defaultValue } }
        XCTAssertNotEqual(settingsOnly, main)
        XCTAssertEqual(try DeviceCatalogue.main.screenTraits(.portrait, settings: settingsOnly), main)
        XCTAssertEqual(DeviceCatalogue.main.name, "iPhone 14 Pro")
    }

    // MARK: Orientation

    func testLandscapeSwapsThePortraitSize() throws {
        // An iPhone 15 Pro Max in landscapeLeft is 932 x 430 (docs/devices.md, "Orientations").
        let phone = try device("iPhone 15 Pro Max")
        XCTAssertEqual(try phone.scene(.full, orientation: .landscapeLeft).size, Size(932, 430))
        XCTAssertEqual(try phone.scene(.full, orientation: .landscapeRight).size, Size(932, 430))
        XCTAssertEqual(try phone.scene(.full, orientation: .portrait).size, Size(430, 932))
        let pad = try device("iPad Pro 13-inch (M5)")
        XCTAssertEqual(try pad.scene(.full, orientation: .landscapeRight).size, Size(1376, 1032))
        XCTAssertEqual(try pad.scene(.full, orientation: .portraitUpsideDown).size, Size(1032, 1376))
    }

    func testAnIPhoneWithoutAHomeButtonDoesNotTurnUpsideDown() throws {
        // "UIViewController doesn't support this case on devices without a Home button."
        // https://developer.apple.com/documentation/uikit/uiinterfaceorientation/portraitupsidedown
        XCTAssertThrowsError(try device("iPhone 15 Pro").scene(.full, orientation: .portraitUpsideDown)) { e in
            XCTAssertEqual(message(of: e), "iPhone 15 Pro does not turn to \"portraitUpsideDown\"; it turns to \"portrait\", \"landscapeLeft\", \"landscapeRight\"")
        }
        let se = try device("iPhone SE (3rd generation)")
        XCTAssertEqual(se.orientations, Orientation.allCases)
        let upsideDown = try se.scene(.full, orientation: .portraitUpsideDown)
        XCTAssertEqual(upsideDown.size, Size(375, 667))
        XCTAssertEqual(upsideDown.sizeClasses, .compactRegular, "the table's portrait column")
    }

    func testEveryIPadTurnsToAllFourOrientations() {
        for d in DeviceCatalogue.devices where d.idiom == .pad {
            XCTAssertEqual(d.orientations, Orientation.allCases, d.name)
        }
    }

    // MARK: Apple's size-class tables

    /// The guidelines' "iOS, iPadOS device size classes" table (row: portrait, landscape;
    /// cR = compact width, regular height), as of September 9, 2025:
    /// https://developer.apple.com/design/human-interface-guidelines/layout#Specifications
    private let guidelinesSizeClasses = """
        iPad Pro 12.9-inch | rR | rR
        iPad Pro 11-inch | rR | rR
        iPad Pro 10.5-inch | rR | rR
        iPad Air 13-inch | rR | rR
        iPad Air 11-inch | rR | rR
        iPad 11-inch | rR | rR
        iPad 9.7-inch | rR | rR
        iPad mini 7.9-inch | rR | rR
        iPhone 17 Pro Max | cR | rC
        iPhone 17 Pro | cR | cC
        iPhone Air | cR | rC
        iPhone 17 | cR | cC
        iPhone 16 Pro Max | cR | rC
        iPhone 16 Pro | cR | cC
        iPhone 16 Plus | cR | rC
        iPhone 16 | cR | cC
        iPhone 16e | cR | cC
        iPhone 15 Pro Max | cR | rC
        iPhone 15 Pro | cR | cC
        iPhone 15 Plus | cR | rC
        iPhone 15 | cR | cC
        iPhone 14 Pro Max | cR | rC
        iPhone 14 Pro | cR | cC
        iPhone 14 Plus | cR | rC
        iPhone 14 | cR | cC
        iPhone 13 Pro Max | cR | rC
        iPhone 13 Pro | cR | cC
        iPhone 13 | cR | cC
        iPhone 13 mini | cR | cC
        iPhone 12 Pro Max | cR | rC
        iPhone 12 Pro | cR | cC
        iPhone 12 | cR | cC
        iPhone 12 mini | cR | cC
        iPhone 11 Pro Max | cR | rC
        iPhone 11 Pro | cR | cC
        iPhone 11 | cR | rC
        iPhone XS Max | cR | rC
        iPhone XS | cR | cC
        iPhone XR | cR | rC
        iPhone X | cR | cC
        iPhone 8 Plus | cR | rC
        iPhone 8 | cR | cC
        iPhone 7 Plus | cR | rC
        iPhone 7 | cR | cC
        iPhone 6s Plus | cR | rC
        iPhone 6s | cR | cC
        iPhone SE | cR | cC
        """

    func testFullScreenSizeClassesAreTheGuidelinesDeviceTable() throws {
        var covered = Set<String>()
        for line in guidelinesSizeClasses.split(separator: "\n") {
            let r = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let devices = DeviceCatalogue.devices.filter { $0.fullScreen?.row == r[0] }
            XCTAssertFalse(devices.isEmpty, "no device for the row \(r[0])")
            for d in devices {
                covered.insert(d.name)
                for o in d.orientations {
                    let g = try d.scene(.full, orientation: o)
                    XCTAssertEqual(g.sizeClasses, classes(o.isLandscape ? r[2] : r[1]), "\(d.name) \(o)")
                    XCTAssertEqual(g.basis, .deviceTable(row: r[0]))
                    XCTAssertEqual(g.size, d.screenSize(o))
                }
            }
        }
        let untabled = DeviceCatalogue.devices.filter { !covered.contains($0.name) }.map(\.name)
        XCTAssertEqual(untabled, ["iPad Pro 13-inch (M5)", "iPad Pro (9.7-inch)", "iPad Air (5th generation)",
                                  "iPad Air (3rd generation)", "iPad Air 2", "iPad (9th generation)",
                                  "iPad mini (A17 Pro)", "iPhone 6 Plus", "iPhone 6"], "the devices the table leaves out")
    }

    func testTheLargerIPhonesAreRegularWidthInLandscape() throws {
        // The device size-class table: "iPhone 15 Pro Max | Compact width, regular height | Regular width, compact height";
        // "iPhone 15 Pro | Compact width, regular height | Compact width, compact height".
        XCTAssertEqual(try device("iPhone 15 Pro Max").scene(.full, orientation: .landscapeRight).sizeClasses, .regularCompact)
        XCTAssertEqual(try device("iPhone 15 Pro").scene(.full, orientation: .landscapeRight).sizeClasses, .compactCompact)
    }

    /// The guidelines' multitasking table (model | mode | portrait | landscape, "N/A" = none),
    /// revision of June 21, 2023:
    /// https://developer.apple.com/design/human-interface-guidelines/layout
    private let multitasking = """
        12.9” iPad Pro | 2/3 | cR | rR
        12.9” iPad Pro | 1/2 | N/A | rR
        12.9” iPad Pro | 1/3 | cR | cR
        11” iPad Pro | 2/3 | cR | rR
        11” iPad Pro | 1/2 | N/A | cR
        11” iPad Pro | 1/3 | cR | cR
        10.5” iPad Pro | 2/3 | cR | rR
        10.5” iPad Pro | 1/2 | N/A | cR
        10.5” iPad Pro | 1/3 | cR | cR
        9.7” iPad | 2/3 | cR | rR
        9.7” iPad | 1/2 | N/A | cR
        9.7” iPad | 1/3 | cR | cR
        7.9” iPad mini 4 | 2/3 | cR | rR
        7.9” iPad mini 4 | 1/2 | N/A | cR
        7.9” iPad mini 4 | 1/3 | cR | cR
        """

    private var multitaskingCells: [(model: String, size: SceneSize, portrait: SizeClasses?, landscape: SizeClasses)] {
        multitasking.split(separator: "\n").map { line in
            let r = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (r[0], SceneSize(name: r[1])!, r[2] == "N/A" ? nil : classes(r[2]), classes(r[3]))
        }
    }

    func testTheMultitaskingTableIsTheGuidelinesTable() {
        for cell in multitaskingCells {
            guard let row = MultitaskingTable.rows.first(where: { $0.model == cell.model }) else {
                XCTFail("no row \(cell.model)"); continue
            }
            XCTAssertEqual(row.sizeClasses(cell.size, .portrait), cell.portrait, "\(cell.model) \(cell.size)")
            XCTAssertEqual(row.sizeClasses(cell.size, .landscapeLeft), cell.landscape, "\(cell.model) \(cell.size)")
        }
        XCTAssertEqual(MultitaskingTable.rows.count * 3, multitaskingCells.count)
    }

    func testTheMultitaskingRowsAreAboutCatalogueDevicesOfTheirSize() throws {
        for row in MultitaskingTable.rows {
            for name in row.devices { XCTAssertEqual(try device(name).portraitSize, row.portraitSize, name) }
        }
        XCTAssertNil(MultitaskingTable.row(forDevice: "iPad mini (5th generation)"), "the table names the iPad mini 4")
    }

    func testSplitViewFollowsTheMultitaskingTableByModelAndOrientation() throws {
        for cell in multitaskingCells {
            for name in MultitaskingTable.rows.first(where: { $0.model == cell.model })!.devices {
                let d = try device(name)
                let landscape = try d.scene(cell.size, orientation: .landscapeLeft)
                XCTAssertEqual(landscape.sizeClasses, cell.landscape, "\(name) \(cell.size) landscape")
                XCTAssertEqual(landscape.basis, .multitaskingTable(row: cell.model))
                if let p = cell.portrait {
                    XCTAssertEqual(try d.scene(cell.size, orientation: .portrait).sizeClasses, p, "\(name) \(cell.size) portrait")
                } else {
                    XCTAssertThrowsError(try d.scene(cell.size, orientation: .portrait), "\(name) \(cell.size) is N/A in portrait")
                }
            }
        }
        // The 12.9-inch iPad Pro in landscape is regular at 2/3, compact at 1/3.
        let pro = try device("iPad Pro 12.9-inch (6th generation)")
        XCTAssertEqual(try pro.scene(.twoThirds, orientation: .landscapeRight).sizeClasses.horizontal, .regular)
        XCTAssertEqual(try pro.scene(.oneThird, orientation: .landscapeRight).sizeClasses.horizontal, .compact)
    }

    func testSlideOverIsCompactWidthRegularHeightOnEveryIPadInEitherOrientation() throws {
        // Adopting Multitasking Enhancements on iPad, Figure 2-1; WWDC15 session 205 ("Slide Over: compact").
        for d in DeviceCatalogue.devices where d.idiom == .pad {
            for o in Orientation.allCases {
                let g = try d.scene(.slideOver, orientation: o)
                XCTAssertEqual(g.sizeClasses, .compactRegular, "\(d.name) \(o)")
                XCTAssertEqual(g.basis, .slideOver)
                XCTAssertEqual(g.size.height, d.screenSize(o).height)
            }
        }
    }

    func testSplitViewWidthsAreTheMeasuredOnes() throws {
        // Widths measured under iOS 9 to 11 (third-party, not Apple's tables):
        // https://gist.github.com/macguru/b7a01e3f0e9ae6f350d5, https://gist.github.com/sgl0v/3509f3ae628f4047cdb6
        let measured: [(String, Orientation, SceneSize, Double)] = [
            ("iPad Pro 12.9-inch (6th generation)", .landscapeLeft, .twoThirds, 981),
            ("iPad Pro 12.9-inch (6th generation)", .landscapeLeft, .half, 678),
            ("iPad Pro 12.9-inch (6th generation)", .landscapeLeft, .oneThird, 375),
            ("iPad Pro 12.9-inch (6th generation)", .landscapeLeft, .slideOver, 375),
            ("iPad Pro 12.9-inch (6th generation)", .portrait, .twoThirds, 639),
            ("iPad Pro 12.9-inch (6th generation)", .portrait, .oneThird, 375),
            ("iPad Pro 12.9-inch (6th generation)", .portrait, .slideOver, 375),
            ("iPad Pro (10.5-inch)", .landscapeLeft, .twoThirds, 782),
            ("iPad Pro (10.5-inch)", .landscapeLeft, .half, 551),
            ("iPad Pro (10.5-inch)", .landscapeLeft, .oneThird, 320),
            ("iPad Pro (10.5-inch)", .portrait, .twoThirds, 504),
            ("iPad Pro (10.5-inch)", .portrait, .oneThird, 320),
            ("iPad (6th generation)", .landscapeLeft, .twoThirds, 694),
            ("iPad (6th generation)", .landscapeLeft, .half, 507),
            ("iPad (6th generation)", .landscapeLeft, .oneThird, 320),
            ("iPad (6th generation)", .landscapeLeft, .slideOver, 320),
            ("iPad (6th generation)", .portrait, .twoThirds, 438),
            ("iPad (6th generation)", .portrait, .oneThird, 320),
            ("iPad (6th generation)", .portrait, .slideOver, 320),
        ]
        for (name, o, size, width) in measured {
            let d = try device(name)
            XCTAssertEqual(try d.scene(size, orientation: o).size, Size(width, d.screenSize(o).height), "\(name) \(o) \(size)")
        }
    }

    func testAnIPhoneOffersOnlyFullScreen() throws {
        let phone = try device("iPhone 15 Pro Max")
        XCTAssertEqual(phone.sceneSizes(.landscapeLeft), [.full])
        for size in [SceneSize.twoThirds, .half, .oneThird, .slideOver] {
            XCTAssertThrowsError(try phone.scene(size, orientation: .landscapeLeft)) { e in
                XCTAssertEqual(message(of: e), "iPhone 15 Pro Max offers no \"\(size)\" scene in \"landscapeLeft\"; it offers \"full\" and custom sizes { width, height }")
            }
        }
    }

    func testAnIPadOffersNoHalfInPortrait() throws {
        XCTAssertThrowsError(try device("iPad Air 11-inch (M3)").scene(.half, orientation: .portraitUpsideDown)) { e in
            XCTAssertEqual(message(of: e), "iPad Air 11-inch (M3) offers no \"1/2\" scene in \"portraitUpsideDown\"; it offers \"full\", \"2/3\", \"1/3\", \"slideOver\" and custom sizes { width, height }")
        }
        XCTAssertEqual(try device("iPad Air 11-inch (M3)").sceneSizes(.landscapeRight), [.full, .twoThirds, .half, .oneThird, .slideOver])
    }

    // MARK: The rule for sizes no table lists

    func testTheRuleAgreesWithEveryTabledRow() throws {
        for d in DeviceCatalogue.devices where d.fullScreen != nil {
            for o in d.orientations {
                let g = try d.scene(.full, orientation: o)
                XCTAssertEqual(SizeClassRule.sizeClasses(g.size), g.sizeClasses, "\(d.name) \(o) full")
            }
        }
        for row in MultitaskingTable.rows {
            for o in [Orientation.portrait, .landscapeLeft] {
                let screen = o.isLandscape ? row.portraitSize.swapped : row.portraitSize
                for size in [SceneSize.twoThirds, .half, .oneThird] {
                    guard let tabled = row.sizeClasses(size, o) else { continue }
                    let scene = Size(SplitView.width(of: size, screen: screen, longSide: row.portraitSize.height), screen.height)
                    XCTAssertEqual(SizeClassRule.sizeClasses(scene), tabled, "\(row.model) \(size) \(o): \(scene)")
                }
                let slideOver = Size(SplitView.width(of: .slideOver, screen: screen, longSide: row.portraitSize.height), screen.height)
                XCTAssertEqual(SizeClassRule.sizeClasses(slideOver), .compactRegular, "\(row.model) Slide Over \(o)")
            }
        }
    }

    func testCustomSizesFollowTheRuleAtItsBounds() throws {
        let pad = try device("iPad Pro 13-inch (M5)")
        func custom(_ w: Double, _ h: Double) throws -> SceneGeometry { try pad.scene(.custom(Size(w, h)), orientation: .landscapeLeft) }
        XCTAssertEqual(try custom(677, 800).sizeClasses, .compactRegular)
        XCTAssertEqual(try custom(678, 800).sizeClasses, .regularRegular)
        XCTAssertEqual(try custom(700, 413).sizeClasses, .compactCompact)
        XCTAssertEqual(try custom(700, 414).sizeClasses, .regularCompact)
        XCTAssertEqual(try custom(300, 567).sizeClasses, .compactCompact)
        XCTAssertEqual(try custom(300, 568).sizeClasses, .compactRegular)
        XCTAssertEqual(try custom(700, 900).size, Size(700, 900))
        XCTAssertEqual(try custom(700, 900).basis, .rule)
        XCTAssertEqual(try custom(700, 900).source, SizeClassRule.source)
    }

    func testACustomSizeMustBePositiveAndFinite() throws {
        let phone = try device("iPhone 16")
        for bad in [Size(0, 500), Size(300, -1), Size(.nan, 500), Size(300, .infinity)] {
            XCTAssertThrowsError(try phone.scene(.custom(bad), orientation: .portrait)) { e in
                XCTAssertTrue(message(of: e).hasPrefix("a scene's width and height must be positive, finite numbers of points, not { width = "), message(of: e))
            }
        }
    }

    func testDevicesAndFractionsNoTableListsFollowTheRule() throws {
        let thirteen = try device("iPad Pro 13-inch (M5)")
        XCTAssertEqual(try thirteen.scene(.full, orientation: .portrait), SceneGeometry(size: Size(1032, 1376), sizeClasses: .regularRegular, basis: .rule))
        XCTAssertEqual(try thirteen.scene(.half, orientation: .landscapeLeft), SceneGeometry(size: Size(683, 1032), sizeClasses: .regularRegular, basis: .rule))
        XCTAssertEqual(try thirteen.scene(.twoThirds, orientation: .portrait), SceneGeometry(size: Size(647, 1376), sizeClasses: .compactRegular, basis: .rule))
        let elevenM5 = try device("iPad Pro 11-inch (M5)")
        XCTAssertEqual(try elevenM5.scene(.half, orientation: .landscapeLeft), SceneGeometry(size: Size(600, 834), sizeClasses: .compactRegular, basis: .rule))
        XCTAssertEqual(try elevenM5.scene(.twoThirds, orientation: .landscapeLeft), SceneGeometry(size: Size(880, 834), sizeClasses: .regularRegular, basis: .rule))
        XCTAssertEqual(try device("iPhone 6 Plus").scene(.full, orientation: .landscapeLeft).sizeClasses, .regularCompact)
    }

    func testSceneSizeNamesReadBack() {
        for s in SceneSize.named { XCTAssertEqual(SceneSize(name: s.description), s) }
        XCTAssertEqual(SceneSize.named.map(\.description), ["full", "2/3", "1/2", "1/3", "slideOver"])
        XCTAssertNil(SceneSize(name: "3/4"))
        XCTAssertNil(SceneSize(name: "Full"))
    }

    // MARK: docs/devices.md

    /// The catalogue as docs/devices.md shows it, made from the table.
    static func catalogueMarkdown() throws -> String {
        func short(_ c: SizeClasses) -> String { "w\(c.horizontal == .compact ? "C" : "R") h\(c.vertical == .compact ? "C" : "R")" }
        var lines = ["| Device | Also accepted | Portrait (pt) | Scale | Gamut | 3D Touch | HDR | Portrait | Landscape |",
                     "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for d in DeviceCatalogue.devices {
            let p = try d.scene(.full, orientation: .portrait), l = try d.scene(.full, orientation: .landscapeLeft)
            let rule = p.basis == .rule ? " (rule)" : ""
            let guidelines = d.guidelinesSize == d.portraitSize ? ""
                : " (guidelines: \(formatPoints(d.guidelinesSize.width)) × \(formatPoints(d.guidelinesSize.height)))"
            lines.append("| \(d.name) | \(d.aliases.joined(separator: ", ")) | \(formatPoints(d.portraitSize.width)) × \(formatPoints(d.portraitSize.height))\(guidelines) "
                + "| @\(formatPoints(d.scale))x | \(d.gamut.rawValue) | \(d.forceTouch ? "yes" : "no") | \(d.hdr ? "yes" : "no") "
                + "| \(short(p.sizeClasses))\(rule) | \(short(l.sizeClasses))\(rule) |")
        }
        lines.append("")
        lines.append("| iPad | Orientation | 2/3 | 1/2 | 1/3 | Slide Over |")
        lines.append("| --- | --- | --- | --- | --- | --- |")
        for d in DeviceCatalogue.devices where d.idiom == .pad {
            for o in [Orientation.portrait, .landscapeLeft] {
                var cells: [String] = []
                for s in [SceneSize.twoThirds, .half, .oneThird, .slideOver] {
                    guard let g = try? d.scene(s, orientation: o) else { cells.append("—"); continue }
                    cells.append("\(formatPoints(g.size.width)) pt, \(short(g.sizeClasses))\(g.basis == .rule ? " (rule)" : "")")
                }
                lines.append("| \(d.name) | \(o.isLandscape ? "landscape" : "portrait") | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n")
    }

    func testTheDocsShowTheCatalogueAsTheTableHasIt() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/devices.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let begin = "<!-- catalogue: made from Sources/TraitEngine/Devices by DeviceCatalogueTests -->\n"
        let end = "\n<!-- end of catalogue -->"
        guard let a = text.range(of: begin), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            return XCTFail("docs/devices.md has no catalogue markers")
        }
        let expected = try Self.catalogueMarkdown()
        XCTAssertEqual(String(text[a.upperBound..<b.lowerBound]), expected, "docs/devices.md is out of step; the catalogue is:\n\(expected)")
    }

    func testTheMainScreenIsConfiguredOnlyBeforeItIsUsed() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        let se = try DeviceCatalogue.device(named: "iPhone SE (3rd generation)")
        try world.configureMainScreen(device: se)
        XCTAssertEqual(world.mainScreen.device?.name, se.name)
        XCTAssertThrowsError(try world.configureMainScreen(device: DeviceCatalogue.main))
        XCTAssertEqual(world.mainScreen.device?.name, se.name)
    }
    func testTheMainScreenStartsInTheConfiguredOrientation() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        let max = try device("iPhone 15 Pro Max")
        try world.configureMainScreen(device: max, orientation: .landscapeLeft)
        XCTAssertEqual(world.mainScreen.orientation, .landscapeLeft)
        XCTAssertEqual(world.mainScreen.size, Size(932, 430))
        // The larger iPhones are regular width, compact height in landscape (the device size-class table).
        XCTAssertEqual(world.mainScreen.traitCollection[Sys.horizontalSizeClass], .string("regular"))
        XCTAssertEqual(world.mainScreen.traitCollection[Sys.verticalSizeClass], .string("compact"))
    }

    func testScenesOnTheMainScreenStartAtTheConfiguredSize() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        let pad = try device("iPad Pro 12.9-inch (6th generation)")
        try world.configureMainScreen(device: pad, orientation: .landscapeLeft, sceneSize: .half)
        let scene = WindowScene(world: world, screen: world.mainScreen)
        XCTAssertEqual(scene.size, .half)
        // The multitasking table: the 12.9-inch iPad Pro's landscape 1/2 is regular width.
        XCTAssertEqual(scene.geometry?.size, Size(678, 1024))
        XCTAssertEqual(scene.geometry?.sizeClasses, .regularRegular)
        // A scene on another screen starts full.
        let other = try Screen(world: world, device: pad)
        XCTAssertEqual(WindowScene(world: world, screen: other).size, .full)
    }

    func testASceneMadeAfterARotationThatLeavesNoSuchSizeStartsFull() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        try world.configureMainScreen(device: try device("iPad Pro 12.9-inch (6th generation)"), orientation: .landscapeLeft,
                                      sceneSize: .half)
        // An iPad offers no 1/2 in portrait (the multitasking table's "N/A").
        try world.mainScreen.rotate(to: .portrait)
        XCTAssertEqual(WindowScene(world: world, screen: world.mainScreen).size, .full)
    }

    func testAConfigurationTheDeviceDoesNotOfferIsRefused() throws {
        let world = TraitWorld()
        defer { world.tearDown() }
        let se = try device("iPhone SE (3rd generation)")
        XCTAssertThrowsError(try world.configureMainScreen(device: se, sceneSize: .oneThird))
        XCTAssertThrowsError(try world.configureMainScreen(device: try device("iPhone 15"), orientation: .portraitUpsideDown))
        XCTAssertThrowsError(try world.configureMainScreen(device: try device("iPad Pro 13-inch (M5)"), sceneSize: .half))
        XCTAssertEqual(world.mainScreenDevice.name, DeviceCatalogue.main.name)
        XCTAssertEqual(world.mainScreen.orientation, .portrait)
    }
}

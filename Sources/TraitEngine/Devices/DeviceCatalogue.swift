/// The devices TraitLab knows: the iPhones and iPads of the device screen-size
/// table in Apple's Human Interface Guidelines, "Layout" → "Specifications"
/// (``layoutGuidelines``; the rows as of its change of September 9, 2025).
///
/// One row per row of that table, named for the newest product the row
/// describes, as Apple names the product; the table's own row name and the
/// names of the products the row described before are accepted too
/// (``Device/aliases``). The iPod touch row is left out (not an iPhone or an
/// iPad). Each row cites its sources: the size in points and the scale come
/// from the guidelines' table (except where UIKit reports apps another size:
/// the iPhone 12 mini and 13 mini), the portrait and landscape size classes from
/// the guidelines' device size-class table (the row named there, or nil when
/// that table does not list the device), and the device traits from the
/// product's technical specifications page:
/// - gamut: "Wide color display (P3)" in the specifications → `P3`, else `SRGB`
///   (for the older devices also the iOS Device Compatibility Reference,
///   Table 2-2: https://developer.apple.com/library/archive/documentation/DeviceInformation/Reference/iOSDeviceCompatibility/Displays/Displays.html);
/// - 3D Touch → force touch `available`;
/// - "HDR display" (Super Retina XDR, Liquid Retina XDR, Ultra Retina XDR) → `imageDynamicRange` `high`, else `standard`;
/// - a Home button (with Touch ID in it), which decides whether an iPhone turns upside down.
public enum DeviceCatalogue {
    /// The layout guidelines' specifications: screen sizes, scales and size classes.
    public static let layoutGuidelines = "https://developer.apple.com/design/human-interface-guidelines/layout#Specifications"

    /// `ui.Screen.main`'s device: the catalogue's device with the same traits as
    /// the default screen profile (``TraitWorld/mainScreenTraits``). An iPhone
    /// that shipped with iOS 16 and runs iOS 26, so it ran every OS version
    /// TraitLab models.
    public static let mainDeviceName = "iPhone 14 Pro"

    /// The device named ``mainDeviceName``: `TraitWorld.mainScreen`'s unless ``TraitWorld/configureMainScreen(device:orientation:sceneSize:settings:)`` chose another.
    public static var main: Device { devices.first { $0.name == mainDeviceName }! } // invariant: a catalogue row (test)

    /// The size UIKit reports to apps on the iPhone 12 mini and 13 mini, in
    /// portrait. Today's guidelines list 360 x 780 points (@3x, 1080 x 2340
    /// pixels: the panel). Apps see 375 x 812 at scale 3: UIKit renders the
    /// iPhone X's point size and scales the result down to the panel, as on the
    /// Plus iPhones (`UIScreen.nativeScale`, "the native scale factor for the
    /// physical screen", is 2.88 there, not 3). Sources:
    /// - the guidelines' earlier "Adaptivity and Layout" page, whose "Device
    ///   screen sizes and orientations" table listed the iPhone 12 mini and
    ///   13 mini at 375x812 pt (1125x2436 px @3x), before the guidelines'
    ///   redesign of June 2022: ``earlierLayoutGuidelines``;
    /// - Xcode's iPhone 12 mini and 13 mini simulators, whose `UIScreen.main.bounds`
    ///   is 375 x 812 with `nativeScale` 2.88 (measured by Geoff Hackworth,
    ///   "How iOS Apps Adapt to the various iPhone 12 Screen Sizes", October 2020:
    ///   https://hacknicity.medium.com/how-ios-apps-adapt-to-the-various-iphone-12-screen-sizes-e45c021e1b8b).
    /// TraitLab models what an app sees, so these rows take 375 x 812; the
    /// guidelines' 360 x 780 stays beside them (``Device/guidelinesSize``).
    static let miniReportedSize = Size(375, 812)

    /// The layout guidelines' page before their June 2022 redesign ("Adaptivity and Layout").
    public static let earlierLayoutGuidelines = "https://developer.apple.com/design/human-interface-guidelines/ios/visual-design/adaptivity-and-layout/"

    /// The device named `name` (the product name, the guidelines' row name or a former name, exactly).
    public static func device(named name: String) throws -> Device {
        if let d = devices.first(where: { $0.name == name || $0.aliases.contains(name) }) { return d }
        let folded = name.lowercased()
        if let d = devices.first(where: { $0.name.lowercased() == folded || $0.aliases.contains { $0.lowercased() == folded } }) {
            throw TraitError("no device named \"\(name)\" in the catalogue (did you mean \"\(d.name)\"?)")
        }
        throw TraitError("no device named \"\(name)\" in the catalogue")
    }

    private static let cR = SizeClasses.compactRegular, cC = SizeClasses.compactCompact
    private static let rC = SizeClasses.regularCompact, rR = SizeClasses.regularRegular

    /// A row of the guidelines' device size-class table: its name there (nil: the product's name).
    private static func table(_ row: String?, _ portrait: SizeClasses, _ landscape: SizeClasses) -> (String?, SizeClasses, SizeClasses) {
        (row, portrait, landscape)
    }

    /// A catalogue row. `formerly`: names of older products of the row that still resolve;
    /// `reports`: the portrait size UIKit reports to apps where it differs from the
    /// guidelines' (`width` x `height`), with its source.
    private static func row(_ name: String, _ guidelinesName: String?, formerly: [String] = [], _ idiom: Device.Idiom,
                            _ width: Double, _ height: Double, reports: (Size, source: String)? = nil,
                            scale: Double, _ gamut: Device.Gamut, forceTouch: Bool, hdr: Bool, homeButton: Bool,
                            _ classes: (String?, SizeClasses, SizeClasses)?, _ specs: String) -> Device {
        Device(name: name, guidelinesName: guidelinesName ?? name, formerNames: formerly, idiom: idiom,
               portraitSize: reports?.0 ?? Size(width, height), guidelinesSize: Size(width, height),
               sizeSource: reports?.source ?? layoutGuidelines,
               scale: scale, gamut: gamut, forceTouch: forceTouch, hdr: hdr, homeButton: homeButton,
               fullScreen: classes.map { Device.TabledSizeClasses(row: $0.0 ?? name, portrait: $0.1, landscape: $0.2) },
               specs: specs)
    }

    /// The catalogue, in the guidelines' order: iPads, then iPhones, newest first.
    public static let devices: [Device] = [
        // product name, guidelines' row name (nil: the same), former names, idiom, portrait width x height in points
        // (the guidelines'), the size apps see where it differs, scale, gamut, 3D Touch, HDR display, Home button,
        // device size-class row (portrait, landscape), specifications.
        // The iPad Pro (M5) rows: Apple's product names (announced October 15, 2025; Xcode's simulators
        // "iPad Pro 13-inch (M5)" and "iPad Pro 11-inch (M5)"). The M5 models keep the M4 models' design and
        // Ultra Retina XDR display (the guidelines' rows are unchanged), so the device traits are cited from the
        // M4 models' specifications pages, which list the same display.
        row("iPad Pro 13-inch (M5)", "iPad Pro 13-inch", formerly: ["iPad Pro 13-inch (M4)"], .pad, 1032, 1376,
            scale: 2, .p3, forceTouch: false, hdr: true, homeButton: false,
            nil, "https://support.apple.com/en-us/119891"),
        row("iPad Pro 12.9-inch (6th generation)", "iPad Pro 12.9-inch", .pad, 1024, 1366, scale: 2, .p3, forceTouch: false, hdr: true, homeButton: false,
            table("iPad Pro 12.9-inch", rR, rR), "https://support.apple.com/kb/SP883"),
        row("iPad Pro 11-inch (M5)", "iPad Pro 11-inch 5th and 6th generation", formerly: ["iPad Pro 11-inch (M4)"], .pad, 834, 1210,
            scale: 2, .p3, forceTouch: false, hdr: true, homeButton: false,
            table("iPad Pro 11-inch", rR, rR), "https://support.apple.com/en-us/119892"),
        row("iPad Pro 11-inch (4th generation)", "iPad Pro 11-inch 1st–4th generation", .pad, 834, 1194, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            table("iPad Pro 11-inch", rR, rR), "https://support.apple.com/kb/SP882"),
        row("iPad Pro (10.5-inch)", "iPad Pro 10.5-inch", .pad, 834, 1112, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: true,
            table("iPad Pro 10.5-inch", rR, rR), "https://support.apple.com/kb/SP762"),
        row("iPad Pro (9.7-inch)", "iPad Pro 9.7-inch", .pad, 768, 1024, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: true,
            nil, "https://support.apple.com/kb/SP739"),
        row("iPad Air 13-inch (M3)", "iPad Air 13-inch", .pad, 1024, 1366, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            table("iPad Air 13-inch", rR, rR), "https://support.apple.com/122242"),
        row("iPad Air 11-inch (M3)", "iPad Air 11-inch", .pad, 820, 1180, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            table("iPad Air 11-inch", rR, rR), "https://support.apple.com/122241"),
        row("iPad Air (5th generation)", "iPad Air 10.9-inch", .pad, 820, 1180, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            nil, "https://support.apple.com/kb/SP866"),
        row("iPad Air (3rd generation)", "iPad Air 10.5-inch", .pad, 834, 1112, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: true,
            nil, "https://support.apple.com/kb/SP787"),
        row("iPad Air 2", "iPad Air 9.7-inch", .pad, 768, 1024, scale: 2, .sRGB, forceTouch: false, hdr: false, homeButton: true,
            nil, "https://support.apple.com/kb/SP708"),
        row("iPad (A16)", "iPad 11-inch", .pad, 820, 1180, scale: 2, .sRGB, forceTouch: false, hdr: false, homeButton: false,
            table("iPad 11-inch", rR, rR), "https://support.apple.com/122240"),
        row("iPad (9th generation)", "iPad 10.2-inch", .pad, 810, 1080, scale: 2, .sRGB, forceTouch: false, hdr: false, homeButton: true,
            nil, "https://support.apple.com/kb/SP849"),
        row("iPad (6th generation)", "iPad 9.7-inch", .pad, 768, 1024, scale: 2, .sRGB, forceTouch: false, hdr: false, homeButton: true,
            table("iPad 9.7-inch", rR, rR), "https://support.apple.com/kb/SP774"),
        row("iPad mini (A17 Pro)", "iPad mini 8.3-inch", .pad, 744, 1133, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            nil, "https://support.apple.com/en-us/121456"),
        row("iPad mini (5th generation)", "iPad mini 7.9-inch", .pad, 768, 1024, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: true,
            table("iPad mini 7.9-inch", rR, rR), "https://support.apple.com/kb/SP788"),

        row("iPhone 17 Pro Max", nil, .phone, 440, 956, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/125091"),
        row("iPhone 17 Pro", nil, .phone, 402, 874, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/125090"),
        row("iPhone Air", nil, .phone, 420, 912, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/125092"),
        row("iPhone 17", nil, .phone, 402, 874, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/125089"),
        row("iPhone 16 Pro Max", nil, .phone, 440, 956, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/121032"),
        row("iPhone 16 Pro", nil, .phone, 402, 874, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/121031"),
        row("iPhone 16 Plus", nil, .phone, 430, 932, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/121030"),
        row("iPhone 16", nil, .phone, 393, 852, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/121029"),
        row("iPhone 16e", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/122208"),
        row("iPhone 15 Pro Max", nil, .phone, 430, 932, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP904"),
        row("iPhone 15 Pro", nil, .phone, 393, 852, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP903"),
        row("iPhone 15 Plus", nil, .phone, 430, 932, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP902"),
        row("iPhone 15", nil, .phone, 393, 852, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP901"),
        row("iPhone 14 Pro Max", nil, .phone, 430, 932, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP876"),
        row("iPhone 14 Pro", nil, .phone, 393, 852, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP875"),
        row("iPhone 14 Plus", nil, .phone, 428, 926, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP874"),
        row("iPhone 14", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP873"),
        row("iPhone 13 Pro Max", nil, .phone, 428, 926, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP848"),
        row("iPhone 13 Pro", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP852"),
        row("iPhone 13", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP851"),
        // Guidelines today: 360 x 780; apps see 375 x 812 (the earlier guidelines, the simulator): miniReportedSize.
        row("iPhone 13 mini", nil, .phone, 360, 780, reports: (miniReportedSize, earlierLayoutGuidelines), scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP847"),
        row("iPhone 12 Pro Max", nil, .phone, 428, 926, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP832"),
        row("iPhone 12 Pro", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP831"),
        row("iPhone 12", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP830"),
        // Guidelines today: 360 x 780; apps see 375 x 812 (the earlier guidelines, the simulator): miniReportedSize.
        row("iPhone 12 mini", nil, .phone, 360, 780, reports: (miniReportedSize, earlierLayoutGuidelines), scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP829"),
        row("iPhone 11 Pro Max", nil, .phone, 414, 896, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP806"),
        row("iPhone 11 Pro", nil, .phone, 375, 812, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP805"),
        row("iPhone 11", nil, .phone, 414, 896, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP804"),
        row("iPhone XS Max", nil, .phone, 414, 896, scale: 3, .p3, forceTouch: true, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP780"),
        row("iPhone XS", nil, .phone, 375, 812, scale: 3, .p3, forceTouch: true, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP779"),
        row("iPhone XR", nil, .phone, 414, 896, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP781"),
        row("iPhone X", nil, .phone, 375, 812, scale: 3, .p3, forceTouch: true, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP770"),
        row("iPhone 8 Plus", nil, .phone, 414, 736, scale: 3, .p3, forceTouch: true, hdr: false, homeButton: true,
            table(nil, cR, rC), "https://support.apple.com/kb/SP768"),
        row("iPhone 8", nil, .phone, 375, 667, scale: 2, .p3, forceTouch: true, hdr: false, homeButton: true,
            table(nil, cR, cC), "https://support.apple.com/kb/SP767"),
        row("iPhone 7 Plus", nil, .phone, 414, 736, scale: 3, .p3, forceTouch: true, hdr: false, homeButton: true,
            table(nil, cR, rC), "https://support.apple.com/kb/SP744"),
        row("iPhone 7", nil, .phone, 375, 667, scale: 2, .p3, forceTouch: true, hdr: false, homeButton: true,
            table(nil, cR, cC), "https://support.apple.com/kb/SP743"),
        row("iPhone 6s Plus", nil, .phone, 414, 736, scale: 3, .sRGB, forceTouch: true, hdr: false, homeButton: true,
            table(nil, cR, rC), "https://support.apple.com/kb/SP727"),
        row("iPhone 6s", nil, .phone, 375, 667, scale: 2, .sRGB, forceTouch: true, hdr: false, homeButton: true,
            table(nil, cR, cC), "https://support.apple.com/kb/SP726"),
        row("iPhone 6 Plus", nil, .phone, 414, 736, scale: 3, .sRGB, forceTouch: false, hdr: false, homeButton: true,
            nil, "https://support.apple.com/kb/SP706"),
        row("iPhone 6", nil, .phone, 375, 667, scale: 2, .sRGB, forceTouch: false, hdr: false, homeButton: true,
            nil, "https://support.apple.com/kb/SP705"),
        row("iPhone SE (3rd generation)", "iPhone SE 4.7-inch", .phone, 375, 667, scale: 2, .p3, forceTouch: false, hdr: false, homeButton: true,
            table("iPhone SE", cR, cC), "https://support.apple.com/kb/SP867"),
        row("iPhone SE (1st generation)", "iPhone SE 4-inch", .phone, 320, 568, scale: 2, .sRGB, forceTouch: false, hdr: false, homeButton: true,
            table("iPhone SE", cR, cC), "https://support.apple.com/kb/SP738"),
    ]
}

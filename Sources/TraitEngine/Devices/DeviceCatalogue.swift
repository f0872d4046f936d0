/// The devices TraitLab knows: the iPhones and iPads of the device screen-size
/// table in Apple's Human Interface Guidelines, "Layout" → "Specifications"
/// (``layoutGuidelines``; the rows as of its change of September 9, 2025).
///
/// One row per row of that table, named for the newest product the row
/// describes, as Apple names the product; the table's own row name is accepted
/// too (``Device/aliases``). The iPod touch row is left out (not an iPhone or
/// an iPad). Each row cites its sources: the size in points and the scale come
/// from the guidelines' table, the portrait and landscape size classes from
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

    /// The device named ``mainDeviceName``: `TraitWorld.mainScreen`'s unless ``TraitWorld/configureMainScreen(device:settings:)`` chose another.
    public static var main: Device { devices.first { $0.name == mainDeviceName }! } // invariant: a catalogue row (test)

    /// The device named `name` (the product name or the guidelines' row name, exactly).
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

    private static func row(_ name: String, _ guidelinesName: String?, _ idiom: Device.Idiom, _ width: Double, _ height: Double,
                            scale: Double, _ gamut: Device.Gamut, forceTouch: Bool, hdr: Bool, homeButton: Bool,
                            _ classes: (String?, SizeClasses, SizeClasses)?, _ specs: String) -> Device {
        Device(name: name, guidelinesName: guidelinesName ?? name, idiom: idiom, portraitSize: Size(width, height),
               scale: scale, gamut: gamut, forceTouch: forceTouch, hdr: hdr, homeButton: homeButton,
               fullScreen: classes.map { Device.TabledSizeClasses(row: $0.0 ?? name, portrait: $0.1, landscape: $0.2) },
               specs: specs)
    }

    /// The catalogue, in the guidelines' order: iPads, then iPhones, newest first.
    public static let devices: [Device] = [
        // product name, guidelines' row name (nil: the same), idiom, portrait width x height in points,
        // scale, gamut, 3D Touch, HDR display, Home button, device size-class row (portrait, landscape), specifications
        row("iPad Pro 13-inch (M4)", "iPad Pro 13-inch", .pad, 1032, 1376, scale: 2, .p3, forceTouch: false, hdr: true, homeButton: false,
            nil, "https://support.apple.com/en-us/119891"),
        row("iPad Pro 12.9-inch (6th generation)", "iPad Pro 12.9-inch", .pad, 1024, 1366, scale: 2, .p3, forceTouch: false, hdr: true, homeButton: false,
            table("iPad Pro 12.9-inch", rR, rR), "https://support.apple.com/kb/SP883"),
        row("iPad Pro 11-inch (M4)", "iPad Pro 11-inch 5th and 6th generation", .pad, 834, 1210, scale: 2, .p3, forceTouch: false, hdr: true, homeButton: false,
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
        row("iPhone 13 mini", nil, .phone, 360, 780, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP847"),
        row("iPhone 12 Pro Max", nil, .phone, 428, 926, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, rC), "https://support.apple.com/kb/SP832"),
        row("iPhone 12 Pro", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP831"),
        row("iPhone 12", nil, .phone, 390, 844, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
            table(nil, cR, cC), "https://support.apple.com/kb/SP830"),
        row("iPhone 12 mini", nil, .phone, 360, 780, scale: 3, .p3, forceTouch: false, hdr: true, homeButton: false,
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

// The reference model's own view of devices, scene sizes and OS versions
// (docs/devices.md), for TraitFlowModel.swift. Deliberately small and written
// as literal data: a handful of devices with the sizes and size classes Apple's
// tables give them, the one rule for sizes no table lists, and a four-row
// table of what each OS version does. Nothing here asks the engine (no
// Device.scene, SizeClassRule or OSVersion.has): the harness alone maps these
// rows to the engine's devices and versions, by name.

// MARK: - Size classes

/// A horizontal and a vertical size class as value indices of
/// ``ModelTraits/values``: 1 compact, 2 regular.
struct ModelSizeClasses: Equatable, CustomStringConvertible {
    let horizontal: Int
    let vertical: Int
    static let cR = ModelSizeClasses(horizontal: 1, vertical: 2), cC = ModelSizeClasses(horizontal: 1, vertical: 1)
    static let rC = ModelSizeClasses(horizontal: 2, vertical: 1), rR = ModelSizeClasses(horizontal: 2, vertical: 2)
    var description: String { (horizontal == 2 ? "wR" : "wC") + (vertical == 2 ? " hR" : " hC") }

    /// Sizes no table lists (docs/devices.md, "Sizes no table lists"): regular
    /// width iff at least 678 pt wide and 414 pt tall; regular height iff at
    /// least 568 pt tall.
    static func rule(width: Double, height: Double) -> ModelSizeClasses {
        ModelSizeClasses(horizontal: width >= 678 && height >= 414 ? 2 : 1, vertical: height >= 568 ? 2 : 1)
    }
}

// MARK: - Orientations and scene sizes

enum ModelOrientation: Int, CaseIterable, CustomStringConvertible {
    case portrait, portraitUpsideDown, landscapeLeft, landscapeRight
    var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    var description: String {
        switch self {
        case .portrait: return ".portrait"
        case .portraitUpsideDown: return ".portraitUpsideDown"
        case .landscapeLeft: return ".landscapeLeft"
        case .landscapeRight: return ".landscapeRight"
        }
    }
}

/// A window scene's size: full screen, a Split View fraction, Slide Over, or
/// a size in points (which may be invalid: zero, negative, infinite or NaN).
enum ModelSceneSize: Equatable, CustomStringConvertible {
    case full, twoThirds, half, oneThird, slideOver
    case custom(Double, Double)

    static let named: [ModelSceneSize] = [.full, .twoThirds, .half, .oneThird, .slideOver]
    /// Custom sizes on and beside the rule's bounds.
    static let probes: [ModelSceneSize] = [
        .custom(678, 414), .custom(677, 414), .custom(678, 413.5), .custom(678, 568), .custom(678, 567),
        .custom(320, 568), .custom(402, 874), .custom(874, 402), .custom(1376, 1032), .custom(0.5, 0.5),
    ]
    /// Custom sizes a resize refuses.
    static let invalid: [ModelSceneSize] = [
        .custom(0, 500), .custom(500, 0), .custom(-1, 500), .custom(.infinity, 500), .custom(500, .nan),
        .custom(-.infinity, -.infinity),
    ]

    var isValid: Bool {
        guard case .custom(let w, let h) = self else { return true }
        return w.isFinite && h.isFinite && w > 0 && h > 0
    }

    /// The Split View column of ``ModelDevice/split`` (nil: not a fraction).
    var splitColumn: Int? {
        switch self {
        case .twoThirds: return 0
        case .half: return 1
        case .oneThird: return 2
        default: return nil
        }
    }

    var description: String {
        func number(_ d: Double) -> String {
            if d.isNaN { return ".nan" }
            if d.isInfinite { return d < 0 ? "-.infinity" : ".infinity" }
            return d == d.rounded() ? String(Int(d)) : String(d)
        }
        switch self {
        case .full: return ".full"
        case .twoThirds: return ".twoThirds"
        case .half: return ".half"
        case .oneThird: return ".oneThird"
        case .slideOver: return ".slideOver"
        case .custom(let w, let h): return ".custom(\(number(w)), \(number(h)))"
        }
    }
}

// MARK: - Devices

/// One device as the model knows it.
struct ModelDevice {
    /// The product's name as Apple writes it (the harness finds the engine's device by it).
    let name: String
    let isPad: Bool
    /// The screen in portrait, in points.
    let width: Double, height: Double
    /// The display scale as a value index of ``ModelTraits/values`` (1: @2x, 2: @3x).
    let scale: Int
    /// Whether it turns upside down: iPads, and iPhones with a Home button.
    let turnsUpsideDown: Bool
    /// Full-screen size classes in portrait (and upside down) and landscape.
    let portrait: ModelSizeClasses, landscape: ModelSizeClasses
    /// iPads: Split View size classes at 2/3, 1/2 and 1/3 (nil: not offered).
    let splitPortrait: [ModelSizeClasses?], splitLandscape: [ModelSizeClasses?]
}

/// The model's devices. Sizes and full-screen size classes: Apple's Human
/// Interface Guidelines, "Layout" > "Specifications" (screen sizes; "iOS,
/// iPadOS device size classes"). Split View: the multitasking size-class table
/// of the same page's revision of June 21, 2023 (portrait 1/2 is "N/A").
/// Slide Over is compact width, regular height on every iPad ("Adopting
/// Multitasking Enhancements on iPad", Figure 2-1). docs/devices.md lists them all.
enum ModelDevices {
    private static let cR = ModelSizeClasses.cR, cC = ModelSizeClasses.cC
    private static let rC = ModelSizeClasses.rC, rR = ModelSizeClasses.rR

    static let rows: [ModelDevice] = [
        ModelDevice(name: "iPhone SE (3rd generation)", isPad: false, width: 375, height: 667, scale: 1, turnsUpsideDown: true,
                    portrait: cR, landscape: cC, splitPortrait: [], splitLandscape: []),
        ModelDevice(name: "iPhone 8 Plus", isPad: false, width: 414, height: 736, scale: 2, turnsUpsideDown: true,
                    portrait: cR, landscape: rC, splitPortrait: [], splitLandscape: []),
        ModelDevice(name: "iPhone 17 Pro", isPad: false, width: 402, height: 874, scale: 2, turnsUpsideDown: false,
                    portrait: cR, landscape: cC, splitPortrait: [], splitLandscape: []),
        ModelDevice(name: "iPhone 15 Pro Max", isPad: false, width: 430, height: 932, scale: 2, turnsUpsideDown: false,
                    portrait: cR, landscape: rC, splitPortrait: [], splitLandscape: []),
        ModelDevice(name: "iPad Pro 12.9-inch (6th generation)", isPad: true, width: 1024, height: 1366, scale: 1,
                    turnsUpsideDown: true, portrait: rR, landscape: rR,
                    splitPortrait: [cR, nil, cR], splitLandscape: [rR, rR, cR]),
        ModelDevice(name: "iPad Pro 11-inch (4th generation)", isPad: true, width: 834, height: 1194, scale: 1,
                    turnsUpsideDown: true, portrait: rR, landscape: rR,
                    splitPortrait: [cR, nil, cR], splitLandscape: [rR, cR, cR]),
        // No table of Apple's lists this iPad: docs/devices.md gives what the
        // rule makes of its sizes (full 744 x 1133; 2/3 414 and 803 pt wide,
        // 1/2 561, 1/3 320).
        ModelDevice(name: "iPad mini (A17 Pro)", isPad: true, width: 744, height: 1133, scale: 1,
                    turnsUpsideDown: true, portrait: rR, landscape: rR,
                    splitPortrait: [cR, nil, cR], splitLandscape: [rR, cR, cR]),
    ]

    /// The size classes of a scene of `size` on `device` (nil: a screen that
    /// is no device) in `orientation`; nil when a resize to it is refused.
    static func sizeClasses(_ size: ModelSceneSize, on device: ModelDevice?,
                            _ orientation: ModelOrientation) -> ModelSizeClasses?? {
        guard size.isValid else { return nil }
        if case .custom(let w, let h) = size { return .some(ModelSizeClasses.rule(width: w, height: h)) }
        guard let device else { return size == .full ? .some(nil) : nil }   // only "full" fits a plain screen
        switch size {
        case .full:
            return .some(orientation.isLandscape ? device.landscape : device.portrait)
        case .slideOver:
            return device.isPad ? .some(.cR) : nil
        default:
            guard device.isPad, let column = size.splitColumn else { return nil }
            let cell = (orientation.isLandscape ? device.splitLandscape : device.splitPortrait)[column]
            return cell.map { .some($0) }
        }
    }
}

// MARK: - OS versions

/// What one iOS version's trait system does, as the model sees it.
struct ModelOS: Equatable {
    let major: Int
    /// View controllers inherit from their parent controller (before 17).
    let legacyFlow: Bool
    /// Traits read in layoutSubviews and updateProperties are tracked (18 and later).
    let tracksTraits: Bool
    /// updateProperties is ever called (26).
    let updateProperties: Bool

    /// WWDC23 "Unleash the UIKit trait system" (17), WWDC24 "What's new in
    /// UIKit" (automatic trait tracking, 18), WWDC25 "What's new in UIKit"
    /// (updateProperties, 26).
    static let versions: [ModelOS] = [
        ModelOS(major: 16, legacyFlow: true, tracksTraits: false, updateProperties: false),
        ModelOS(major: 17, legacyFlow: false, tracksTraits: false, updateProperties: false),
        ModelOS(major: 18, legacyFlow: false, tracksTraits: true, updateProperties: false),
        ModelOS(major: 26, legacyFlow: false, tracksTraits: true, updateProperties: true),
    ]
    static func version(_ major: Int) -> ModelOS? { versions.first { $0.major == major } }
}

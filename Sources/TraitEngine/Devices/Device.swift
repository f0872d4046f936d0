/// A size in points, width first.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The width in points.
    public let width: Double
    /// The height in points.
    public let height: Double
    /// A size `width` points wide and `height` points tall.
    public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
    /// The same size turned a quarter: width and height swapped.
    public var swapped: Size { Size(height, width) }
    /// `1376x1032 pt`.
    public var description: String { "\(formatPoints(width))x\(formatPoints(height)) pt" }
}

/// A number of points as people write it: `932`, `0.5`.
func formatPoints(_ d: Double) -> String {
    d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
}

/// A size class, with UIKit's case names (the trait's `unspecified` is never a device's).
public enum SizeClass: String, Sendable {
    /// `UIUserInterfaceSizeClass.compact`.
    case compact
    /// `UIUserInterfaceSizeClass.regular`.
    case regular
}

/// A horizontal and a vertical size class, as Apple's tables give them together
/// ("Compact width, regular height").
public struct SizeClasses: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal size class (the width's).
    public let horizontal: SizeClass
    /// The vertical size class (the height's).
    public let vertical: SizeClass
    /// The size classes `horizontal` and `vertical`.
    public init(_ horizontal: SizeClass, _ vertical: SizeClass) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    /// Compact width, regular height: an iPhone in portrait, a narrow iPad pane.
    public static let compactRegular = SizeClasses(.compact, .regular)
    /// Regular width, compact height: a large iPhone in landscape.
    public static let regularCompact = SizeClasses(.regular, .compact)
    /// Compact width, compact height: most iPhones in landscape.
    public static let compactCompact = SizeClasses(.compact, .compact)
    /// Regular width, regular height: an iPad at full screen.
    public static let regularRegular = SizeClasses(.regular, .regular)
    /// "compact width, regular height", in the words of Apple's tables.
    public var description: String { "\(horizontal.rawValue) width, \(vertical.rawValue) height" }
}

/// `UIInterfaceOrientation`'s four cases.
public enum Orientation: String, CaseIterable, Sendable {
    /// Upright, the Home button (if any) at the bottom.
    case portrait
    /// Upside down (not on an iPhone without a Home button: ``Device/orientations``).
    case portraitUpsideDown
    /// Landscape, as `UIInterfaceOrientation.landscapeLeft`: the Home button
    /// side on the left.
    case landscapeLeft
    /// Landscape, as `UIInterfaceOrientation.landscapeRight`: the Home button
    /// side on the right.
    case landscapeRight
    /// Whether the orientation is one of the two landscapes (width and height swapped).
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
}

/// What a window scene's size is: the whole screen, a Split View fraction,
/// Slide Over, or any size in points (a Stage Manager window).
public enum SceneSize: Hashable, Sendable, CustomStringConvertible {
    /// The whole screen.
    case full
    /// The wide pane of Split View (`"2/3"`).
    case twoThirds
    /// Half of Split View (`"1/2"`, landscape only).
    case half
    /// The narrow pane of Split View (`"1/3"`).
    case oneThird
    /// A Slide Over window.
    case slideOver
    /// A window of any size in points (Stage Manager).
    case custom(Size)

    /// The named sizes, in the order they are listed to users.
    public static let named: [SceneSize] = [.full, .twoThirds, .half, .oneThird, .slideOver]

    /// `"full"`, `"2/3"`, `"1/2"`, `"1/3"` or `"slideOver"`; nil for any other text.
    public init?(name: String) {
        guard let s = SceneSize.named.first(where: { $0.description == name }) else { return nil }
        self = s
    }

    /// The size's name (``init(name:)``), or `{ width = 600, height = 800 }` for a custom size.
    public var description: String {
        switch self {
        case .full: return "full"
        case .twoThirds: return "2/3"
        case .half: return "1/2"
        case .oneThird: return "1/3"
        case .slideOver: return "slideOver"
        case .custom(let s): return "{ width = \(formatPoints(s.width)), height = \(formatPoints(s.height)) }"
        }
    }
}

/// What a window scene of a given size on a device sees: its size in points,
/// its size classes, and which of Apple's tables (or TraitLab's rule) says so.
public struct SceneGeometry: Hashable, Sendable {
    /// Which table, or rule, gives the size classes.
    public enum Basis: Hashable, Sendable {
        /// A row of the layout guidelines' device size-class table, by its name there.
        case deviceTable(row: String)
        /// A row of the multitasking size-class table, by its model name there.
        case multitaskingTable(row: String)
        /// Slide Over: always compact width, regular height.
        case slideOver
        /// No table lists this device or size: ``SizeClassRule``.
        case rule
    }
    /// The scene's size in points.
    public let size: Size
    /// The scene's size classes.
    public let sizeClasses: SizeClasses
    /// Where the size classes come from.
    public let basis: Basis

    /// Where the size classes come from, as an address a reader can follow.
    public var source: String {
        switch basis {
        case .deviceTable: return DeviceCatalogue.layoutGuidelines
        case .multitaskingTable: return MultitaskingTable.source
        case .slideOver: return MultitaskingTable.slideOverSource
        case .rule: return SizeClassRule.source
        }
    }
}

/// One device of the catalogue (``DeviceCatalogue/devices``): its size in
/// points, display scale and the device traits Apple documents for it.
public struct Device: Hashable, Sendable {
    /// The kind of device (`UIUserInterfaceIdiom`'s cases TraitLab models).
    public enum Idiom: String, Sendable {
        /// An iPhone.
        case phone
        /// An iPad.
        case pad
    }
    /// `UIDisplayGamut`'s cases, with the trait's spelling.
    public enum Gamut: String, Sendable {
        /// The sRGB gamut (`"SRGB"`).
        case sRGB = "SRGB"
        /// The Display P3 gamut (`"P3"`).
        case p3 = "P3"
    }

    /// The product's name as Apple writes it ("iPad Pro 13-inch (M5)").
    public let name: String
    /// The row's name in the layout guidelines' screen-size table ("iPad Pro 13-inch").
    public let guidelinesName: String
    /// Names this row had before a newer product took it over ("iPad Pro 13-inch (M4)"),
    /// still accepted so that scripts and matrices written for them keep running.
    public let formerNames: [String]
    /// Phone or pad (the `userInterfaceIdiom` trait).
    public let idiom: Idiom
    /// The screen in portrait, in points, as UIKit reports it to apps (`UIScreen.bounds`).
    public let portraitSize: Size
    /// The screen in portrait as today's guidelines' table lists it; the same as
    /// ``portraitSize`` except where UIKit reports another size (``sizeSource`` says why).
    public let guidelinesSize: Size
    /// Where ``portraitSize`` comes from: the layout guidelines, or for a device whose
    /// apps see another size than the guidelines list, the sources of that size.
    public let sizeSource: String
    /// UIKit's display scale (`UIScreen.scale`).
    public let scale: Double
    /// The display's gamut (the `displayGamut` trait).
    public let gamut: Gamut
    /// 3D Touch (`UIForceTouchCapability.available`).
    public let forceTouch: Bool
    /// An HDR display: `imageDynamicRange` is `high` (else `standard`).
    public let hdr: Bool
    /// Whether the device has a Home button (a phone without one never turns upside down).
    public let homeButton: Bool
    /// The full-screen size classes from the guidelines' device size-class
    /// table, when it lists the device; nil: ``SizeClassRule`` decides.
    public let fullScreen: TabledSizeClasses?
    /// Apple's technical specifications page, the source of the device traits.
    public let specs: String

    /// Where the size and scale come from: the layout guidelines' specifications
    /// (``sizeSource``, which names more where UIKit reports another size).
    public var source: String { sizeSource }

    /// The other names the catalogue accepts for this device: the guidelines' row
    /// name, then the row's former names.
    public var aliases: [String] { (guidelinesName == name ? [] : [guidelinesName]) + formerNames }

    /// A row of the guidelines' device size-class table.
    public struct TabledSizeClasses: Hashable, Sendable {
        /// The row's name there ("iPhone SE" covers every iPhone SE).
        public let row: String
        /// The size classes in portrait.
        public let portrait: SizeClasses
        /// The size classes in landscape.
        public let landscape: SizeClasses
    }

    /// The orientations the device turns to. `UIInterfaceOrientation.portraitUpsideDown`:
    /// "UIViewController doesn't support this case on devices without a Home button"
    /// (https://developer.apple.com/documentation/uikit/uiinterfaceorientation/portraitupsidedown).
    /// TraitLab applies that to iPhones only: iPads without a Home button turn
    /// to all four orientations.
    public var orientations: [Orientation] {
        idiom == .phone && !homeButton ? [.portrait, .landscapeLeft, .landscapeRight] : Orientation.allCases
    }

    /// The screen's size in points in `orientation`: portrait sizes swap for landscape.
    public func screenSize(_ orientation: Orientation) -> Size {
        orientation.isLandscape ? portraitSize.swapped : portraitSize
    }

    /// The named scene sizes the device offers in `orientation`: an iPhone offers
    /// only `full`; an iPad offers Split View (no 1/2 in portrait, which the
    /// multitasking table marks "N/A") and Slide Over.
    public func sceneSizes(_ orientation: Orientation) -> [SceneSize] {
        switch idiom {
        case .phone: return [.full]
        case .pad: return orientation.isLandscape ? SceneSize.named : [.full, .twoThirds, .oneThird, .slideOver]
        }
    }

    /// The size and size classes of a window scene of size `size` on this device
    /// in `orientation`. Tabled devices and sizes follow Apple's tables; the rest
    /// follow ``SizeClassRule``. Throws for an orientation the device does not
    /// turn to, a named size it does not offer there, or a custom size that is
    /// not a positive, finite number of points each way.
    public func scene(_ size: SceneSize, orientation: Orientation) throws -> SceneGeometry {
        guard orientations.contains(orientation) else {
            throw TraitError("\(name) does not turn to \"\(orientation.rawValue)\"; it turns to "
                + orientations.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        let screen = screenSize(orientation)
        switch size {
        case .full:
            if let t = fullScreen {
                return SceneGeometry(size: screen, sizeClasses: orientation.isLandscape ? t.landscape : t.portrait,
                                     basis: .deviceTable(row: t.row))
            }
            return SceneGeometry(size: screen, sizeClasses: SizeClassRule.sizeClasses(screen), basis: .rule)
        case .custom(let s):
            guard s.width.isFinite, s.height.isFinite, s.width > 0, s.height > 0 else {
                throw TraitError("a scene's width and height must be positive, finite numbers of points, not \(size)")
            }
            return SceneGeometry(size: s, sizeClasses: SizeClassRule.sizeClasses(s), basis: .rule)
        case .twoThirds, .half, .oneThird, .slideOver:
            guard sceneSizes(orientation).contains(size) else {
                throw TraitError("\(name) offers no \"\(size)\" scene in \"\(orientation.rawValue)\"; it offers "
                    + sceneSizes(orientation).map { "\"\($0)\"" }.joined(separator: ", ")
                    + " and custom sizes { width, height }")
            }
            let scene = Size(SplitView.width(of: size, screen: screen, longSide: portraitSize.height), screen.height)
            if size == .slideOver {
                return SceneGeometry(size: scene, sizeClasses: .compactRegular, basis: .slideOver)
            }
            if let row = MultitaskingTable.row(forDevice: name), let c = row.sizeClasses(size, orientation) {
                return SceneGeometry(size: scene, sizeClasses: c, basis: .multitaskingTable(row: row.model))
            }
            return SceneGeometry(size: scene, sizeClasses: SizeClassRule.sizeClasses(scene), basis: .rule)
        }
    }

    /// The device's screen traits in `orientation`: `settings` (the user's
    /// choices: style, text size, ...) with the device's idiom, display scale,
    /// gamut, force touch and dynamic range, and the full screen's size classes.
    public func screenTraits(_ orientation: Orientation, settings: TraitCollection) throws -> TraitCollection {
        let classes = try scene(.full, orientation: orientation).sizeClasses
        let T = SystemTraits.self
        return settings.modifyingTraits { t in
            t[T.userInterfaceIdiom] = .string(idiom.rawValue)
            t[T.displayScale] = .number(scale)
            t[T.displayGamut] = .string(gamut.rawValue)
            t[T.forceTouchCapability] = .string(forceTouch ? "available" : "unavailable")
            t[T.imageDynamicRange] = .string(hdr ? "high" : "standard")
            t[T.horizontalSizeClass] = .string(classes.horizontal.rawValue)
            t[T.verticalSizeClass] = .string(classes.vertical.rawValue)
        }
    }
}

/// The iOS version a world models: which trait system the app runs on.
///
/// Everything that differs between versions is in the table below, in one
/// place; the engine asks ``OSVersion/has(_:optedIn:)`` (or ``OSVersion/require(_:_:)``
/// at an API's entry, as a deployment target would refuse the call) instead of
/// comparing version numbers where the behaviour lives.
///
/// ```swift
/// let world = TraitWorld()
/// world.os = .iOS17                     // no automatic trait tracking
/// world.os.has(.automaticTraitTracking) // false
/// ```
public struct OSVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major version: 16, 17, 18 or 26.
    public let major: Int

    /// The versions TraitLab models, oldest first.
    public static let supported: [OSVersion] = [.iOS16, .iOS17, .iOS18, .iOS26]
    /// iOS 16: before the trait system of iOS 17 (view controllers inherit from their parent; no `UITraitDefinition`).
    public static let iOS16 = OSVersion(checkedMajor: 16)
    /// iOS 17: the trait system (`UITraitDefinition`, `traitOverrides`, `registerForTraitChanges`), without automatic trait tracking.
    public static let iOS17 = OSVersion(checkedMajor: 17)
    /// iOS 18: automatic trait tracking; observation tracking by opting in.
    public static let iOS18 = OSVersion(checkedMajor: 18)
    /// iOS 26: `updateProperties()` and observation tracking on by default.
    public static let iOS26 = OSVersion(checkedMajor: 26)
    /// The newest, the default of a new world.
    public static let newest = iOS26

    private init(checkedMajor: Int) { major = checkedMajor }

    /// The modelled version named `text` ("17", "17.0", "iOS 17"); nil for
    /// any other.
    public init?(_ text: String) {
        var t = Substring(text)
        if t.lowercased().hasPrefix("ios") { t = t.dropFirst(3).drop { $0 == " " } }
        if t.hasSuffix(".0") { t = t.dropLast(2) }
        guard let n = Int(t), let v = OSVersion.supported.first(where: { $0.major == n }) else { return nil }
        self = v
    }

    /// "26.0", as `UIDevice.current.systemVersion` reads on a release.
    public var description: String { "\(major).0" }

    /// A part of the trait system that not every version has.
    public enum Feature: String, CaseIterable, Sendable {
        /// `UITraitDefinition` and custom traits, `traitOverrides`,
        /// `registerForTraitChanges`, `updateTraitsIfNeeded`,
        /// `UITraitBridgedEnvironmentKey`, and view controllers inheriting
        /// from their view's superview (WWDC23 "Unleash the UIKit trait
        /// system"; each API's page says "iOS 17.0+").
        case traitSystem
        /// Traits read in layoutSubviews, updateProperties and the other
        /// tracked methods are tracked automatically (WWDC24 "What's new in
        /// UIKit": "automatic trait tracking", iOS 18).
        case automaticTraitTracking
        /// `updateProperties()`, `setNeedsUpdateProperties()` and
        /// `updatePropertiesIfNeeded()` (UIView / UIViewController pages:
        /// "iOS 26.0+"; WWDC25 "What's new in UIKit").
        case updateProperties
        /// Automatic observation tracking of `@Observable` objects read in the
        /// tracked methods: on by default in iOS 26, opt-in on iOS 18 with
        /// the `UIObservationTrackingEnabled` Info.plist key (WWDC25 "What's
        /// new in UIKit"; Apple's "Updating views automatically with
        /// observation tracking").
        case observationTracking

        /// The first version that has the feature (before any opt-in).
        public var introduced: OSVersion {
            switch self {
            case .traitSystem: return .iOS17
            case .automaticTraitTracking: return .iOS18
            case .updateProperties: return .iOS26
            case .observationTracking: return .iOS26
            }
        }

        /// The version from which an app can opt in earlier, if any.
        public var optInFrom: OSVersion? { self == .observationTracking ? .iOS18 : nil }
    }

    /// Whether this version has `feature` (`optedIn`: the features this
    /// app opted into where a version allows it).
    public func has(_ feature: Feature, optedIn: Set<Feature> = []) -> Bool {
        if major >= feature.introduced.major { return true }
        if let from = feature.optInFrom, major >= from.major, optedIn.contains(feature) { return true }
        return false
    }

    /// The error an API introduced in a later version raises here, as
    /// compiling against this deployment target would refuse it.
    public func require(_ feature: Feature, _ api: String) throws {
        guard has(feature) else {
            throw TraitError("\(api) is available from iOS \(feature.introduced.major) (this world runs iOS \(major))")
        }
    }
}

import SwiftIfConfig
import SwiftSyntax

/// The build `#if` conditions are evaluated for: an app built for one Apple
/// platform, as `swiftc` would see it (swift-syntax's SwiftIfConfig does the
/// evaluation). What TraitLab cannot know (a module of the app's own, a
/// compiler feature) throws, and the `#if` is reported instead of decided.
public struct BuildSettings: BuildConfiguration {
    public enum Platform: String, CaseIterable {
        case ios, tvos, visionos, maccatalyst

        /// The name in messages.
        public var displayName: String {
            switch self {
            case .ios: return "iOS"
            case .tvos: return "tvOS"
            case .visionos: return "visionOS"
            case .maccatalyst: return "Mac Catalyst"
            }
        }
    }

    public var platform: Platform = .ios
    /// `--define NAME`: custom conditions set (`DEBUG`); any other is unset, as for swiftc.
    public var defines: Set<String> = []
    /// `--simulator`: `targetEnvironment(simulator)` holds.
    public var simulator = false
    /// `--can-import` / `--cannot-import`: modules the app's build can or cannot import.
    public var importable: [String: Bool] = [:]

    public init() {}

    struct Undecidable: Error, CustomStringConvertible {
        let description: String
    }

    /// Apple's modules whose presence on a platform is known, from each framework's
    /// "Availability" line on developer.apple.com/documentation (UIKit: iOS, iPadOS,
    /// Mac Catalyst, tvOS, visionOS; AppKit: macOS; WatchKit: watchOS; WidgetKit:
    /// iOS, iPadOS, Mac Catalyst, macOS, visionOS, watchOS; ActivityKit: iOS, iPadOS,
    /// Mac Catalyst). Modules on every Apple platform are listed once.
    private static let everywhere: Set<String> = [
        "Swift", "Foundation", "SwiftUI", "Combine", "CoreGraphics", "CoreFoundation", "QuartzCore", "CoreData",
        "Observation", "OSLog", "os", "Dispatch", "Darwin", "ObjectiveC", "CoreText", "CoreImage", "CoreMedia",
        "AVFoundation", "UniformTypeIdentifiers", "SwiftData", "StoreKit", "CloudKit", "Network", "Security",
        "UserNotifications", "GameController", "MapKit", "Metal", "CoreLocation", "AuthenticationServices",
        "CryptoKit", "Accessibility", "Photos", "UIKit",
    ]
    private static let nowhere: Set<String> = ["AppKit", "Cocoa", "WatchKit", "ClockKit", "Glibc", "Musl", "WinSDK", "Android"]

    private func knownImport(_ module: String) -> Bool? {
        switch module {
        case "WidgetKit": return platform != .tvos
        case "ActivityKit": return platform == .ios || platform == .maccatalyst
        // "Safari Services" and "Photos UI" are on every platform listed above but tvOS.
        case "SafariServices", "PhotosUI", "WebKit", "AuthenticationServices":
            return platform != .tvos
        // AppKit's module is visible to a Mac Catalyst build, though little of it can be used.
        case "AppKit", "Cocoa": return platform == .maccatalyst ? nil : false
        default:
            if BuildSettings.everywhere.contains(module) { return true }
            if BuildSettings.nowhere.contains(module) { return false }
            return nil
        }
    }

    public func isCustomConditionSet(name: String) throws -> Bool { defines.contains(name) }

    public func hasFeature(name: String) throws -> Bool {
        throw Undecidable(description: "hasFeature(\(name)) depends on the compiler's flags, which the sources do not say")
    }

    public func hasAttribute(name: String) throws -> Bool {
        throw Undecidable(description: "hasAttribute(\(name)) depends on the compiler's version")
    }

    public func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
        let module = importPath.map(\.1).joined(separator: ".")
        if let given = importable[module] { return given }
        if case .unversioned = version, let known = knownImport(module) { return known }
        throw Undecidable(description: "whether \(module) can be imported depends on the app's packages: pass --can-import \(module) or --cannot-import \(module)")
    }

    public func isActiveTargetOS(name: String) throws -> Bool {
        switch name {
        case "iOS": return platform == .ios || platform == .maccatalyst
        case "tvOS": return platform == .tvos
        case "visionOS", "xrOS": return platform == .visionos
        default: return false
        }
    }

    public func isActiveTargetArchitecture(name: String) throws -> Bool { name == "arm64" }

    public func isActiveTargetEnvironment(name: String) throws -> Bool {
        switch name {
        case "simulator": return simulator
        case "macCatalyst": return platform == .maccatalyst
        default: return false
        }
    }

    public func isActiveTargetRuntime(name: String) throws -> Bool { name == "_ObjC" }
    public func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
    public func isActiveTargetObjectFileFormat(name: String) throws -> Bool { name == "MachO" }
    public var targetPointerBitWidth: Int { 64 }
    public var targetAtomicBitWidths: [Int] { [8, 16, 32, 64, 128] }
    public var endianness: Endianness { .little }
    /// Swift 5 language mode (Xcode's default for an app target), compiled by Swift 6.2.
    public var languageVersion: VersionTuple { VersionTuple(5, 10) }
    public var compilerVersion: VersionTuple { VersionTuple(6, 2) }
}

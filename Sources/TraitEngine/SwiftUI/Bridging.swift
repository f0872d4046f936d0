/// SwiftUI's own environment keys that UIKit bridges to system traits, with
/// SwiftUI's value names on the SwiftUI side:
///
/// | key | values | trait |
/// |---|---|---|
/// | `colorScheme` | light, dark | `userInterfaceStyle` |
/// | `colorSchemeContrast` | standard, increased | `accessibilityContrast` |
/// | `dynamicTypeSize` | xSmall … xxxLarge, accessibility1 … accessibility5 | `preferredContentSizeCategory` |
/// | `layoutDirection` | leftToRight, rightToLeft | `layoutDirection` |
/// | `horizontalSizeClass`, `verticalSizeClass` | compact, regular, or nil | the size classes |
/// | `legibilityWeight` | regular, bold, or nil | `legibilityWeight` |
/// | `displayScale` | a number | `displayScale` |
///
/// A trait that is unspecified reads as SwiftUI's default (light, large,
/// leftToRight, standard, a scale of 1) or as nil for the optional keys.
public enum BuiltinEnvironmentKeys {
    /// SwiftUI's `ColorScheme`: `light`, `dark`.
    public static let colorSchemeType = TraitEnum(name: "ColorScheme", cases: ["light", "dark"])
    /// SwiftUI's `ColorSchemeContrast`: `standard`, `increased`.
    public static let colorSchemeContrastType = TraitEnum(name: "ColorSchemeContrast", cases: ["standard", "increased"])
    /// SwiftUI's `DynamicTypeSize`: `xSmall` to `xxxLarge`, then `accessibility1` to `accessibility5`.
    public static let dynamicTypeSizeType = TraitEnum(name: "DynamicTypeSize", cases: [
        "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge",
        "accessibility1", "accessibility2", "accessibility3", "accessibility4", "accessibility5",
    ])
    /// SwiftUI's `LayoutDirection`: `leftToRight`, `rightToLeft`.
    public static let layoutDirectionType = TraitEnum(name: "LayoutDirection", cases: ["leftToRight", "rightToLeft"])
    /// SwiftUI's `UserInterfaceSizeClass`: `compact`, `regular`.
    public static let sizeClassType = TraitEnum(name: "UserInterfaceSizeClass", cases: ["compact", "regular"])
    /// SwiftUI's `LegibilityWeight`: `regular`, `bold`.
    public static let legibilityWeightType = TraitEnum(name: "LegibilityWeight", cases: ["regular", "bold"])

    /// The SwiftUI value types, for hosts that expose them by name.
    public static let valueTypes: [TraitEnum] = [
        colorSchemeType, colorSchemeContrastType, dynamicTypeSizeType, layoutDirectionType, sizeClassType, legibilityWeightType,
    ]

    /// `colorScheme`, bridged to `userInterfaceStyle`; `light` when the style is unspecified.
    public static let colorScheme = enumKey("colorScheme", colorSchemeType, SystemTraits.userInterfaceStyle,
                                            pairs: [("light", "light"), ("dark", "dark")], default: "light")
    /// `colorSchemeContrast`, bridged to `accessibilityContrast` (`normal` is `standard`, `high` is `increased`).
    public static let colorSchemeContrast = enumKey("colorSchemeContrast", colorSchemeContrastType, SystemTraits.accessibilityContrast,
                                                    pairs: [("normal", "standard"), ("high", "increased")], default: "standard")
    /// `dynamicTypeSize`, bridged to `preferredContentSizeCategory` (`extraSmall` is `xSmall`, `accessibilityMedium` is `accessibility1`, ...); `large` when unspecified.
    public static let dynamicTypeSize = enumKey("dynamicTypeSize", dynamicTypeSizeType, SystemTraits.preferredContentSizeCategory, pairs: [
        ("extraSmall", "xSmall"), ("small", "small"), ("medium", "medium"), ("large", "large"),
        ("extraLarge", "xLarge"), ("extraExtraLarge", "xxLarge"), ("extraExtraExtraLarge", "xxxLarge"),
        ("accessibilityMedium", "accessibility1"), ("accessibilityLarge", "accessibility2"),
        ("accessibilityExtraLarge", "accessibility3"), ("accessibilityExtraExtraLarge", "accessibility4"),
        ("accessibilityExtraExtraExtraLarge", "accessibility5"),
    ], default: "large")
    /// `layoutDirection`, bridged to the `layoutDirection` trait; `leftToRight` when unspecified.
    public static let layoutDirection = enumKey("layoutDirection", layoutDirectionType, SystemTraits.layoutDirection,
                                                pairs: [("leftToRight", "leftToRight"), ("rightToLeft", "rightToLeft")], default: "leftToRight")
    /// `horizontalSizeClass`, bridged to the trait of the same name; nil when unspecified.
    public static let horizontalSizeClass = enumKey("horizontalSizeClass", sizeClassType, SystemTraits.horizontalSizeClass,
                                                    pairs: [("compact", "compact"), ("regular", "regular")], default: nil)
    /// `verticalSizeClass`, bridged to the trait of the same name; nil when unspecified.
    public static let verticalSizeClass = enumKey("verticalSizeClass", sizeClassType, SystemTraits.verticalSizeClass,
                                                  pairs: [("compact", "compact"), ("regular", "regular")], default: nil)
    /// `legibilityWeight`, bridged to the trait of the same name; nil when unspecified.
    public static let legibilityWeight = enumKey("legibilityWeight", legibilityWeightType, SystemTraits.legibilityWeight,
                                                 pairs: [("regular", "regular"), ("bold", "bold")], default: nil)
    /// `displayScale`, bridged to the trait of the same name; 1 when the trait is unspecified (0).
    public static let displayScale = EnvironmentKeyDefinition(
        unchecked: "displayScale", valueType: .number, defaultValue: .number(1), isOptional: false,
        isBuiltin: true, systemTrait: SystemTraits.displayScale, bridge: DisplayScaleBridge())

    /// Every built-in key, in a stable order.
    public static let all: [EnvironmentKeyDefinition] = [
        colorScheme, colorSchemeContrast, dynamicTypeSize, layoutDirection,
        horizontalSizeClass, verticalSizeClass, legibilityWeight, displayScale,
    ]

    /// An enum key mapped case by case to an enum system trait; `default` nil
    /// makes an optional key (nil when the trait is unspecified).
    private static func enumKey(_ name: String, _ type: TraitEnum, _ trait: TraitDefinition,
                                pairs: [(trait: String, value: String)], default value: String?) -> EnvironmentKeyDefinition {
        let bridge = CaseMappingBridge(trait: trait, pairs: pairs, unspecified: value.map { .string($0) } ?? .none)
        return EnvironmentKeyDefinition(unchecked: name, valueType: .enumeration(type), defaultValue: value.map { .string($0) } ?? .none,
                                        isOptional: value == nil, isBuiltin: true, systemTrait: trait, bridge: bridge)
    }
}

/// Maps the cases of an enum trait to the cases of a SwiftUI value type.
private final class CaseMappingBridge: EnvironmentBridge {
    let trait: TraitDefinition
    let toValue: [String: String]
    let toTrait: [String: String]
    /// What a trait value without a SwiftUI counterpart ("unspecified") reads as.
    let unspecified: TraitValue

    init(trait: TraitDefinition, pairs: [(trait: String, value: String)], unspecified: TraitValue) {
        self.trait = trait
        self.unspecified = unspecified
        var a: [String: String] = [:], b: [String: String] = [:]
        for p in pairs {
            a[p.trait] = p.value
            b[p.value] = p.trait
        }
        toValue = a
        toTrait = b
    }

    func read(from traitCollection: TraitCollection) throws -> TraitValue {
        guard case .string(let s) = traitCollection.rawValue(trait), let v = toValue[s] else { return unspecified }
        return .string(v)
    }

    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws {
        guard case .string(let s) = value, let t = toTrait[s] else {
            // nil: the trait goes back to unspecified (its default).
            mutableTraits[trait] = trait.defaultValue
            return
        }
        mutableTraits[trait] = .string(t)
    }
}

/// displayScale: the trait's unspecified 0 reads as SwiftUI's default of 1.
private final class DisplayScaleBridge: EnvironmentBridge {
    func read(from traitCollection: TraitCollection) throws -> TraitValue {
        if case .number(let d) = traitCollection.rawValue(SystemTraits.displayScale), d > 0 { return .number(d) }
        return .number(1)
    }

    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws {
        try mutableTraits.set(SystemTraits.displayScale, value)
    }
}

// MARK: - Environment to traits

extension EnvironmentValues {
    /// The environment a host with `traits` gives its SwiftUI content: every
    /// bridged key read from the traits. A bridge whose read fails or returns a
    /// value of the wrong type is an error naming the key.
    public static func bridged(from traits: TraitCollection, keys: [EnvironmentKeyDefinition]) throws -> EnvironmentValues {
        var entries: [Entry] = []
        for key in keys {
            guard let bridge = key.bridge else { continue }
            let raw: TraitValue
            do {
                raw = try bridge.read(from: traits)
            } catch {
                throw BridgeError(key: key, direction: "read", underlying: error)
            }
            guard let value = try? key.validate(raw) else {
                throw TraitError("the bridge of environment key '\(key.name)' read \(key.describeValue(raw)), but the key expects \(key.expectedDescription)")
            }
            if value != key.defaultValue { entries.append(Entry(key: key, value: value)) }
        }
        return EnvironmentValues(sorting: entries)
    }

    /// The trait overrides that carry this environment into UIKit content
    /// whose parent has `traits`, which a host turned into `hostEnvironment`:
    /// each bridged key whose value differs is written through its bridge.
    /// Keys that read the same as the traits already do are left alone.
    public func traitOverrides(over traits: TraitCollection, hostEnvironment: EnvironmentValues,
                               keys: [EnvironmentKeyDefinition]) throws -> [TraitCollection.Entry] {
        if self === hostEnvironment { return [] }
        var m = MutableTraits(base: traits)
        for key in keys {
            guard let bridge = key.bridge else { continue }
            let v = value(key)
            if v == hostEnvironment.value(key) { continue }
            do {
                try bridge.write(to: &m, value: v)
            } catch {
                throw BridgeError(key: key, direction: "write", underlying: error)
            }
        }
        let written = m.makeCollection()
        return written.changedTraits(from: traits).map { TraitCollection.Entry(definition: $0, value: written.rawValue($0)) }
    }
}

/// A bridge's read or write failed; the message names the key and keeps the
/// underlying error's (a host's error type passes through in `underlying`).
public struct BridgeError: Error, CustomStringConvertible {
    /// The key whose bridge failed.
    public let key: EnvironmentKeyDefinition
    /// "read" or "write".
    public let direction: String
    /// The error the bridge threw.
    public let underlying: Error

    /// The message: the key, the direction and the underlying error's message.
    public var description: String {
        "the bridge of environment key '\(key.name)' failed to \(direction): \((underlying as? TraitError)?.message ?? "\(underlying)")"
    }
}

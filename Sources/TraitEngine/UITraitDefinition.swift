/// A value type a Swift-defined trait can have: it converts to and from
/// ``TraitValue`` and names the ``TraitValueType`` it is checked against.
public protocol TraitValueConvertible {
    /// The type a trait of this value type is checked against.
    static var traitValueType: TraitValueType { get }
    /// This value as a ``TraitValue``.
    var traitValue: TraitValue { get }
    /// The value `traitValue` stands for; nil when it is of another type.
    init?(traitValue: TraitValue)
}

extension Bool: TraitValueConvertible {
    /// ``TraitValueType/boolean``.
    public static var traitValueType: TraitValueType { .boolean }
    /// ``TraitValue/bool(_:)``.
    public var traitValue: TraitValue { .bool(self) }
    /// The boolean of a ``TraitValue/bool(_:)``; nil for any other value.
    public init?(traitValue: TraitValue) {
        guard case .bool(let b) = traitValue else { return nil }
        self = b
    }
}

extension Int: TraitValueConvertible {
    /// ``TraitValueType/integer``.
    public static var traitValueType: TraitValueType { .integer }
    /// ``TraitValue/int(_:)``.
    public var traitValue: TraitValue { .int(self) }
    /// The integer of a ``TraitValue/int(_:)``; nil for any other value.
    public init?(traitValue: TraitValue) {
        guard case .int(let i) = traitValue else { return nil }
        self = i
    }
}

extension Double: TraitValueConvertible {
    /// ``TraitValueType/number``.
    public static var traitValueType: TraitValueType { .number }
    /// ``TraitValue/number(_:)``.
    public var traitValue: TraitValue { .number(self) }
    /// The number of a ``TraitValue/number(_:)``; nil for any other value.
    public init?(traitValue: TraitValue) {
        guard case .number(let d) = traitValue else { return nil }
        self = d
    }
}

extension String: TraitValueConvertible {
    /// ``TraitValueType/string``.
    public static var traitValueType: TraitValueType { .string }
    /// ``TraitValue/string(_:)``.
    public var traitValue: TraitValue { .string(self) }
    /// The string of a ``TraitValue/string(_:)``; nil for any other value.
    public init?(traitValue: TraitValue) {
        guard case .string(let s) = traitValue else { return nil }
        self = s
    }
}

/// Swift enums with string raw values are enum traits: their cases are the
/// raw values, in declaration order.
///
/// ```swift
/// enum MyAppTheme: String, CaseIterable, TraitEnumValue { case standard, pastel, bold, monochrome }
/// ```
public protocol TraitEnumValue: TraitValueConvertible, RawRepresentable, CaseIterable where RawValue == String {}

extension TraitEnumValue {
    /// An enumeration of the type's raw values, in declaration order (one ``TraitEnum`` per Swift type).
    public static var traitValueType: TraitValueType {
        .enumeration(TraitEnumCache.enumeration(for: Self.self))
    }
    /// The case's raw value, as a ``TraitValue/string(_:)``.
    public var traitValue: TraitValue { .string(rawValue) }
    /// The case whose raw value is the string `traitValue` holds; nil for any other value.
    public init?(traitValue: TraitValue) {
        guard case .string(let s) = traitValue else { return nil }
        self.init(rawValue: s)
    }
}

/// One ``TraitEnum`` per Swift enum type, so its definitions compare equal.
enum TraitEnumCache {
    nonisolated(unsafe) private static var enums: [ObjectIdentifier: TraitEnum] = [:]

    static func enumeration<E: TraitEnumValue>(for type: E.Type) -> TraitEnum {
        if let e = enums[ObjectIdentifier(type)] { return e }
        let e = TraitEnum(name: String(describing: type), cases: type.allCases.map(\.rawValue))
        enums[ObjectIdentifier(type)] = e
        return e
    }
}

/// A custom trait defined in Swift, in UIKit's shape (`UITraitDefinition`).
///
/// ```swift
/// struct ContainedInSettingsTrait: UITraitDefinition {
///     static let defaultValue = false
/// }
/// let tc = TraitCollection { $0[ContainedInSettingsTrait.self] = true }
/// tc[ContainedInSettingsTrait.self]        // true
/// view.traitOverrides[ContainedInSettingsTrait.self] = true
/// ```
///
/// Each conforming type has one ``TraitDefinition`` (``definition``), the
/// same object Lua sees once the type is registered in a world with
/// ``TraitWorld/register(_:)``.
public protocol UITraitDefinition {
    /// The type of the trait's values (`Bool`, `Int`, `Double`, `String` or a ``TraitEnumValue`` enum).
    associatedtype Value: TraitValueConvertible
    /// The value of the trait in a collection that does not set it.
    static var defaultValue: Value { get }
    /// Shown in messages and dumps; by default the type's name without a `Trait` suffix.
    static var name: String { get }
    /// Reverse-DNS identifier that enables encoding; none by default.
    static var identifier: String? { get }
    /// Whether a change of the trait can change how colors resolve (UIKit's
    /// `affectsColorAppearance`); false by default.
    static var affectsColorAppearance: Bool { get }
}

extension UITraitDefinition {
    /// The type's name without a `Trait` suffix (`MyAppThemeTrait` is `MyAppTheme`).
    public static var name: String {
        let n = String(describing: Self.self)
        return n.hasSuffix("Trait") && n.count > 5 ? String(n.dropLast(5)) : n
    }
    /// No identifier: the trait is not encoded.
    public static var identifier: String? { nil }
    /// False: the trait does not affect how colors resolve.
    public static var affectsColorAppearance: Bool { false }

    /// The run-time definition of this trait (created on first use).
    public static var definition: TraitDefinition { SwiftTraitDefinitions.definition(for: Self.self) }
}

enum SwiftTraitDefinitions {
    nonisolated(unsafe) private static var definitions: [ObjectIdentifier: TraitDefinition] = [:]

    static func definition<T: UITraitDefinition>(for type: T.Type) -> TraitDefinition {
        if let d = definitions[ObjectIdentifier(type)] { return d }
        do {
            let d = try TraitDefinition(name: T.name, valueType: T.Value.traitValueType, defaultValue: T.defaultValue.traitValue,
                                        identifier: T.identifier, affectsColorAppearance: T.affectsColorAppearance)
            definitions[ObjectIdentifier(type)] = d
            return d
        } catch {
            // An empty identifier or a name that is no property name: a mistake in Swift source.
            fatalError("UITraitDefinition \(T.self): \(error)") // invariant: Swift API only, unreachable from scripts
        }
    }
}

extension TraitWorld {
    /// Makes a Swift-defined trait visible by property name in this world
    /// (to Lua scripts, `traits.decode`, plugins). A clash is an error.
    public func register<T: UITraitDefinition>(_ type: T.Type) throws {
        let d = T.definition
        if registry.definition(forProperty: d.property) === d { return }
        try registry.register(d)
    }
}

extension TraitCollection {
    /// The typed value of a Swift-defined trait.
    public subscript<T: UITraitDefinition>(trait: T.Type) -> T.Value {
        T.Value(traitValue: self[T.definition]) ?? T.defaultValue
    }
}

extension MutableTraits {
    /// The typed value of a Swift-defined trait, read or written
    /// (`UIMutableTraits`' subscript).
    public subscript<T: UITraitDefinition>(trait: T.Type) -> T.Value {
        get { T.Value(traitValue: self[T.definition]) ?? T.defaultValue }
        set { self[T.definition] = newValue.traitValue }
    }
}

/// `env.traitOverrides`: typed access to one environment's overrides
/// (UIKit's `UITraitOverrides`). Writes take effect at the next update.
public struct TraitOverrides {
    let env: TraitEnvironment

    /// The override of `trait` set here, or nil; setting nil removes it. Takes
    /// effect at the next ``TraitWorld/update()``.
    public subscript<T: UITraitDefinition>(trait: T.Type) -> T.Value? {
        get { env.traitOverride(T.definition).flatMap(T.Value.init(traitValue:)) }
        nonmutating set {
            if let newValue {
                // Values of the declared Swift type always fit the definition.
                try? env.setTraitOverride(T.definition, newValue.traitValue)
            } else {
                env.removeTraitOverride(T.definition)
            }
        }
    }

    /// Whether this environment overrides `trait` (`UITraitOverrides.contains(_:)`).
    public func contains<T: UITraitDefinition>(_ trait: T.Type) -> Bool { env.containsTraitOverride(T.definition) }
    /// Removes the override of `trait`, if any (`UITraitOverrides.remove(_:)`); takes effect at the next update.
    public func remove<T: UITraitDefinition>(_ trait: T.Type) { env.removeTraitOverride(T.definition) }
}

extension TraitEnvironment {
    /// Typed overrides for Swift-defined traits.
    public var traitOverrides: TraitOverrides { TraitOverrides(env: self) }

    /// Registers a handler for Swift-defined traits.
    @discardableResult
    public func registerForTraitChanges(_ traits: [any UITraitDefinition.Type],
                                        handler: @escaping (TraitEnvironment, TraitCollection) throws -> Void) throws -> TraitChangeRegistration {
        try registerForTraitChanges(traits.map { $0.definition }, handler: handler)
    }
}

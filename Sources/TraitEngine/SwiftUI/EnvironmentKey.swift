/// SwiftUI's `EnvironmentKey`: a type that names one environment value and
/// gives its default.
///
/// The key's ``name`` is the `EnvironmentValues` property it defines; by
/// default the type name without a `Key` suffix, first letter lower-cased.
///
/// ```swift
/// enum MyAppThemeKey: EnvironmentKey {
///     static let defaultValue: TraitValue = .string("standard")
/// }
/// let theme = view.environment[MyAppThemeKey.self]   // EnvironmentValues.myAppTheme
/// try view.environment(MyAppThemeKey.self, .string("pastel"))
/// ```
public protocol EnvironmentKey {
    /// The value when nothing in the hierarchy sets one.
    static var defaultValue: TraitValue { get }
    /// The `EnvironmentValues` property name.
    static var name: String { get }
    /// The value type; by default inferred from ``defaultValue``. A key whose
    /// default is `.none` is optional and must give its type.
    static var valueType: TraitValueType { get }
}

/// UIKit's `UITraitBridgedEnvironmentKey`: an environment key whose value
/// lives in the trait system too. A hosted SwiftUI view reads it from its
/// host's traits; UIKit content inside a representable gets it back as traits.
///
/// Register the key in each world that hosts views reading it
/// (``EnvironmentKeyRegistry/register(_:)->EnvironmentKeyDefinition``), so the world knows to bridge it.
///
/// ```swift
/// enum MyAppThemeKey: TraitBridgedEnvironmentKey {
///     static let defaultValue: TraitValue = .string("standard")
///     static func read(from traitCollection: TraitCollection) -> TraitValue { traitCollection[themeTrait] }
///     static func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws {
///         try mutableTraits.set(themeTrait, value)
///     }
/// }
/// try world.environmentKeys.register(MyAppThemeKey.self)
/// ```
public protocol TraitBridgedEnvironmentKey: EnvironmentKey {
    /// The key's value as seen from `traitCollection` (`UITraitBridgedEnvironmentKey.read(from:)`).
    static func read(from traitCollection: TraitCollection) throws -> TraitValue
    /// Writes `value` into traits, for UIKit content inside SwiftUI (`UITraitBridgedEnvironmentKey.write(to:value:)`).
    static func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws
}

extension EnvironmentKey {
    /// The type's name without a `Key` suffix, first letter lower-cased (`MyAppThemeKey` is `myAppTheme`).
    public static var name: String {
        var n = String(describing: Self.self)
        if n.hasSuffix("Key"), n.count > 3 { n.removeLast(3) }
        return TraitDefinition.defaultProperty(for: n)
    }

    /// The type of ``EnvironmentKey/defaultValue`` (``EnvironmentKeyDefinition/inferredType(of:)``).
    public static var valueType: TraitValueType { EnvironmentKeyDefinition.inferredType(of: defaultValue) }

    /// The run-time definition of this key (one per type, made on first use).
    public static var definition: EnvironmentKeyDefinition { EnvironmentKeyDefinition.definition(for: Self.self) }
}

/// How a bridged key's value moves between the trait system and the SwiftUI
/// environment. Built-in keys have one each; ``EnvironmentKeyRegistry/bridge(_:with:)``
/// gives one to a run-time key.
public protocol EnvironmentBridge: AnyObject {
    /// The key's value as seen from `traitCollection`.
    func read(from traitCollection: TraitCollection) throws -> TraitValue
    /// Writes `value` into traits (for UIKit content inside SwiftUI).
    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws
}

/// The run-time description of one environment key: its name, value type and
/// default, and its bridge to the trait system when it has one.
public final class EnvironmentKeyDefinition: Hashable, CustomStringConvertible {
    /// Process-wide number; environment values keep their entries sorted by it.
    public let id: Int
    /// The `EnvironmentValues` property name (`myAppTheme`).
    public private(set) var name: String
    /// The type every value of the key has.
    public private(set) var valueType: TraitValueType
    /// Whether `nil` (`.none`) is a valid value.
    public private(set) var isOptional: Bool
    /// The value when nothing in the hierarchy sets one.
    public private(set) var defaultValue: TraitValue
    /// One of SwiftUI's own keys (colorScheme, dynamicTypeSize, ...).
    public let isBuiltin: Bool
    /// How the value is read from and written to traits; nil for a key that
    /// stays on the SwiftUI side.
    public internal(set) var bridge: EnvironmentBridge?
    /// The system trait a built-in key maps to.
    public let systemTrait: TraitDefinition?
    /// Who defined it (a plugin name), for reloads and messages.
    public var owner: String?
    /// How the app declared it in Swift, when it came from `traitlab swift import`.
    public var swift: SwiftDeclaration?

    nonisolated(unsafe) private static var nextID = 0
    nonisolated(unsafe) private static var byType: [ObjectIdentifier: EnvironmentKeyDefinition] = [:]

    /// A run-time key. The name must be a valid property name and the default
    /// must fit the type.
    public convenience init(name: String, valueType: TraitValueType, defaultValue: TraitValue, isOptional: Bool = false) throws {
        guard (try? TraitDefinition.checkProperty(name)) != nil else {
            throw TraitError("'\(name)' is not a valid environment key name (letters, digits and _, not starting with a digit)")
        }
        self.init(unchecked: name, valueType: valueType, defaultValue: .none, isOptional: isOptional)
        self.defaultValue = try validate(defaultValue)
    }

    init(unchecked name: String, valueType: TraitValueType, defaultValue: TraitValue, isOptional: Bool,
         isBuiltin: Bool = false, systemTrait: TraitDefinition? = nil, bridge: EnvironmentBridge? = nil) {
        self.id = EnvironmentKeyDefinition.nextID
        EnvironmentKeyDefinition.nextID += 1
        self.name = name
        self.valueType = valueType
        self.defaultValue = defaultValue
        self.isOptional = isOptional
        self.isBuiltin = isBuiltin
        self.systemTrait = systemTrait
        self.bridge = bridge
    }

    /// The definition for a key type, made once per type.
    static func definition<K: EnvironmentKey>(for key: K.Type) -> EnvironmentKeyDefinition {
        let id = ObjectIdentifier(key)
        if let d = byType[id] { return d }
        let d = EnvironmentKeyDefinition(unchecked: K.name, valueType: K.valueType, defaultValue: K.defaultValue,
                                         isOptional: K.defaultValue == .none)
        if let bridged = key as? any TraitBridgedEnvironmentKey.Type { d.bridge = TypeBridge(bridged) }
        byType[id] = d
        return d
    }

    /// The type a default value implies: its kind; a nil default is an optional string.
    public static func inferredType(of value: TraitValue) -> TraitValueType {
        switch value {
        case .none, .string: return .string
        case .bool: return .boolean
        case .int: return .integer
        case .number: return .number
        case .table: return .table
        }
    }

    /// Checks a value against the key's type, converting as traits do (an
    /// integral float for an integer key, an integer for a number key).
    public func validate(_ value: TraitValue) throws -> TraitValue {
        switch (valueType, value) {
        case (_, .none):
            if isOptional { return .none }
        case (.boolean, .bool), (.integer, .int), (.number, .number), (.string, .string), (.table, .table),
             (.color, .string), (.image, .string):
            return value
        case (.integer, .number(let d)):
            if let i = Int(exactly: d) { return .int(i) }
        case (.number, .int(let i)):
            return .number(Double(i))
        case (.enumeration(let e), .string(let s)):
            if e.contains(s) { return value }
            throw TraitError("environment key '\(name)' has no case '\(s)' (valid cases of \(e.name): \(e.caseList))")
        default:
            break
        }
        throw TraitError("environment key '\(name)' expects \(expectedDescription), got \(describeValue(value))")
    }

    /// "a string", "a ColorScheme case (light, dark) or nil".
    public var expectedDescription: String {
        let base: String
        switch valueType {
        case .enumeration(let e): base = "a \(e.name) case (\(e.caseList))"
        case .integer: base = "an integer"
        case .image: base = "an image"
        default: base = "a \(valueType.name)"
        }
        return base + (isOptional ? " or nil" : "")
    }

    /// "the number 1.5", "the string \"x\"", "a table": a value in a message.
    func describeValue(_ v: TraitValue) -> String {
        switch v {
        case .number(let d): return "the number \(formatNumber(d))"
        case .string(let s): return "the string \"\(s)\""
        case .int(let i): return "the integer \(i)"
        case .bool(let b): return "the boolean \(b)"
        case .table: return "a table"
        case .none: return "nil"
        }
    }

    /// Replaces this key's type and default (a plugin reload), keeping its identity.
    func redefine(like other: EnvironmentKeyDefinition) {
        valueType = other.valueType
        defaultValue = other.defaultValue
        isOptional = other.isOptional
        swift = other.swift
    }

    /// The key's ``name``.
    public var description: String { name }

    /// Whether `a` and `b` are the same key: keys compare by identity.
    public static func == (a: EnvironmentKeyDefinition, b: EnvironmentKeyDefinition) -> Bool { a === b }
    /// Hashes the key's ``id``.
    public func hash(into h: inout Hasher) { h.combine(id) }
}

/// The bridge of a ``TraitBridgedEnvironmentKey`` type: its static methods.
private final class TypeBridge: EnvironmentBridge {
    let key: any TraitBridgedEnvironmentKey.Type
    init(_ key: any TraitBridgedEnvironmentKey.Type) { self.key = key }
    func read(from traitCollection: TraitCollection) throws -> TraitValue { try key.read(from: traitCollection) }
    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws { try key.write(to: &mutableTraits, value: value) }
}

/// The environment keys known in one world, by name: SwiftUI's built-in keys
/// plus what scripts and Swift code register. Keeps names unique and knows
/// which keys are bridged.
public final class EnvironmentKeyRegistry {
    /// Every key of the world, built-in keys first, in the order they were added.
    public private(set) var keys: [EnvironmentKeyDefinition] = []
    /// Keys with a bridge, in the order they were bridged (built-ins first).
    public private(set) var bridgedKeys: [EnvironmentKeyDefinition] = []
    private var byName: [String: EnvironmentKeyDefinition] = [:]
    /// Bumped whenever the set of bridged keys changes, so hosts recompute.
    public private(set) var generation = 0
    /// The SwiftUI hosts of this world, told when the bridged keys change.
    private var hosts: [WeakHost] = []

    private struct WeakHost { weak var host: SwiftUIHost? }

    /// A registry holding SwiftUI's built-in keys (``BuiltinEnvironmentKeys/all``).
    public init() {
        for key in BuiltinEnvironmentKeys.all { insert(key) }
    }

    /// The key whose name is `name`, if any.
    public func key(named name: String) -> EnvironmentKeyDefinition? { byName[name] }

    /// Adds a key; a name already in use by another key is an error.
    public func register(_ key: EnvironmentKeyDefinition) throws {
        if let existing = byName[key.name] {
            if existing === key { return }
            throw TraitError("environment key '\(key.name)' is already defined\(existing.isBuiltin ? " (it is one of SwiftUI's own keys)" : existing.owner.map { " by plugin '\($0)'" } ?? "")")
        }
        insert(key)
    }

    /// Registers a key type (and its bridge, for a ``TraitBridgedEnvironmentKey``).
    @discardableResult
    public func register<K: EnvironmentKey>(_ key: K.Type) throws -> EnvironmentKeyDefinition {
        let d = K.definition
        try TraitDefinition.checkProperty(d.name)
        try register(d)
        return d
    }

    /// Gives a registered key its bridge (`UITraitBridgedEnvironmentKey`).
    /// Bridging a key twice, or a built-in key, is an error and changes nothing.
    public func bridge(_ key: EnvironmentKeyDefinition, with bridge: EnvironmentBridge) throws {
        guard byName[key.name] === key else { throw TraitError("environment key '\(key.name)' is not registered in this world") }
        if key.isBuiltin, let t = key.systemTrait {
            throw TraitError("environment key '\(key.name)' is built in and already bridged to the trait '\(t.property)'")
        }
        if key.bridge != nil { throw TraitError("environment key '\(key.name)' is already bridged") }
        key.bridge = bridge
        bridgedKeys.append(key)
        bridgedKeysChanged()
    }

    /// Removes a key's bridge (a plugin reload that bridges it again).
    public func unbridge(_ key: EnvironmentKeyDefinition) {
        guard !key.isBuiltin, key.bridge != nil else { return }
        key.bridge = nil
        bridgedKeys.removeAll { $0 === key }
        bridgedKeysChanged()
    }

    /// Gives `key` the type and default of `other` and drops its bridge (a
    /// plugin reload defines the key again and bridges it again).
    public func redefine(_ key: EnvironmentKeyDefinition, like other: EnvironmentKeyDefinition) {
        key.redefine(like: other)
        if key.bridge != nil { unbridge(key) } else { bridgedKeysChanged() }
    }

    func add(_ host: SwiftUIHost) {
        hosts.removeAll { $0.host == nil }
        hosts.append(WeakHost(host: host))
    }

    private func bridgedKeysChanged() {
        generation += 1
        hosts.removeAll { $0.host == nil }
        for h in hosts { h.host?.setNeedsUpdate() }
    }

    private func insert(_ key: EnvironmentKeyDefinition) {
        keys.append(key)
        byName[key.name] = key
        if key.bridge != nil {
            bridgedKeys.append(key)
            generation += 1
        }
    }
}

import TraitEngine

// The part of UIKit (iOS 17) that `traitlab swift export` writes against, with
// Apple's Swift signatures, stored in TraitEngine. Source: Apple's
// documentation of UITraitDefinition ("The protocol defines default
// implementations for name and identifier properties. Defining defaultValue is
// the minimum requirement"; name: "By default, the trait's class name is
// used"), UITraitCollection's `subscript<T: UITraitDefinition>(trait: T.Type)`
// and `init(mutations: (inout UIMutableTraits) -> Void)`, and UIMutableTraits'
// get/set subscript.

public protocol UITraitDefinition {
    associatedtype Value = Self
    static var defaultValue: Value { get }
    static var affectsColorAppearance: Bool { get }
    static var name: String { get }
    static var identifier: String { get }
}

extension UITraitDefinition {
    public static var affectsColorAppearance: Bool { false }
    public static var name: String { String(describing: Self.self) }
    /// Apple's default is unspecified beyond "a unique string"; the
    /// module-qualified type name is unique.
    public static var identifier: String { String(reflecting: Self.self) }
}

public final class UITraitCollection {
    /// The TraitEngine collection holding the values (not UIKit API).
    public let _engine: TraitCollection

    public init(_engine: TraitCollection) { self._engine = _engine }
    public convenience init() { self.init(_engine: .empty) }

    public convenience init(mutations: (inout UIMutableTraits) -> Void) {
        var m: UIMutableTraits = _EngineMutableTraits(MutableTraits(base: .empty))
        mutations(&m)
        self.init(_engine: (m as! _EngineMutableTraits).traits.makeCollection())
    }

    public func modifyingTraits(_ mutations: (inout UIMutableTraits) -> Void) -> UITraitCollection {
        var m: UIMutableTraits = _EngineMutableTraits(MutableTraits(base: _engine))
        mutations(&m)
        return UITraitCollection(_engine: (m as! _EngineMutableTraits).traits.makeCollection())
    }

    public subscript<T: UITraitDefinition>(trait: T.Type) -> T.Value {
        _TraitStore.decode(_engine[_TraitStore.definition(T.self)], as: T.Value.self)
    }

    /// The trait's TraitEngine definition (not UIKit API).
    public static func _definition<T: UITraitDefinition>(_ trait: T.Type) -> TraitDefinition { _TraitStore.definition(trait) }
}

/// A colour known by its name, as a colour trait holds it in TraitLab:
/// `init?(named:)` (a colour set of the app's catalogue) and the dynamic system
/// colours as class properties, with Apple's signatures ("init?(named name:
/// String)", "class var systemIndigo: UIColor { get }"). The test has no
/// catalogue: every name is a colour set (UIKit gives nil for a missing one).
public final class UIColor: Equatable {
    /// The name (not UIKit API).
    public let _name: String
    public init?(named name: String) { _name = name }
    init(_system name: String) { _name = name }
    public class var systemIndigo: UIColor { UIColor(_system: "systemIndigo") }
    public class var systemBackground: UIColor { UIColor(_system: "systemBackground") }
    public static func == (a: UIColor, b: UIColor) -> Bool { a._name == b._name }
}

/// An image set known by its name: `init?(named:)`, as UIKit declares it.
public final class UIImage: Equatable {
    /// The name (not UIKit API).
    public let _name: String
    public init?(named name: String) { _name = name }
    public static func == (a: UIImage, b: UIImage) -> Bool { a._name == b._name }
}

public protocol UIMutableTraits {
    subscript<T: UITraitDefinition>(trait: T.Type) -> T.Value { get set }
}

/// The one conforming type: a TraitEngine `MutableTraits` (not UIKit API).
public struct _EngineMutableTraits: UIMutableTraits {
    public var traits: MutableTraits
    public init(_ traits: MutableTraits) { self.traits = traits }

    public subscript<T: UITraitDefinition>(trait: T.Type) -> T.Value {
        get { _TraitStore.decode(traits[_TraitStore.definition(T.self)], as: T.Value.self) }
        set {
            do {
                try traits.set(_TraitStore.definition(T.self), _TraitStore.encode(newValue))
            } catch {
                fatalError("\(T.self): \(error)")   // a value of the trait's own type always fits
            }
        }
    }
}

/// Values to and from TraitEngine's `TraitValue`: Bool, Int, Double, String,
/// enums (by raw value when it is a String, else by case name), colours and
/// images (by name), optionals, and structs (as tables of their stored properties, by label).
public enum _TraitStore {
    nonisolated(unsafe) private static var definitions: [ObjectIdentifier: TraitDefinition] = [:]
    /// Struct values by their table, per type: a struct cannot be rebuilt from
    /// its fields generically, and equal structs give equal tables.
    nonisolated(unsafe) private static var structs: [ObjectIdentifier: [TraitValue: Any]] = [:]

    static func definition<T: UITraitDefinition>(_ t: T.Type) -> TraitDefinition {
        if let d = definitions[ObjectIdentifier(t)] { return d }
        let (type, optional) = valueType(T.Value.self, sample: T.defaultValue)
        let explicitID = T.identifier == String(reflecting: T.self) ? nil : T.identifier
        do {
            let d = try TraitDefinition(name: T.name, valueType: type, defaultValue: encode(T.defaultValue),
                                        isOptional: optional, identifier: explicitID,
                                        property: "_" + String(describing: T.self),
                                        affectsColorAppearance: T.affectsColorAppearance)
            definitions[ObjectIdentifier(t)] = d
            return d
        } catch {
            fatalError("\(T.self): \(error)")
        }
    }

    public static func valueType(_ type: Any.Type, sample: Any?) -> (TraitValueType, Bool) {
        if let o = type as? _OptionalType.Type { return (valueType(o.wrapped, sample: nil).0, true) }
        switch type {
        case is Bool.Type: return (.boolean, false)
        case is Int.Type: return (.integer, false)
        case is Double.Type: return (.number, false)
        case is String.Type: return (.string, false)
        case is UIColor.Type: return (.color, false)
        case is UIImage.Type: return (.image, false)
        default: break
        }
        if let e = type as? any (CaseIterable & RawRepresentable).Type {
            return (.enumeration(TraitEnum(name: String(describing: type), cases: caseNames(e))), false)
        }
        return (.table, false)
    }

    private static func caseNames<E: CaseIterable & RawRepresentable>(_ e: E.Type) -> [String] {
        e.allCases.map(caseName)
    }

    private static func caseName<E: RawRepresentable>(_ v: E) -> String {
        (v.rawValue as? String) ?? String(describing: v)
    }

    public static func encode(_ value: Any) -> TraitValue {
        if let o = value as? _OptionalValue {
            guard let w = o.wrappedValue else { return .none }
            return encode(w)
        }
        switch value {
        case let b as Bool: return .bool(b)
        case let i as Int: return .int(i)
        case let d as Double: return .number(d)
        case let s as String: return .string(s)
        case let c as UIColor: return .string(c._name)
        case let i as UIImage: return .string(i._name)
        case let r as any RawRepresentable: return .string(caseName(r))
        default:
            let entries = Mirror(reflecting: value).children.map {
                TraitTable.Entry(key: .string($0.label ?? ""), value: encode($0.value))
            }
            let t = TraitValue.table(TraitTable(entries))
            structs[ObjectIdentifier(type(of: value)), default: [:]][t] = value
            return t
        }
    }

    public static func decode<V>(_ t: TraitValue, as type: V.Type) -> V {
        if let o = type as? _OptionalType.Type {
            if t == .none { return o.nilValue as! V }
            return o.wrapping(decodeAny(t, as: o.wrapped)) as! V
        }
        return decodeAny(t, as: type) as! V
    }

    private static func decodeAny(_ t: TraitValue, as type: Any.Type) -> Any {
        switch t {
        case .bool(let b): return b
        case .int(let i): return i
        case .number(let d): return d
        case .string(let s):
            if let e = type as? any (CaseIterable & RawRepresentable).Type { return enumCase(e, s) }
            if type == UIColor.self { return UIColor(_system: s) }
            if type == UIImage.self { return UIImage(named: s)! }
            return s
        case .table:
            guard let v = structs[ObjectIdentifier(type)]?[t] else { fatalError("no \(type) value with the fields \(t)") }
            return v
        case .none:
            fatalError("nil for the non-optional \(type)")
        }
    }

    private static func enumCase<E: CaseIterable & RawRepresentable>(_ e: E.Type, _ name: String) -> Any {
        guard let c = e.allCases.first(where: { caseName($0) == name }) else { fatalError("\(e) has no case \(name)") }
        return c
    }
}

public protocol _OptionalType {
    static var wrapped: Any.Type { get }
    static var nilValue: Any { get }
    static func wrapping(_ v: Any) -> Any
}

protocol _OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: _OptionalType {
    public static var wrapped: Any.Type { Wrapped.self }
    public static var nilValue: Any { Wrapped?.none as Any }
    public static func wrapping(_ v: Any) -> Any { Wrapped?.some(v as! Wrapped) as Any }
}

extension Optional: _OptionalValue {
    var wrappedValue: Any? { self.map { $0 as Any } }
}

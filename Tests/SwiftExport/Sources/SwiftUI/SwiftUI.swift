import TraitEngine
import UIKit

// The part of SwiftUI (iOS 17) that `traitlab swift export` writes against,
// with Apple's Swift signatures, stored in TraitEngine: `EnvironmentKey`
// (`associatedtype Value`, `static var defaultValue: Value`),
// `EnvironmentValues`' `subscript<K: EnvironmentKey>(key: K.Type) -> K.Value`,
// and `UITraitBridgedEnvironmentKey` (`read(from: UITraitCollection) -> Value`,
// `write(to: inout UIMutableTraits, value: Value)`), as in WWDC23 "Unleash the
// UIKit trait system".

public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

public protocol UITraitBridgedEnvironmentKey: EnvironmentKey {
    static func read(from traitCollection: UITraitCollection) -> Value
    static func write(to mutableTraits: inout UIMutableTraits, value: Value)
}

public struct EnvironmentValues {
    /// TraitEngine's environment values holding the values (not SwiftUI API).
    public var _engine: TraitEngine.EnvironmentValues

    public init() { _engine = .empty }
    public init(_engine: TraitEngine.EnvironmentValues) { self._engine = _engine }

    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { _TraitStore.decode(_engine[_KeyStore.definition(K.self)], as: K.Value.self) }
        set {
            do {
                _engine = try _engine.setting(_KeyStore.definition(K.self), _TraitStore.encode(newValue))
            } catch {
                fatalError("\(K.self): \(error)")
            }
        }
    }
}

/// How a hosting controller bridges (not SwiftUI API): the environment a
/// SwiftUI view hosted with `traits` sees, and the traits UIKit content inside
/// a representable gets from `environment`, computed by TraitEngine through
/// each key's `read` and `write`.
public enum _Bridging {
    public static func environment(hostedIn traits: UITraitCollection,
                                   keys: [any UITraitBridgedEnvironmentKey.Type]) throws -> EnvironmentValues {
        let defs = keys.map { _KeyStore.bridgedDefinition($0) }
        return EnvironmentValues(_engine: try TraitEngine.EnvironmentValues.bridged(from: traits._engine, keys: defs))
    }

    public static func traits(carrying environment: EnvironmentValues, over traits: UITraitCollection,
                              keys: [any UITraitBridgedEnvironmentKey.Type]) throws -> UITraitCollection {
        let defs = keys.map { _KeyStore.bridgedDefinition($0) }
        let host = try TraitEngine.EnvironmentValues.bridged(from: traits._engine, keys: defs)
        let entries = try environment._engine.traitOverrides(over: traits._engine, hostEnvironment: host, keys: defs)
        return UITraitCollection(_engine: traits._engine.modifyingTraits { m in
            for e in entries { m[e.definition] = e.value }
        })
    }
}

enum _KeyStore {
    nonisolated(unsafe) private static var definitions: [ObjectIdentifier: EnvironmentKeyDefinition] = [:]

    static func definition<K: EnvironmentKey>(_ k: K.Type) -> EnvironmentKeyDefinition {
        if let d = definitions[ObjectIdentifier(k)] { return d }
        let (type, optional) = _TraitStore.valueType(K.Value.self, sample: K.defaultValue)
        do {
            let d = try EnvironmentKeyDefinition(name: "_" + String(describing: K.self), valueType: type,
                                                 defaultValue: _TraitStore.encode(K.defaultValue), isOptional: optional)
            definitions[ObjectIdentifier(k)] = d
            return d
        } catch {
            fatalError("\(K.self): \(error)")
        }
    }

    static func bridgedDefinition(_ k: any UITraitBridgedEnvironmentKey.Type) -> EnvironmentKeyDefinition {
        open(k)
    }

    private static func open<K: UITraitBridgedEnvironmentKey>(_ k: K.Type) -> EnvironmentKeyDefinition {
        let d = definition(k)
        if d.bridge == nil {
            let registry = EnvironmentKeyRegistry()
            try! registry.register(d)
            try! registry.bridge(d, with: KeyBridge<K>())
        }
        return d
    }
}

/// A key type's `read` and `write`, as TraitEngine calls a bridge.
private final class KeyBridge<K: UITraitBridgedEnvironmentKey>: EnvironmentBridge {
    func read(from traitCollection: TraitCollection) throws -> TraitValue {
        _TraitStore.encode(K.read(from: UITraitCollection(_engine: traitCollection)))
    }

    func write(to mutableTraits: inout MutableTraits, value: TraitValue) throws {
        var m: UIMutableTraits = _EngineMutableTraits(mutableTraits)
        K.write(to: &m, value: _TraitStore.decode(value, as: K.Value.self))
        mutableTraits = (m as! _EngineMutableTraits).traits
    }
}

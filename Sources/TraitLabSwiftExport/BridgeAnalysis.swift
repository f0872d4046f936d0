import TraitEngine

/// Finds the trait a bridged environment key stands for, by running its
/// bridge rather than reading its code: a bridge written in Lua can do
/// anything, and only one shape has a Swift spelling in the talk's pattern,
/// `read` returning `traitCollection.prop` and `write` doing
/// `mutableTraits.prop = value`. That shape is recognised by its behaviour:
/// for sample values of the key's type, `write` changes exactly one custom
/// trait, to the value given, and `read` gives back what that trait holds.
enum BridgeAnalysis {
    enum Outcome {
        case trait(TraitDefinition)
        case notExportable(String)
    }

    static func bridgedTrait(of key: EnvironmentKeyDefinition, bridge: EnvironmentBridge) -> Outcome {
        let samples = sampleValues(of: key)
        guard !samples.isEmpty else {
            return .notExportable("its \(key.valueType.name) values have no Swift spelling to test the bridge with")
        }
        // Which trait does `write` change?
        var written: [(TraitValue, TraitCollection)] = []
        var target: TraitDefinition?
        for v in samples {
            var m = MutableTraits(base: .empty)
            do {
                try bridge.write(to: &m, value: v)
            } catch {
                return .notExportable("its write failed for \(describe(v)): \(message(error))")
            }
            let tc = m.makeCollection()
            written.append((v, tc))
            let changed = tc.entries.map(\.definition)
            if changed.count > 1 {
                return .notExportable("its write of \(describe(v)) changes \(changed.count) traits (\(changed.map(\.name).joined(separator: ", "))), not one")
            }
            if let d = changed.first {
                if let t = target, t !== d {
                    return .notExportable("its write changes '\(t.name)' for one value and '\(d.name)' for another")
                }
                target = d
            }
        }
        guard let trait = target else {
            return .notExportable("its write changes no trait")
        }
        if trait.isSystem {
            return .notExportable("it maps to the system trait '\(trait.property)', whose UIKit type is not the key's; write this conformance by hand")
        }
        guard trait.valueType == key.valueType, trait.isOptional == key.isOptional else {
            return .notExportable("the key's values are \(key.expectedDescription) but the trait '\(trait.name)' holds \(trait.valueType.name) values")
        }
        // `write` must store the value unchanged ...
        for (v, tc) in written where tc.rawValue(trait) != v {
            return .notExportable("its write of \(describe(v)) stores \(describe(tc.rawValue(trait))) in '\(trait.property)' (not the value itself)")
        }
        // ... and `read` must give back what the trait holds.
        for v in samples + [trait.defaultValue] {
            do {
                let tc = try TraitCollection { try $0.set(trait, v) }
                let r = try bridge.read(from: tc)
                guard r == v else {
                    return .notExportable("its read of '\(trait.property)' = \(describe(v)) gives \(describe(r)), not the trait's value")
                }
            } catch {
                return .notExportable("its read failed for '\(trait.property)' = \(describe(v)): \(message(error))")
            }
        }
        return .trait(trait)
    }

    /// Values of the key's type to try the bridge with: every case of an
    /// enum, both booleans, a few of each other kind, and the default.
    static func sampleValues(of key: EnvironmentKeyDefinition) -> [TraitValue] {
        var values: [TraitValue]
        switch key.valueType {
        case .boolean: values = [.bool(false), .bool(true)]
        case .integer: values = [.int(0), .int(1), .int(-7), .int(1 << 40)]
        case .number: values = [.number(0), .number(1.5), .number(-2.25)]
        case .string: values = [.string(""), .string("traitlab"), .string("x y")]
        case .enumeration(let e): values = e.cases.map { .string($0) }
        case .color: values = [.string("systemBlue"), .string("AccentColor")]
        case .image: values = [.string("AppIcon"), .string("Icons/Star")]
        case .table: return []
        }
        if key.defaultValue != .none, !values.contains(key.defaultValue) { values.append(key.defaultValue) }
        return values
    }

    private static func message(_ error: Error) -> String {
        (error as? TraitError)?.message ?? "\(error)"
    }
}

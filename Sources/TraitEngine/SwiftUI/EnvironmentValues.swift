/// SwiftUI's `EnvironmentValues`: an immutable set of environment values.
///
/// Like ``TraitCollection``, only values that differ from their key's default
/// are stored, sorted by key id, and a view without `environment` modifiers
/// shares its parent's object, so "did anything change?" is usually one
/// identity compare. Reads made while a view's body runs are recorded, so the
/// view re-runs its body only when a value it read changes.
///
/// ```swift
/// let env = try EnvironmentValues.empty.setting(BuiltinEnvironmentKeys.colorScheme, .string("dark"))
/// env[BuiltinEnvironmentKeys.colorScheme]   // .string("dark")
/// ```
public final class EnvironmentValues: Equatable, CustomStringConvertible {
    /// One key and its value.
    public struct Entry: Equatable {
        /// The key.
        public let key: EnvironmentKeyDefinition
        /// Its value.
        public let value: TraitValue

        /// An entry giving `key` the value `value` (not checked: see ``EnvironmentKeyDefinition/validate(_:)``).
        public init(key: EnvironmentKeyDefinition, value: TraitValue) {
            self.key = key
            self.value = value
        }

        /// Whether both entries are of the same key and have the same value.
        public static func == (a: Entry, b: Entry) -> Bool { a.key === b.key && a.value == b.value }
    }

    /// Non-default values, sorted by key id.
    public let entries: [Entry]

    /// Every key at its default.
    nonisolated(unsafe) public static let empty = EnvironmentValues(canonical: [])
    /// Records the reads of one environment while a body runs.
    nonisolated(unsafe) static var tracker: EnvironmentReadTracker?

    init(canonical entries: [Entry]) { self.entries = entries }

    convenience init(sorting entries: [Entry]) {
        self.init(canonical: entries.sorted { $0.key.id < $1.key.id })
    }

    /// The value for `key`, or its default; recorded as a dependency when read
    /// from a body.
    public subscript(key: EnvironmentKeyDefinition) -> TraitValue {
        if let t = EnvironmentValues.tracker, t.values === self { t.record(key) }
        return value(key)
    }

    /// The value of the key type `key`, as the subscript taking its definition reads it.
    public subscript<K: EnvironmentKey>(key: K.Type) -> TraitValue { self[K.definition] }

    /// The value without recording a read.
    public func value(_ key: EnvironmentKeyDefinition) -> TraitValue {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let id = entries[mid].key.id
            if id == key.id { return entries[mid].value }
            if id < key.id { lo = mid + 1 } else { hi = mid }
        }
        return key.defaultValue
    }

    /// A copy with `key` set to `value` (checked against the key's type).
    public func setting(_ key: EnvironmentKeyDefinition, _ value: TraitValue) throws -> EnvironmentValues {
        applying([Entry(key: key, value: try key.validate(value))])
    }

    /// These values with `modifiers` (already checked, in any order, last one
    /// winning) applied on top; `self` when they change nothing.
    func applying(_ modifiers: [Entry]) -> EnvironmentValues {
        if modifiers.isEmpty { return self }
        var byID: [Int: Entry] = [:]
        for e in entries { byID[e.key.id] = e }
        for m in modifiers { byID[m.key.id] = m }
        let merged = byID.values.filter { $0.value != $0.key.defaultValue }.sorted { $0.key.id < $1.key.id }
        return merged == entries ? self : EnvironmentValues(canonical: merged)
    }

    /// The keys whose values differ between the two, sorted by id.
    public func changedKeys(from other: EnvironmentValues) -> [EnvironmentKeyDefinition] {
        if other === self { return [] }
        var result: [EnvironmentKeyDefinition] = []
        var i = 0, j = 0
        let a = entries, b = other.entries
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].key.id < b[j].key.id) {
                result.append(a[i].key); i += 1
            } else if i == a.count || b[j].key.id < a[i].key.id {
                result.append(b[j].key); j += 1
            } else {
                if a[i].value != b[j].value { result.append(a[i].key) }
                i += 1; j += 1
            }
        }
        return result
    }

    /// Whether the two have the same value for every key.
    public static func == (a: EnvironmentValues, b: EnvironmentValues) -> Bool {
        a === b || a.entries == b.entries
    }

    /// `EnvironmentValues(colorScheme = "dark", myAppTheme = "pastel")`; only non-defaults.
    public var description: String {
        "EnvironmentValues(" + entries.map { "\($0.key.name) = \(describe($0.value))" }.joined(separator: ", ") + ")"
    }
}

/// Collects the keys a body read from one environment.
final class EnvironmentReadTracker {
    let values: EnvironmentValues
    private(set) var read: [EnvironmentKeyDefinition] = []

    init(values: EnvironmentValues) { self.values = values }

    func record(_ key: EnvironmentKeyDefinition) {
        if !read.contains(where: { $0 === key }) { read.append(key) }
    }
}

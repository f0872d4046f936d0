/// An immutable set of trait values (UIKit's `UITraitCollection`).
///
/// Only values that differ from their trait's default are stored, sorted by
/// definition id, so two equal collections have equal entries. Collections are
/// shared by identity wherever possible: an environment without overrides holds
/// its parent's collection object, so "did anything change?" is usually one
/// pointer compare.
///
/// ```swift
/// let tc = TraitCollection { $0[SystemTraits.horizontalSizeClass] = .string("compact") }
/// tc[SystemTraits.horizontalSizeClass]   // .string("compact")
/// ```
public final class TraitCollection: Hashable, CustomStringConvertible {
    /// One trait and its value in a collection.
    public struct Entry: Equatable {
        /// The trait.
        public let definition: TraitDefinition
        /// Its value.
        public let value: TraitValue
        /// An entry giving `definition` the value `value` (not checked: see
        /// ``TraitDefinition/validate(_:)``).
        public init(definition: TraitDefinition, value: TraitValue) {
            self.definition = definition
            self.value = value
        }
    }

    /// Non-default values, sorted by definition id.
    public let entries: [Entry]

    /// A host's own key for its object of this collection (the Lua host: its
    /// id and the object's slot); 0 until a host sets it. The engine never
    /// reads it. A collection may be shared by every world in the process
    /// (``empty``), so a host checks the key is its own.
    public var hostKey: UInt64 {
        // (Accessors compiled here: another module's access to the stored
        // property would be checked for exclusivity at run time, a call.)
        get { storedHostKey }
        set { storedHostKey = newValue }
    }
    @exclusivity(unchecked) private var storedHostKey: UInt64 = 0

    /// The collection with every trait at its default.
    nonisolated(unsafe) public static let empty = TraitCollection(canonical: [])
    /// Collections created so far (instrumentation: `ui.stats().collectionsCreated`).
    @exclusivity(unchecked) nonisolated(unsafe) public internal(set) static var createdCount = 0
    /// Records trait reads of one collection while automatic trait tracking is on.
    /// Unretained: `TraitEnvironment.tracking` sets it while its frame holds
    /// the tracker, and puts the outer one back before it lets go.
    /// (Kept as `Unmanaged`: a read of it counts no reference, where a strong
    /// copy of an `unowned(unsafe)` one is retained and released per trait read.)
    @exclusivity(unchecked) nonisolated(unsafe) static var tracker: Unmanaged<TraitReadTracker>?

    init(canonical entries: [Entry]) {
        self.entries = entries
        TraitCollection.createdCount += 1
    }

    /// Builds a collection by applying `mutations` to an empty one
    /// (`UITraitCollection(mutations:)`).
    public convenience init(mutations: (inout MutableTraits) throws -> Void) rethrows {
        var m = MutableTraits(base: .empty)
        try mutations(&m)
        self.init(canonical: m.canonicalEntries())
    }

    /// The value of `definition`, or its default when unset.
    public subscript(definition: TraitDefinition) -> TraitValue {
        TraitCollection.recordRead(of: definition, in: self)
        return rawValue(definition)
    }

    /// Records a read of `definition` in `collection` as its subscript does
    /// (for hosts that serve values they cached, such as the Lua binding).
    @inline(__always)
    public static func recordRead(of definition: TraitDefinition, in collection: TraitCollection) {
        tracker?._withUnsafeGuaranteedRef { t in
            if t.collection === collection || t.viewCollection === collection { t.record(definition) }
        }
    }

    /// Records, for a callback tracking reads of `collection`, a use that
    /// depends on every trait: iterating the collection, describing it,
    /// comparing it or copying it (a trait that changes, or that becomes set,
    /// changes what such a use gives). Records every definition of `registry`.
    public static func recordReadOfEveryTrait(in collection: TraitCollection, registry: TraitRegistry) {
        tracker?._withUnsafeGuaranteedRef { t in
            guard t.collection === collection || t.viewCollection === collection else { return }
            for d in registry.definitions { t.record(d) }
        }
    }

    /// The value without recording a tracked read.
    public func rawValue(_ definition: TraitDefinition) -> TraitValue {
        let id = definition.id
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let eid = entries[mid].definition.id
            if eid == id { return entries[mid].value }
            if eid < id { lo = mid + 1 } else { hi = mid }
        }
        return definition.defaultValue
    }

    /// A new collection with `mutations` applied (`modifyingTraits`). Returns
    /// `self` when nothing changed.
    public func modifyingTraits(_ mutations: (inout MutableTraits) throws -> Void) rethrows -> TraitCollection {
        var m = MutableTraits(base: self)
        try mutations(&m)
        return m.makeCollection()
    }

    /// The definitions whose values differ between the two collections, sorted by id.
    public func changedTraits(from other: TraitCollection) -> [TraitDefinition] {
        if other === self { return [] }
        var result: [TraitDefinition] = []
        var i = 0, j = 0
        let a = entries, b = other.entries
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].definition.id < b[j].definition.id) {
                result.append(a[i].definition); i += 1
            } else if i == a.count || b[j].definition.id < a[i].definition.id {
                result.append(b[j].definition); j += 1
            } else {
                if a[i].value != b[j].value { result.append(a[i].definition) }
                i += 1; j += 1
            }
        }
        return result
    }

    /// This collection with `overrides` applied on top; `self` when they change nothing.
    func applying(_ overrides: [Entry]) -> TraitCollection {
        if overrides.isEmpty { return self }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + overrides.count)
        var i = 0, j = 0
        while i < entries.count || j < overrides.count {
            if j == overrides.count || (i < entries.count && entries[i].definition.id < overrides[j].definition.id) {
                merged.append(entries[i]); i += 1
            } else {
                let o = overrides[j]
                if o.value != o.definition.defaultValue { merged.append(o) }
                if i < entries.count && entries[i].definition.id == o.definition.id { i += 1 }
                j += 1
            }
        }
        if merged == entries { return self }
        return TraitCollection(canonical: merged)
    }

    /// A collection of `entries` (each definition once, any order); entries
    /// at their trait's default are left out, as in every collection.
    public convenience init(sortedEntries entries: [Entry]) {
        let sorted = entries.sorted { $0.definition.id < $1.definition.id }
        self.init(canonical: sorted.filter { $0.value != $0.definition.defaultValue })
    }

    /// `UITraitCollection(traitsFrom:)`: for each trait, the value of the last
    /// collection in `collections` that specifies it (has a value other than
    /// the default).
    public convenience init(traitsFrom collections: [TraitCollection]) {
        var merged = TraitCollection.empty
        for c in collections { merged = merged.applying(c.entries) }
        self.init(canonical: merged.entries)
    }

    /// `containsTraits(in:)`: whether every trait `other` specifies has the
    /// same value here.
    public func containsTraits(in other: TraitCollection) -> Bool {
        other.entries.allSatisfy { rawValue($0.definition) == $0.value }
    }

    /// `hasDifferentColorAppearance(comparedTo:)`: whether a trait whose
    /// definition affects colour appearance differs between the two.
    public func hasDifferentColorAppearance(comparedTo other: TraitCollection) -> Bool {
        changedTraits(from: other).contains { $0.affectsColorAppearance }
    }

    /// Whether the two collections have the same values for every trait.
    public static func == (a: TraitCollection, b: TraitCollection) -> Bool {
        a === b || a.entries == b.entries
    }

    /// Hashed from the entries when asked: nothing in an update hashes
    /// collections, and a hash made at creation was a third of the cost of
    /// an override change at a leaf (hashing string values).
    public func hash(into h: inout Hasher) {
        for e in entries {
            h.combine(e.definition.id)
            h.combine(e.value)
        }
    }

    /// `TraitCollection(horizontalSizeClass = compact, theme = pastel)`; only non-defaults.
    public var description: String {
        let parts = entries.map { "\($0.definition.property) = \(describe($0.value))" }
        return "TraitCollection(" + parts.joined(separator: ", ") + ")"
    }
}

/// A mutable view of trait values (UIKit's `UIMutableTraits`), used while
/// building or modifying a collection.
public struct MutableTraits {
    private var base: TraitCollection
    /// What was written, one entry per trait, sorted by the definitions' ids
    /// (as a collection's entries are, so merging them needs no sorted copy).
    /// A closure sets a few traits: a linear search beats hashing (a
    /// dictionary here was half the cost of `traits.collection { three traits }`).
    private var changes: [TraitCollection.Entry] = []

    /// Traits that start as `base`'s values.
    public init(base: TraitCollection) { self.base = base }

    /// Where the write of the trait numbered `id` is in `changes`, or would go.
    private func position(of id: Int) -> (index: Int, found: Bool) {
        var i = 0
        while i < changes.count && changes[i].definition.id < id { i += 1 }
        return (i, i < changes.count && changes[i].definition.id == id)
    }

    /// The value of `definition`: what was written, else the base's value.
    /// Writing does not check the value against the trait's type (``set(_:_:)``
    /// does).
    public subscript(definition: TraitDefinition) -> TraitValue {
        get {
            let (i, found) = position(of: definition.id)
            return found ? changes[i].value : base.rawValue(definition)
        }
        set {
            let entry = TraitCollection.Entry(definition: definition, value: newValue)
            let (i, found) = position(of: definition.id)
            if found {
                changes[i] = entry
            } else {
                if changes.isEmpty { changes.reserveCapacity(4) }
                if i == changes.count { changes.append(entry) } else { changes.insert(entry, at: i) }
            }
        }
    }

    /// Sets a value after checking it against the trait's type.
    public mutating func set(_ definition: TraitDefinition, _ value: TraitValue) throws {
        self[definition] = try definition.validate(value)
    }

    /// Whether anything was written since this value was created.
    public var hasChanges: Bool { !changes.isEmpty }

    /// The base's entries (sorted by id, no defaults) merged with the changes:
    /// sorted by id, a change replacing the base's value, defaults left out.
    func canonicalEntries() -> [TraitCollection.Entry] {
        let written = changes, old = base.entries
        // Over an empty base (`traits.collection { ... }`), the writes are
        // the entries when none is a default: the collection shares their array.
        if old.isEmpty && !written.contains(where: { $0.value == $0.definition.defaultValue }) { return written }
        var result: [TraitCollection.Entry] = []
        result.reserveCapacity(old.count + written.count)
        var i = 0, j = 0
        while i < old.count || j < written.count {
            if j == written.count || (i < old.count && old[i].definition.id < written[j].definition.id) {
                result.append(old[i])
                i += 1
                continue
            }
            let e = written[j]
            if i < old.count && old[i].definition.id == e.definition.id { i += 1 }
            if e.value != e.definition.defaultValue { result.append(e) }
            j += 1
        }
        return result
    }

    /// At most how many entries ``makeCollection()`` gives its collection
    /// (for a host that asks for memory before it is allocated).
    public var entryCountBound: Int { changes.isEmpty ? 0 : base.entries.count + changes.count }

    /// The resulting collection; the base itself when the values are unchanged.
    public func makeCollection() -> TraitCollection {
        if changes.isEmpty { return base }
        let entries = canonicalEntries()
        return entries == base.entries ? base : TraitCollection(canonical: entries)
    }
}

/// Collects which traits a callback read from one environment's collection
/// (automatic trait tracking, as in iOS 18).
///
/// Trackers are reused (`take(collection:viewCollection:)` and
/// `give(_:)`): a tracked callback runs for every view an update lays out,
/// and a new tracker and its list were two allocations each time. Its list
/// keeps its capacity between uses.
public final class TraitReadTracker {
    @exclusivity(unchecked) unowned(unsafe) var collection: TraitCollection
    /// A view controller's callbacks also track reads of its view's collection.
    @exclusivity(unchecked) unowned(unsafe) var viewCollection: TraitCollection?
    /// The definitions read, in order: the first `count` of `slots` (the
    /// rest are left over from an earlier use).
    @exclusivity(unchecked) private var slots: [TraitDefinition] = []
    @exclusivity(unchecked) private(set) var count = 0

    init(collection: TraitCollection, viewCollection: TraitCollection? = nil) {
        self.collection = collection
        self.viewCollection = viewCollection
    }

    func record(_ d: TraitDefinition) {
        for i in 0..<count where slots[i] === d { return }
        if count < slots.count { slots[count] = d } else { slots.append(d) }
        count += 1
    }

    /// What was read, as a list of its own.
    var read: [TraitDefinition] { Array(slots[0..<count]) }

    /// Whether the reads were exactly `list`, in order (no list made).
    func readExactly(_ list: [TraitDefinition]) -> Bool {
        guard list.count == count else { return false }
        for i in 0..<count where slots[i] !== list[i] { return false }
        return true
    }

    /// Trackers given back, ready for reuse (nested callbacks take several).
    @exclusivity(unchecked) nonisolated(unsafe) private static var spare: [TraitReadTracker] = []

    /// A tracker for a callback reading `collection` (and `viewCollection`).
    /// The caller keeps both collections alive until it gives the tracker back.
    static func take(collection: TraitCollection, viewCollection: TraitCollection?) -> TraitReadTracker {
        guard let t = spare.popLast() else { return TraitReadTracker(collection: collection, viewCollection: viewCollection) }
        t.collection = collection
        t.viewCollection = viewCollection
        return t
    }

    /// Gives a tracker back once its reads were used.
    static func give(_ t: TraitReadTracker) {
        t.count = 0
        t.viewCollection = nil
        t.collection = .empty
        if spare.count < 8 { spare.append(t) }
    }
}

/// A human-readable rendering of a value: strings quoted, tables in braces.
public func describe(_ v: TraitValue) -> String {
    var out = ""
    _ = describe(v, into: &out, maxBytes: .max)
    return out
}

/// ``describe(_:)`` stopped once it has passed `maxBytes` UTF-8 bytes, for
/// a place that shows only the start (a dump's line): the text begins as
/// the whole description does (a string value cut inside a character ends
/// in U+FFFD), and `isCut` says whether it stopped early. Its work and
/// memory are bounded by `maxBytes`, however big the value.
public func describe(_ v: TraitValue, maxBytes: Int) -> (text: String, isCut: Bool) {
    var out = ""
    let complete = describe(v, into: &out, maxBytes: maxBytes)
    return (out, !complete)
}

/// Appends the description of `v` to `out`; false when it stopped past `maxBytes`.
private func describe(_ v: TraitValue, into out: inout String, maxBytes: Int) -> Bool {
    if out.utf8.count > maxBytes { return false }
    switch v {
    case .none: out += "nil"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .number(let d): out += formatNumber(d)
    case .string(let s):
        out += "\""
        let room = max(0, maxBytes - out.utf8.count + 1)
        if s.utf8.count > room {
            out += String(decoding: s.utf8.prefix(room), as: UTF8.self)
            return false
        }
        out += s
        out += "\""
    case .table(let t):
        let sequence = t.isSequence
        out += "{ "
        for (n, e) in t.entries.enumerated() {
            if n > 0 { out += ", " }
            if !sequence {
                switch e.key {
                case .string(let s):
                    let room = max(0, maxBytes - out.utf8.count + 1)
                    if s.utf8.count > room {
                        out += String(decoding: s.utf8.prefix(room), as: UTF8.self)
                        return false
                    }
                    out += s
                case .int(let i): out += "[\(i)]"
                case .number(let d): out += "[\(formatNumber(d))]"
                case .bool(let b): out += "[\(b)]"
                }
                out += " = "
            }
            guard describe(e.value, into: &out, maxBytes: maxBytes) else { return false }
        }
        out += " }"
    }
    return true
}

/// A trait's value, as stored in collections and overrides.
///
/// Values are plain data compared by value. Enum cases are stored as their case
/// name (`.string("pastel")`); the trait's ``TraitValueType`` says which cases
/// are valid. Tables are Lua-style tables of such values, compared by content.
public enum TraitValue: Hashable, Sendable {
    /// The absent value of an optional trait.
    case none
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case table(TraitTable)

    /// A short description of what kind of value this is, for error messages.
    public var kindName: String {
        switch self {
        case .none: return "nil"
        case .bool: return "boolean"
        case .int: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .table: return "table"
        }
    }
}

extension TraitValue {
    /// About how many bytes the engine takes to write the value as text
    /// (``describe(_:)``, or JSON through ``jsonValue``, whose values are
    /// counted at their biggest): for a host that asks for memory before the
    /// engine allocates it. Escapes in strings are not counted.
    public var textSizeEstimate: Int {
        switch self {
        case .none, .bool: return 8
        case .int, .number: return 24
        case .string(let s): return s.utf8.count + 2
        case .table(let t):
            return t.entries.reduce(4) { n, e in
                let key: Int
                if case .string(let s) = e.key { key = s.utf8.count + 2 } else { key = 24 }
                return n + 4 + key + e.value.textSizeEstimate
            }
        }
    }
}

/// A key of a ``TraitTable``: the key types a Lua table can have that are plain data.
public enum TraitTableKey: Hashable, Comparable, Sendable {
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)

    private var rank: Int {
        switch self {
        case .bool: return 0
        case .int, .number: return 1
        case .string: return 2
        }
    }

    public static func < (a: TraitTableKey, b: TraitTableKey) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        switch (a, b) {
        case let (.bool(x), .bool(y)): return !x && y
        case let (.string(x), .string(y)): return x < y
        default: return a.numericValue < b.numericValue
        }
    }

    private var numericValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .number(let d): return d
        default: return 0
        }
    }
}

/// An immutable table value: entries sorted by key, so equal tables compare and
/// hash equal and encode in one canonical order.
public struct TraitTable: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var key: TraitTableKey
        public var value: TraitValue
        public init(key: TraitTableKey, value: TraitValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var entries: [Entry]

    /// A number key with an integer value is stored as an integer key, as Lua
    /// does, so equal tables compare equal whatever their keys were written as.
    public init(_ entries: [Entry] = []) {
        self.entries = entries.map { e in
            if case .number(let d) = e.key, let i = Int(exactly: d) { return Entry(key: .int(i), value: e.value) }
            return e
        }.sorted { $0.key < $1.key }
    }

    /// Builds a table from an array of values (keys 1...n, as Lua arrays).
    public init(array: [TraitValue]) {
        self.entries = array.enumerated().map { Entry(key: .int($0.offset + 1), value: $0.element) }
    }

    public subscript(key: TraitTableKey) -> TraitValue? {
        entries.first { $0.key == key }?.value
    }

    /// True when the keys are exactly 1...n (a Lua sequence), so it encodes as a JSON array.
    public var isSequence: Bool {
        for (i, e) in entries.enumerated() where e.key != .int(i + 1) { return false }
        return true
    }
}

/// A value type fixed for a trait when it is defined.
public enum TraitValueType: Equatable, Sendable {
    case boolean
    case integer
    case number
    case string
    case table
    case enumeration(TraitEnum)

    public var name: String {
        switch self {
        case .boolean: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .enumeration(let e): return e.name
        }
    }
}

/// A named set of cases, the value type of enum traits (`traits.enum` in Lua).
public final class TraitEnum: Equatable, @unchecked Sendable {
    public let name: String
    public let cases: [String]
    private let caseSet: Set<String>

    public init(name: String, cases: [String]) {
        self.name = name
        self.cases = cases
        self.caseSet = Set(cases)
    }

    public func contains(_ c: String) -> Bool { caseSet.contains(c) }

    /// "standard, pastel, bold" — for messages naming the valid cases.
    public var caseList: String { cases.joined(separator: ", ") }

    public static func == (a: TraitEnum, b: TraitEnum) -> Bool {
        a === b || (a.name == b.name && a.cases == b.cases)
    }
}

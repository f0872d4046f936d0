/// A trait's value, as stored in collections and overrides.
///
/// Values are plain data compared by value. Enum cases are stored as their case
/// name (`.string("pastel")`); the trait's ``TraitValueType`` says which cases
/// are valid. Tables are Lua-style tables of such values, compared by content.
public enum TraitValue: Hashable, Sendable {
    /// The absent value of an optional trait.
    case none
    /// A boolean trait's value.
    case bool(Bool)
    /// An integer trait's value.
    case int(Int)
    /// A number trait's value.
    case number(Double)
    /// A string trait's value, or an enum trait's case name.
    case string(String)
    /// A table trait's value.
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
    /// A boolean key.
    case bool(Bool)
    /// An integer key (a number key with an integer value is stored as one).
    case int(Int)
    /// A number key that is not an integer.
    case number(Double)
    /// A string key.
    case string(String)

    private var rank: Int {
        switch self {
        case .bool: return 0
        case .int, .number: return 1
        case .string: return 2
        }
    }

    /// The order of a table's entries: booleans (false first), then numbers by
    /// value (integers and other numbers together), then strings.
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
    /// One key and its value.
    public struct Entry: Hashable, Sendable {
        /// The entry's key.
        public var key: TraitTableKey
        /// The entry's value.
        public var value: TraitValue
        /// An entry of `key` and `value`.
        public init(key: TraitTableKey, value: TraitValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries, sorted by key.
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

    /// The value at `key`, or nil when the table has none.
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
    /// `true` or `false` (``TraitValue/bool(_:)``).
    case boolean
    /// An integer (``TraitValue/int(_:)``).
    case integer
    /// A number (``TraitValue/number(_:)``).
    case number
    /// Any string (``TraitValue/string(_:)``).
    case string
    /// A table of plain values (``TraitValue/table(_:)``).
    case table
    /// One of an enum's case names (``TraitValue/string(_:)``).
    case enumeration(TraitEnum)
    /// A named colour: a system colour's name (`systemBackground`) or an asset
    /// catalogue's colour set (`Brand/Accent`), as `UIColor(named:)` takes it
    /// (``TraitValue/string(_:)``, the name).
    case color
    /// A named image: an asset catalogue's image set, as `UIImage(named:)`
    /// takes it (``TraitValue/string(_:)``, the name).
    case image

    /// The type's name in messages: `boolean`, `integer`, `number`, `string`, `table`, or the enum's name.
    public var name: String {
        switch self {
        case .boolean: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .enumeration(let e): return e.name
        case .color: return "color"
        case .image: return "image"
        }
    }
}

/// A named set of cases, the value type of enum traits (`traits.enum` in Lua).
public final class TraitEnum: Equatable, @unchecked Sendable {
    /// The enum's name (`MyAppTheme`, `UIUserInterfaceStyle`).
    public let name: String
    /// The case names, in declaration order.
    public let cases: [String]
    /// The cases hashed, for an enum of many (a few are compared in turn:
    /// cheaper than hashing, and the system traits' enums are made at start).
    private let caseSet: Set<String>?
    /// How the app declared it in Swift, when it came from `traitlab swift import`.
    public let swift: SwiftDeclaration?

    /// An enum named `name` with the case names `cases`.
    public init(name: String, cases: [String], swift: SwiftDeclaration? = nil) {
        self.name = name
        self.cases = cases
        self.caseSet = cases.count > 16 ? Set(cases) : nil
        self.swift = swift
    }

    /// Whether `c` is one of the case names.
    public func contains(_ c: String) -> Bool { caseSet?.contains(c) ?? cases.contains(c) }

    /// "standard, pastel, bold" — for messages naming the valid cases.
    public var caseList: String { cases.joined(separator: ", ") }

    /// Whether `a` and `b` are the same enum, or have the same name and cases in the same order.
    public static func == (a: TraitEnum, b: TraitEnum) -> Bool {
        a === b || (a.name == b.name && a.cases == b.cases)
    }
}

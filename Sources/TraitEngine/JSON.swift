/// A JSON value (RFC 8259), read with ``parse(_:budget:)`` and written with ``serialized``.
///
/// Numbers keep the distinction a Lua user sees: a number written without a
/// fraction or exponent that fits in `Int` is an ``integer(_:)``, any other is a
/// ``number(_:)``. Objects keep their members in document order, duplicates
/// included, so a writer controls the order of its output.
///
/// ```swift
/// let v = try JSONValue.parse(#"{"name": "card", "sizes": [1, 2.5]}"#)
/// v.serialized   // {"name":"card","sizes":[1,2.5]}
/// ```
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int`.
    case integer(Int)
    /// A finite number; a non-finite one is written as `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members, in document order (duplicates kept).
    case object([(key: String, value: JSONValue)])

    /// How deeply arrays and objects may nest in parsed input, so hostile
    /// input cannot exhaust the stack.
    public static let maximumDepth = 200

    /// Parses a complete JSON text. Malformed input is a ``TraitError`` giving
    /// the byte offset and what was expected there
    /// (`invalid JSON: expected ',' or '}' at offset 17, found 'x'`).
    ///
    /// With a `budget`, the memory the parsed value takes is asked for while
    /// it is built, before it is allocated; a refusal ends the parse with
    /// the budget's error.
    public static func parse(_ text: String, budget: MemoryBudget? = nil) throws -> JSONValue {
        try parse(utf8: text.utf8, budget: budget)
    }

    /// Parses a JSON text given as bytes (a Lua string, a file); bytes that are
    /// not valid UTF-8 inside a string are an error, as anywhere else.
    public static func parse<Bytes: Collection>(utf8 bytes: Bytes, budget: MemoryBudget? = nil) throws -> JSONValue
    where Bytes.Element == UInt8 {
        var meter = BudgetMeter(budget)
        try meter.charge(bytes.count + 32)   // the parser's copy
        var parser = JSONParser(bytes: Array(bytes), meter: meter)
        return try parser.parseDocument()
    }

    /// The compact JSON text: no whitespace, members in stored order, strings
    /// with `"`, `\` and control characters escaped and everything else kept as UTF-8.
    public var serialized: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// "object", "array", "string", "number", "boolean" or "null", for messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Whether the two values are the same: objects compare member by member, in order.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .integer(let i): out += String(i).utf8
        // Swift's description is the shortest text that reads back as the same
        // Double, keeps a fraction on integral values ("3.0") and is valid JSON.
        case .number(let d): out += (d.isFinite ? d.description : "null").utf8
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (n, m) in members.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                m.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case UInt8(ascii: "\n"): out += #"\n"#.utf8
            case UInt8(ascii: "\r"): out += #"\r"#.utf8
            case UInt8(ascii: "\t"): out += #"\t"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// A recursive-descent reader over UTF-8 bytes. Every error names the byte
/// offset; nesting is bounded by ``JSONValue/maximumDepth``.
private struct JSONParser {
    let bytes: [UInt8]
    var i = 0
    var depth = 0
    /// Asks for the memory of each value before it is made.
    var meter: BudgetMeter

    init(bytes: [UInt8], meter: BudgetMeter) {
        self.bytes = bytes
        self.meter = meter
    }

    /// What one more item of an array or object takes, counting the room
    /// its array grows into (up to twice what it holds).
    static let itemCost = 2 * MemoryLayout<JSONValue>.stride
    static let memberCost = 2 * MemoryLayout<(key: String, value: JSONValue)>.stride
    /// An array's or a string's storage: its header and malloc's rounding.
    static let storageCost = 48

    /// What a string of `count` UTF-8 bytes takes: nothing beyond its
    /// value when Swift keeps it inside (up to 15 bytes).
    static func stringCost(_ count: Int) -> Int { count > 15 ? count + storageCost : 0 }

    mutating func parseDocument() throws -> JSONValue {
        // RFC 8259 lets a reader ignore a byte order mark; editors add one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard i == bytes.count else { throw expected("the end of the input") }
        return value
    }

    // MARK: Errors

    private func expected(_ what: String, at offset: Int? = nil) -> TraitError {
        let o = offset ?? i
        return TraitError("invalid JSON: expected \(what) at offset \(o), found \(found(at: o))")
    }

    private func failure(_ what: String, at offset: Int) -> TraitError {
        TraitError("invalid JSON: \(what) at offset \(offset)")
    }

    private func found(at o: Int) -> String {
        guard o < bytes.count else { return "the end of the input" }
        let b = bytes[o]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        let hex = String(b, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" : "") + hex
    }

    // MARK: Values

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard let b = current else { throw expected("a value") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw expected("a value")
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws -> JSONValue {
        for b in word.utf8 {
            guard current == b else { throw expected("'\(word)'") }
            i += 1
        }
        return value
    }

    private mutating func enterContainer() throws {
        depth += 1
        if depth > JSONValue.maximumDepth {
            throw failure("arrays and objects nested more than \(JSONValue.maximumDepth) deep", at: i)
        }
        i += 1
    }

    private mutating func parseArray() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var items: [JSONValue] = []
        try meter.charge(JSONParser.storageCost)
        skipWhitespace()
        if current == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipWhitespace()
            try meter.charge(JSONParser.itemCost)
            // Growing the array takes a new buffer twice its size while the
            // old one still lives: asked for first (under an address-space
            // limit the large growths are what fails).
            if items.count == items.capacity { try meter.charge(MemoryLayout<JSONValue>.stride * max(16, 2 * items.capacity)) }
            items.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return .array(items)
            default: throw expected("',' or ']'")
            }
        }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [(key: String, value: JSONValue)] = []
        try meter.charge(JSONParser.storageCost)
        skipWhitespace()
        if current == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            try meter.charge(JSONParser.memberCost)
            guard current == UInt8(ascii: "\"") else { throw expected(members.isEmpty ? "a string key or '}'" : "a string key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw expected("':'") }
            i += 1
            skipWhitespace()
            if members.count == members.capacity {
                try meter.charge(MemoryLayout<(String, JSONValue)>.stride * max(16, 2 * members.capacity))
            }
            members.append((key, try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return .object(members)
            default: throw expected("',' or '}'")
            }
        }
    }

    private mutating func parseString() throws -> String {
        let start = i
        // Its bytes as read and then as a string, asked for up front: at
        // most the bytes up to the closing quote (escapes only shorten).
        try meter.charge(2 * JSONParser.stringCost(rawStringLength()))
        i += 1
        var out: [UInt8] = []
        while true {
            guard let b = current else { throw expected("'\"'") }
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else {
                    throw failure("string is not valid UTF-8", at: start)
                }
                return s
            case UInt8(ascii: "\\"):
                i += 1
                try parseEscape(into: &out)
            case 0..<0x20:
                throw failure("control character in a string (it must be escaped)", at: i)
            default:
                out.append(b)
                i += 1
            }
        }
    }

    /// The bytes from the string's opening quote (at `i`) to its closing
    /// one or the end of the input, escapes passed over.
    private func rawStringLength() -> Int {
        var j = i + 1
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: "\""): return j - i
            case UInt8(ascii: "\\"): j += 2
            default: j += 1
            }
        }
        return bytes.count - i
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws {
        guard let b = current else { throw expected("an escape character") }
        i += 1
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(b)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let escapeStart = i - 2
            var code = try parseHex4()
            if (0xDC00...0xDFFF).contains(code) {
                throw failure("unpaired low surrogate \\u\(hex4(code))", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(code) {
                guard current == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                    throw expected("a low surrogate escape \\uDC00-\\uDFFF")
                }
                let lowStart = i
                i += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw expected("a low surrogate escape \\uDC00-\\uDFFF", at: lowStart)
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            // Surrogates were handled above, so every remaining code is a scalar.
            UTF8.encode(Unicode.Scalar(code)!) { out.append($0) }
        default:
            i -= 1
            throw expected("an escape character (\" \\ / b f n r t u)")
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let b = current, let digit = hexValue(b) else { throw expected("a hex digit") }
            code = code << 4 | digit
            i += 1
        }
        return code
    }

    private func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex4(_ code: UInt32) -> String {
        let h = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = i
        if current == UInt8(ascii: "-") { i += 1 }
        if current == UInt8(ascii: "0") {
            i += 1
        } else {
            guard skipDigits() else { throw expected("a digit") }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            i += 1
            guard skipDigits() else { throw expected("a digit after '.'") }
            isInteger = false
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            i += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
            guard skipDigits() else { throw expected("a digit in the exponent") }
            isInteger = false
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger {
            // An integer Lua's 64-bit integers cannot hold is refused both
            // ways: as a float it would round (-9223372036854775810 to
            // math.mininteger) and pass for another value.
            guard let n = Int(text) else {
                throw failure("integer out of range (-9223372036854775808 to 9223372036854775807; a number with a fraction or exponent is a float)", at: start)
            }
            return .integer(n)
        }
        guard let d = Double(text), d.isFinite else {
            throw failure("number out of range", at: start)
        }
        return .number(d)
    }

    /// Skips a run of decimal digits; false when there was none.
    private mutating func skipDigits() -> Bool {
        let start = i
        while let b = current, b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { i += 1 }
        return i > start
    }
}

// MARK: - Trait values as JSON

extension TraitValue {
    /// The value as JSON: `nil` as `null`, enum cases as their string, tables
    /// that are sequences as arrays and other tables as objects.
    ///
    /// JSON object keys are strings, so a table key that is not a string is
    /// written as its text (`[2]` as `"2"`, `[true]` as `"true"`) and reads
    /// back as a string key (when that text equals another key of the same
    /// table, the object repeats a key, which decoding refuses); a number that
    /// is not finite is written as `null`, which decoding refuses for a number trait.
    public var jsonValue: JSONValue {
        switch self {
        case .none: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .integer(i)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .table(let t):
            if t.isSequence { return .array(t.entries.map { $0.value.jsonValue }) }
            return .object(t.entries.map { e in
                switch e.key {
                case .string(let s): return (s, e.value.jsonValue)
                case .int(let i): return (String(i), e.value.jsonValue)
                case .number(let d): return (d.description, e.value.jsonValue)
                case .bool(let b): return (b ? "true" : "false", e.value.jsonValue)
                }
            })
        }
    }

    /// Why ``jsonValue`` would not read back as this value, or nil: JSON has
    /// no NaN or infinity (they are written as `null`), and its object keys
    /// are strings (a table's number or boolean keys are written as text,
    /// unless the table is a sequence, written as an array).
    public var jsonProblem: String? {
        switch self {
        case .none, .bool, .int, .string: return nil
        case .number(let d):
            if d.isFinite { return nil }
            return "\(d.isNaN ? "NaN" : d < 0 ? "-infinity" : "infinity") has no JSON form"
        case .table(let t):
            for e in t.entries {
                if !t.isSequence {
                    switch e.key {
                    case .string: break
                    case .int(let i): return "a table key that is a number (\(i)) would come back as a string"
                    case .number(let d): return "a table key that is a number (\(d)) would come back as a string"
                    case .bool(let b): return "a table key that is a boolean (\(b)) would come back as a string"
                    }
                }
                if let p = e.value.jsonProblem { return p }
            }
            return nil
        }
    }

    /// The trait value for a JSON value: arrays become sequences, objects
    /// tables with string keys. `null` is a value (of optional traits) only at
    /// the top level; inside a table it is an error, as a Lua table cannot hold nil.
    /// Errors name `trait`. The tables made are asked for from `meter` first.
    init(json: JSONValue, trait: String, meter: inout BudgetMeter) throws {
        // An entry of a table in the making: the values or the keys' set,
        // the entries, and the sorted copy (Swift's strings are shared).
        let entryCost = 3 * MemoryLayout<TraitTable.Entry>.stride + 32
        func convert(_ v: JSONValue, inTable: Bool) throws -> TraitValue {
            switch v {
            case .array(let items): try meter.charge(JSONParser.storageCost + entryCost * items.count)
            case .object(let members): try meter.charge(JSONParser.storageCost + entryCost * members.count)
            default: break
            }
            switch v {
            case .null:
                if inTable { throw TraitError("trait '\(trait)': a table cannot hold null") }
                return .none
            case .bool(let b): return .bool(b)
            case .integer(let i): return .int(i)
            case .number(let d): return .number(d)
            case .string(let s): return .string(s)
            case .array(let items): return .table(TraitTable(array: try items.map { try convert($0, inTable: true) }))
            case .object(let members):
                var seen = Set<String>()
                var entries: [TraitTable.Entry] = []
                for m in members {
                    guard seen.insert(m.key).inserted else {
                        throw TraitError("trait '\(trait)': key '\(m.key)' appears more than once in a table")
                    }
                    entries.append(.init(key: .string(m.key), value: try convert(m.value, inTable: true)))
                }
                return .table(TraitTable(entries))
            }
        }
        self = try convert(json, inTable: false)
    }
}

// MARK: - Trait collections as JSON

extension TraitCollection {
    /// The collection as a compact JSON object keyed by definition identifier,
    /// sorted by identifier, with no trailing newline. Only values that differ
    /// from their defaults are written, and traits without an identifier are
    /// left out. Values are written as ``TraitValue/jsonValue`` describes.
    ///
    /// ```swift
    /// TraitCollection { $0[SystemTraits.userInterfaceStyle] = .string("dark") }.encodedJSON()
    /// // {"UIKit.userInterfaceStyle":"dark"}
    /// ```
    ///
    /// JSON cannot hold every value (NaN, a table keyed by numbers): see
    /// ``encodingProblem``, which `tc:encode()` checks first.
    public func encodedJSON() -> String {
        let members = entries.compactMap { e in e.definition.identifier.map { (key: $0, value: e.value.jsonValue) } }
        return JSONValue.object(members.sorted { $0.key < $1.key }).serialized
    }

    /// Why ``encodedJSON()`` would not decode back to this collection, or nil:
    /// the first encoded value ``TraitValue/jsonProblem`` finds wrong, with its trait.
    public var encodingProblem: String? {
        for e in entries where e.definition.identifier != nil {
            if let p = e.value.jsonProblem { return "trait '\(e.definition.name)' cannot be encoded: \(p)" }
        }
        return nil
    }

    /// Reads a collection written by ``encodedJSON()``: a JSON object whose keys
    /// are identifiers of definitions in `registry`. An unknown or repeated
    /// identifier, a value that does not fit its trait, or malformed JSON is a
    /// ``TraitError`` naming what was wrong. With a `budget`, the memory
    /// decoding takes is asked for as it goes, before it is allocated.
    public static func decode(json: String, registry: TraitRegistry, budget: MemoryBudget? = nil) throws -> TraitCollection {
        let document = try JSONValue.parse(json, budget: budget)
        guard case .object(let members) = document else {
            throw TraitError("a trait collection is a JSON object keyed by trait identifier, got \(document.kindName == "array" ? "an" : "a") \(document.kindName)")
        }
        var meter = BudgetMeter(budget)
        var seen = Set<String>()
        var values: [(TraitDefinition, TraitValue)] = []
        for m in members {
            guard seen.insert(m.key).inserted else { throw TraitError("trait identifier '\(m.key)' appears more than once") }
            guard let definition = registry.definition(forIdentifier: m.key) else {
                throw TraitError("unknown trait identifier '\(m.key)'")
            }
            let value = try definition.validate(TraitValue(json: m.value, trait: definition.name, meter: &meter))
            values.append((definition, value))
        }
        return TraitCollection { t in
            for (definition, value) in values { t[definition] = value }
        }
    }
}

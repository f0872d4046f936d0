/// An error raised by the engine for bad input: a wrong type, an unknown name, a
/// refused tree edit. The message names what was wrong and is meant for users.
public struct TraitError: Error, CustomStringConvertible, Equatable {
    /// What went wrong, in words for the person who wrote the script or code.
    public let message: String
    /// An error carrying `message`.
    public init(_ message: String) { self.message = message }
    /// The ``message``.
    public var description: String { message }
}

/// The run-time description of one trait: its name, value type, default and flags.
///
/// Definitions are shared by identity. A plugin reload replaces a definition's
/// contents in place (``replace(with:)``) so every holder sees the new version.
public final class TraitDefinition: Hashable, CustomStringConvertible {
    /// Dense, process-wide number; collections keep their entries sorted by it.
    public let id: Int
    // The fields below change only in `init` and `replace(with:)`, by plain
    // assignment, so no access to them can overlap another: they skip Swift's
    // run-time exclusivity checks (three per trait in `validate` and in
    // `MutableTraits.canonicalEntries`, about 400 of the 9,500 instructions
    // of `traits.collection { three traits }`), as the engine's update state does.
    /// The trait's name, shown in messages and dumps (`Theme`, `HorizontalSizeClass`).
    @exclusivity(unchecked) public private(set) var name: String
    /// The reverse-DNS identifier (`com.myapp.theme`, `UIKit.horizontalSizeClass`)
    /// under which the trait's value is encoded, as `UITraitDefinition.identifier`;
    /// nil: the trait is not encoded.
    @exclusivity(unchecked) public private(set) var identifier: String?
    /// The property name used for `collection.property` syntax.
    @exclusivity(unchecked) public private(set) var property: String
    /// Whether a change of this trait can change how colors resolve
    /// (`UITraitDefinition.affectsColorAppearance`): such changes count for
    /// ``TraitCollection/hasDifferentColorAppearance(comparedTo:)``.
    @exclusivity(unchecked) public private(set) var affectsColorAppearance: Bool
    /// The type every value of the trait has (checked by ``validate(_:)``).
    @exclusivity(unchecked) public private(set) var valueType: TraitValueType
    /// Whether `nil` is a valid value (declared with a type and a nil default).
    @exclusivity(unchecked) public private(set) var isOptional: Bool
    /// The value of the trait in a collection that does not set it
    /// (`UITraitDefinition.defaultValue`).
    @exclusivity(unchecked) public private(set) var defaultValue: TraitValue
    /// Who defined it (a plugin name), for conflict messages; nil for scripts and system traits.
    @exclusivity(unchecked) public var owner: String?
    /// How the app declared it in Swift, when it came from `traitlab swift import`.
    @exclusivity(unchecked) public var swift: SwiftDeclaration?
    /// Whether this is one of UIKit's system traits (``SystemTraits``).
    public let isSystem: Bool

    nonisolated(unsafe) private static var nextID = 0

    /// Creates a definition after checking that `defaultValue` fits `valueType`.
    public init(name: String, valueType: TraitValueType, defaultValue: TraitValue,
                isOptional: Bool = false, identifier: String? = nil, property: String? = nil,
                affectsColorAppearance: Bool = false, isSystem: Bool = false) throws {
        guard !name.isEmpty else { throw TraitError("trait definition needs a non-empty name") }
        let prop = property ?? TraitDefinition.defaultProperty(for: name)
        try TraitDefinition.checkProperty(prop)
        if let identifier, identifier.isEmpty { throw TraitError("trait '\(name)': identifier must not be empty") }
        self.id = TraitDefinition.nextID
        self.name = name
        self.identifier = identifier
        self.property = prop
        self.affectsColorAppearance = affectsColorAppearance
        self.valueType = valueType
        self.isOptional = isOptional
        self.defaultValue = .none
        self.isSystem = isSystem
        self.defaultValue = try validate(defaultValue)
        TraitDefinition.nextID += 1
    }

    /// `Theme` → `theme`, `ContainedInSettings` → `containedInSettings`.
    public static func defaultProperty(for name: String) -> String {
        // An ASCII capital (every system trait's name): its lowercase byte,
        // without Character's Unicode case mapping (a tenth of the system
        // traits' set-up at start).
        if let b = name.utf8.first, b >= UInt8(ascii: "A"), b <= UInt8(ascii: "Z") {
            var bytes = Array(name.utf8)
            bytes[0] = b | 0x20
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    static func checkProperty(_ p: String) throws {
        // ASCII letters, digits and "_", on the UTF-8 bytes (Unicode property
        // lookups were a tenth of start-up, for the system traits' names).
        func letter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        func digit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard let first = p.utf8.first, first == UInt8(ascii: "_") || letter(first),
              p.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || letter($0) || digit($0) })
        else { throw TraitError("'\(p)' is not a valid trait property name (letters, digits and _, not starting with a digit)") }
    }

    /// Checks a value against the trait's type, converting where Lua would:
    /// a float with an integer value for an integer trait, an integer for a number trait.
    public func validate(_ value: TraitValue) throws -> TraitValue {
        switch (valueType, value) {
        case (_, .none):
            if isOptional { return .none }
        case (.boolean, .bool): return value
        case (.integer, .int): return value
        case (.integer, .number(let d)):
            if let i = Int(exactly: d) { return .int(i) }
            throw TraitError("trait '\(name)' expects an integer, got the number \(formatNumber(d))")
        case (.number, .number(let d)): return .number(try checkNumber(d))
        case (.number, .int(let i)): return .number(try checkNumber(Double(i)))
        case (.string, .string), (.color, .string), (.image, .string): return value
        case (.table, .table): return value
        case (.enumeration(let e), .string(let s)):
            if e.contains(s) { return value }
            throw TraitError("trait '\(name)' has no case '\(s)' (valid cases of \(e.name): \(e.caseList))")
        default: break
        }
        let expected: String
        if case .enumeration(let e) = valueType {
            expected = "a \(e.name) case (\(e.caseList))"
        } else {
            expected = (valueType == .integer || valueType == .image ? "an " : "a ") + valueType.name
        }
        throw TraitError("trait '\(name)' expects \(expected)\(isOptional ? " or nil" : ""), got \(value.kindName)")
    }

    /// A number trait holds a finite number: NaN is not equal to itself, so a
    /// collection holding it would never compare equal to its own copy (every
    /// update would report a change), and an infinity has no place in a
    /// layout. (A screen's scale has a range of its own: ``Screen``.)
    private func checkNumber(_ d: Double) throws -> Double {
        guard d.isFinite else {
            throw TraitError("trait '\(name)' expects a finite number, got \(d.isNaN ? "nan" : d > 0 ? "inf" : "-inf")")
        }
        return d
    }

    /// Replaces this definition's contents with another's (plugin reload), keeping its identity.
    public func replace(with other: TraitDefinition) {
        name = other.name
        identifier = other.identifier
        property = other.property
        affectsColorAppearance = other.affectsColorAppearance
        valueType = other.valueType
        isOptional = other.isOptional
        defaultValue = other.defaultValue
        owner = other.owner
        swift = other.swift
    }

    /// The trait's ``name``.
    public var description: String { name }

    /// Whether `a` and `b` are the same definition: definitions compare by
    /// identity, so two traits with the same name are still different traits.
    public static func == (a: TraitDefinition, b: TraitDefinition) -> Bool { a === b }
    /// Hashes the definition's ``id``.
    public func hash(into h: inout Hasher) { h.combine(id) }
}

func formatNumber(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) + ".0" }
    return String(d)
}

/// The definitions visible by name in one world: system traits plus what scripts
/// and plugins define. Enforces unique identifiers and property names.
public final class TraitRegistry {
    /// Every definition visible in the world, in the order they were added (the
    /// system traits first).
    public private(set) var definitions: [TraitDefinition] = []
    private var byProperty: [String: TraitDefinition] = [:]
    private var byIdentifier: [String: TraitDefinition] = [:]
    /// Bumped whenever a definition is added or replaced, so caches can tell.
    public private(set) var generation = 0

    /// A registry holding UIKit's system traits (``SystemTraits/all``).
    public init() {
        // (Made at their size: grown one insertion at a time they were
        // rehashed ten times at every start.)
        let all = SystemTraits.all
        definitions.reserveCapacity(all.count + 16)
        byProperty.reserveCapacity(all.count + 16)
        byIdentifier.reserveCapacity(all.count + 16)
        for def in all { insert(def) }
    }

    /// The definition whose property name is `p` (`theme`), if any.
    public func definition(forProperty p: String) -> TraitDefinition? { byProperty[p] }
    /// The definition whose identifier is `i` (`com.myapp.theme`), if any.
    public func definition(forIdentifier i: String) -> TraitDefinition? { byIdentifier[i] }

    /// Adds a definition; a property or identifier already in use is an error naming both owners.
    public func register(_ def: TraitDefinition) throws {
        if let clash = byProperty[def.property] {
            throw TraitError(conflictMessage(def, clash, what: "property '\(def.property)'"))
        }
        if let id = def.identifier, let clash = byIdentifier[id] {
            throw TraitError(conflictMessage(def, clash, what: "identifier '\(id)'"))
        }
        insert(def)
    }

    /// Checks that `def` could replace `old` (or be added when `old` is nil)
    /// without clashing with any other definition.
    public func checkReplacement(_ def: TraitDefinition, replacing old: TraitDefinition?) throws {
        if let clash = byProperty[def.property], clash !== old {
            throw TraitError(conflictMessage(def, clash, what: "property '\(def.property)'"))
        }
        if let id = def.identifier, let clash = byIdentifier[id], clash !== old {
            throw TraitError(conflictMessage(def, clash, what: "identifier '\(id)'"))
        }
    }

    /// Replaces `old` in place with `new`'s contents (plugin reload).
    public func replace(_ old: TraitDefinition, with new: TraitDefinition) throws {
        try checkReplacement(new, replacing: old)
        byProperty[old.property] = nil
        if let id = old.identifier { byIdentifier[id] = nil }
        old.replace(with: new)
        byProperty[old.property] = old
        if let id = old.identifier { byIdentifier[id] = old }
        generation += 1
    }

    /// Removes a definition (a plugin reload that no longer defines it).
    public func remove(_ def: TraitDefinition) {
        guard byProperty[def.property] === def else { return }
        byProperty[def.property] = nil
        if let id = def.identifier { byIdentifier[id] = nil }
        definitions.removeAll { $0 === def }
        generation += 1
    }

    private func insert(_ def: TraitDefinition) {
        definitions.append(def)
        byProperty[def.property] = def
        if let id = def.identifier { byIdentifier[id] = def }
        generation += 1
    }

    private func conflictMessage(_ def: TraitDefinition, _ clash: TraitDefinition, what: String) -> String {
        let mine = def.owner.map { "plugin '\($0)'" }
        let theirs = clash.owner.map { "plugin '\($0)'" } ?? (clash.isSystem ? "the system trait" : "an earlier definition")
        if let mine, mine != theirs {
            return "\(mine) defines trait '\(def.name)' with \(what), already used by \(theirs) ('\(clash.name)')"
        }
        if clash.name == def.name, !clash.isSystem, clash.owner == def.owner {
            return "trait '\(def.name)' is already defined (a trait is defined once; to change it, edit its definition: a plugin's with plugins.reload, or at the REPL prompt, where defining it again replaces it)"
        }
        return "trait '\(def.name)': \(what) is already used by \(theirs) '\(clash.name)'"
    }
}

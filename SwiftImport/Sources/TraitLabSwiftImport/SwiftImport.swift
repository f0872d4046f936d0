import SwiftParser
import SwiftSyntax

/// Reads an app's Swift sources and writes a TraitLab plugin (docs/guide.md#plugins) that
/// defines the same traits, enums, SwiftUI environment keys and bridges, as
/// the compiler sees them for one platform (``BuildSettings``):
///
/// - `UITraitDefinition` types whose `defaultValue` is a literal, an enum
///   case, `nil` (with an optional type), a memberwise struct value, or a
///   static constant with such a value (directly or through other constants),
///   with `name`, `identifier` and `affectsColorAppearance` when given as
///   literals (else UIKit's defaults: the type's name, none, false);
/// - the properties of `extension UITraitCollection` / `UIMutableTraits`
///   (`var prop: T { self[XTrait.self] }`) as the traits' `property`;
/// - the enums those traits and keys use: `String` raw values become the Lua
///   cases, other enums (plain, or `Int` like Apple's examples) their case
///   names; enums declared elsewhere from `--types` files or `--enum` lists;
/// - `EnvironmentKey` types (named by their `EnvironmentValues` property, or
///   `@Entry`), and `UITraitBridgedEnvironmentKey` conformances whose `read`
///   returns `traitCollection.prop` and whose `write` does
///   `mutableTraits.prop = value` (or use `[XTrait.self]`).
///
/// Each definition carries how it was declared (its `swift` field: type
/// name, access, `nonisolated`, `@available`, documentation, the `#if`
/// around it, raw type and raw values, the default as written), which
/// `traitlab swift export` writes back.
///
/// Everything else is skipped with its `file:line` and the reason (a computed
/// default, a class-typed value, a struct with its own `==`, a bridge that
/// does more than map one property, an `#if` that cannot be decided ...), and
/// the rest still loads.
public struct SwiftImport {
    public struct Skipped: CustomStringConvertible {
        public let location: String
        public let what: String
        public let reason: String
        public var description: String { "\(location): \(what): \(reason)" }
    }

    public struct Plugin {
        public var lua: String
        public var skipped: [Skipped]
        public var traitCount = 0, enumCount = 0, keyCount = 0, bridgeCount = 0
        /// Traits and keys found, whether translated or not.
        public var found = 0
    }

    var model: SourceModel
    /// `--enum Type=a,b,c`: enums declared outside Swift, by qualified name.
    var foreignEnums: [String: [String]] = [:]

    public init(settings: BuildSettings = BuildSettings()) {
        model = SourceModel(settings: settings)
    }

    /// Reads an app's source file.
    public mutating func add(source: String, file: String) {
        model.add(source: source, file: file)
    }

    /// Reads a file for its types only (`--types`): enums and structs that
    /// defaults name, declared in another module; nothing in it is translated.
    public mutating func addTypes(source: String, file: String) {
        model.add(source: source, file: file, foreign: true)
    }

    /// An enum declared outside the Swift sources (`--enum LNPopupBar.Style=compact,prominent`).
    public mutating func declareEnum(_ name: String, cases: [String]) {
        foreignEnums[name] = cases
    }

    public func plugin(name: String, sources: [String]) -> Plugin {
        var t = Translator(model: model, foreignEnums: foreignEnums)
        return t.run(name: name, sources: sources)
    }
}

/// A Swift value as written in a declaration.
private enum Value {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case nilValue
    case enumCase(type: String?, name: String)
    case call(type: String, args: LabeledExprListSyntax)
    /// `UIColor(named: "Brand")`, `UIColor.systemBackground`.
    case namedColor(String)
    /// `UIImage(named: "Hero")`.
    case namedImage(String)
}

/// The TraitLab type of a translated value, and its default as Lua source.
private struct Typed {
    enum Kind: Equatable { case boolean, integer, number, string, enumeration(String), table, color, image }
    var kind: Kind
    var optional: Bool
    var luaDefault: String
}

private struct Failure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// The fields of a definition's `swift` table, in the order written.
private struct SwiftTable {
    var fields: [String] = []

    mutating func string(_ key: String, _ value: String?) {
        if let value { fields.append("\(key) = \(luaString(value))") }
    }

    mutating func flag(_ key: String, _ on: Bool) {
        if on { fields.append("\(key) = true") }
    }

    mutating func list(_ key: String, _ values: [String]) {
        if !values.isEmpty { fields.append("\(key) = { \(values.map(luaString).joined(separator: ", ")) }") }
    }

    mutating func raw(_ key: String, _ lua: String) { fields.append("\(key) = \(lua)") }

    /// How a declaration was written: access, isolation, availability, documentation, its `#if`s
    /// (and how many of them, from the outermost, also hold its extensions: `extensions`).
    mutating func written(_ w: SourceModel.Written, extensions: [SyntaxIdentifier]?) {
        string("access", w.access)
        flag("nonisolated", w.isNonisolated)
        list("available", w.availability)
        string("doc", w.documentation)
        guard !w.conditions.isEmpty else { return }
        if w.conditions.count == 1 {
            string("before", w.conditions[0].before)
            string("after", w.conditions[0].after)
        } else {
            list("before", w.conditions.map(\.before))
            list("after", w.conditions.map(\.after))
        }
        let shared = zip(w.conditions.map(\.clause), extensions ?? []).prefix { $0 == $1 }.count
        if shared == w.conditions.count { flag("wrapsExtensions", true) } else if shared > 0 { raw("wrapsExtensions", String(shared)) }
    }

    var lua: String { "{ " + fields.joined(separator: ", ") + " }" }
}

private struct Translator {
    let model: SourceModel
    let foreignEnums: [String: [String]]
    var skipped: [SwiftImport.Skipped] = []
    /// Enums in the order first used: Swift name → (Lua local, cases, swift table).
    var enums: [(swift: String, local: String, cases: [String], table: String)] = []
    /// Traits translated: Swift type name → property.
    var traitProperties: [String: String] = [:]

    init(model: SourceModel, foreignEnums: [String: [String]]) {
        self.model = model
        self.foreignEnums = foreignEnums
    }

    mutating func skip(_ loc: SourceModel.Location, _ what: String, _ reason: String) {
        skipped.append(.init(location: loc.description, what: what, reason: reason))
    }

    /// The property an extension of `extended` declares for `type`, and whether it shares `type`'s `#if` clause.
    private func accessor(in extended: String, for type: SourceModel.TypeDecl) -> SourceModel.PropertyAccessor? {
        model.propertyFor[extended]?.first { model.type(named: $0.type) === type }
    }

    mutating func run(name: String, sources: [String]) -> SwiftImport.Plugin {
        var traitLines: [String] = [], keyLines: [String] = []
        var traitCount = 0, keyCount = 0, bridgeCount = 0, found = 0
        var usedProperties: [String: String] = [:], usedKeys: [String: String] = [:]
        for p in model.problems { skip(p.location, p.what, p.reason) }

        // Traits.
        for typeName in model.typeOrder {
            guard let decl = model.types[typeName], decl.isDeclared, !decl.isForeign,
                  decl.conformances.contains("UITraitDefinition") else { continue }
            found += 1
            do {
                let block = try trait(decl)
                if let other = usedProperties[block.property] {
                    throw Failure("its property '\(block.property)' is already the property of \(other)")
                }
                usedProperties[block.property] = decl.name
                traitProperties[decl.name] = block.property
                traitLines += block.lines
                traitCount += 1
            } catch let f as Failure {
                skip(decl.location, decl.name, f.reason)
            } catch {}
        }

        // Environment keys and their bridges.
        var keyDecls: [(name: String, member: SourceModel.Member, decl: SourceModel.TypeDecl?)] = []
        for typeName in model.typeOrder {
            guard let decl = model.types[typeName], decl.isDeclared, !decl.isForeign,
                  decl.conformances.contains("EnvironmentKey") || decl.conformances.contains("UITraitBridgedEnvironmentKey") else { continue }
            found += 1
            guard let member = decl.staticMembers["defaultValue"] else {
                skip(decl.location, decl.name, "it has no static defaultValue")
                continue
            }
            let property = accessor(in: "EnvironmentValues", for: decl)?.property
            keyDecls.append((property ?? defaultName(decl.simpleName, dropping: "Key"), member, decl))
        }
        for e in model.entries {
            found += 1
            keyDecls.append((e.name, e.member, nil))
        }
        for (keyName, member, decl) in keyDecls {
            let what = decl?.name ?? "@Entry \(keyName)"
            let loc = decl?.location ?? member.location
            do {
                guard isLuaPropertyName(keyName) else { throw Failure("its name '\(keyName)' is not an ASCII property name") }
                if let other = usedKeys[keyName] { throw Failure("the key name '\(keyName)' is already used by \(other)") }
                let typed = try value(of: member)
                usedKeys[keyName] = what
                // Not the name of any type either: an enum met later gets its type's name.
                let local = luaLocal(keyName + "Key", taken: enums.map(\.local) + model.typeOrder)
                var fields = ["name = \(luaString(keyName))", "type = \(luaType(typed.kind))"]
                fields.append("default = \(typed.luaDefault)")
                var swift = SwiftTable()
                if let decl {
                    swift.string("type", decl.name)
                    swift.written(decl.written, extensions: accessor(in: "EnvironmentValues", for: decl)?.clauses)
                } else {
                    swift.flag("entry", true)
                    swift.written(member.written, extensions: nil)
                }
                defaultSource(member, typed, into: &swift)
                let sourceNote = "  -- " + commentText("\(what), \(loc)")
                keyCount += 1
                if let decl, decl.conformances.contains("UITraitBridgedEnvironmentKey") {
                    switch bridge(decl) {
                    case .success(let property):
                        swift.list("bridgeAvailable", decl.bridgeAvailability)
                        swift.flag("bridgeOnType", decl.ownConformances.contains("UITraitBridgedEnvironmentKey"))
                        fields.append("swift = \(swift.lua)")
                        keyLines.append("    local \(local) = swiftui.EnvironmentKey { \(fields.joined(separator: ", ")) }\(sourceNote)")
                        keyLines += [
                            "    swiftui.bridge(\(local), {",
                            "      read = function(traitCollection) return traitCollection\(luaIndex(property)) end,",
                            "      write = function(mutableTraits, value) mutableTraits\(luaIndex(property)) = value end,",
                            "    })",
                        ]
                        bridgeCount += 1
                        continue
                    case .failure(let f):
                        skip(decl.functionLocations["read"] ?? decl.location, "\(decl.name)'s bridge", f.reason)
                    }
                }
                fields.append("swift = \(swift.lua)")
                keyLines.append("    swiftui.EnvironmentKey { \(fields.joined(separator: ", ")) }\(sourceNote)")
            } catch let f as Failure {
                skip(loc, what, f.reason)
            } catch {}
        }

        // The plugin.
        var out = ["-- Generated by `traitlab swift import` from \(commentText(sources.joined(separator: ", ")))."]
        out.append("-- luacheck: no max line length")
        if !skipped.isEmpty {
            out.append("-- Not translated:")
            out += skipped.map { "--   \(commentText($0.description))" }
        }
        out += [
            "return {",
            "  name = \(luaString(name)),",
            "  version = \"1.0.0\",",
            "  description = \(luaString("Traits imported from Swift sources")),",
            "  setup = function(api)",
            "    local traits, swiftui = api.traits, api.swiftui",
        ]
        for e in enums {
            out.append("    local \(e.local) = traits.enum(\(luaString(e.swift)), { \(e.cases.map(luaString).joined(separator: ", ")) }, \(e.table))")
        }
        out += traitLines + keyLines
        out += ["  end,", "}"]
        return .init(lua: out.joined(separator: "\n") + "\n", skipped: skipped, traitCount: traitCount,
                     enumCount: enums.count, keyCount: keyCount, bridgeCount: bridgeCount, found: found)
    }

    /// The default as written, and the value it stands for (export writes it back while the default is that value).
    private func defaultSource(_ member: SourceModel.Member, _ typed: Typed, into swift: inout SwiftTable) {
        swift.string("valueType", member.type?.trimmedDescription)
        swift.string("defaultForm", member.isGetter ? "getter" : member.isVar ? "var" : nil)
        if let c = member.bodyCondition {
            // `defaultValue` chosen for the platform from an `#if` in the type's body.
            swift.string("defaultBefore", c.before)
            swift.string("defaultAfter", c.after)
        }
        guard let e = member.value, typed.luaDefault != "nil" else { return }
        swift.string("default", e.trimmedDescription)
        swift.raw("defaultValue", typed.luaDefault)
    }

    // MARK: - Traits

    private mutating func trait(_ decl: SourceModel.TypeDecl) throws -> (property: String, lines: [String]) {
        guard let member = decl.staticMembers["defaultValue"] else { throw Failure("it has no static defaultValue") }
        let typed = try value(of: member)
        // A computed name or identifier (an interpolated bundle identifier, say) is
        // left out with a note; the trait itself still imports.
        var notes: [SwiftImport.Skipped] = []
        func literalOrNote(_ member: String, _ fallback: String) -> String? {
            do {
                return try literalString(decl, member)
            } catch {
                let loc = decl.staticMembers[member]?.location ?? decl.location
                notes.append(.init(location: loc.description, what: "\(decl.name).\(member)",
                                   reason: "it is not a string literal; the trait is imported with \(fallback)"))
                return nil
            }
        }
        let name = literalOrNote("name", "UIKit's default name, the type's name") ?? decl.simpleName
        let identifier = literalOrNote("identifier", "no identifier")
        let affects = try literalBool(decl, "affectsColorAppearance") ?? false
        let found = accessor(in: "UITraitCollection", for: decl) ?? accessor(in: "UIMutableTraits", for: decl)
        let property = found?.property ?? defaultName(decl.simpleName, dropping: "Trait")
        guard isLuaPropertyName(property) else { throw Failure("its property '\(property)' is not an ASCII property name") }
        guard !name.isEmpty else { throw Failure("its name is empty") }
        if let identifier, identifier.isEmpty { throw Failure("its identifier is empty") }
        var swift = SwiftTable()
        swift.string("type", decl.name)
        swift.written(decl.written, extensions: found?.clauses)
        defaultSource(member, typed, into: &swift)
        var lines = ["    traits.define {  -- \(commentText("\(decl.name), \(decl.location)"))"]
        lines.append("      name = \(luaString(name)),")
        lines.append("      type = \(luaType(typed.kind)),")
        lines.append("      default = \(typed.luaDefault),")
        if let identifier { lines.append("      identifier = \(luaString(identifier)),") }
        if affects { lines.append("      affectsColorAppearance = true,") }
        lines.append("      property = \(luaString(property)),")
        lines.append("      swift = \(swift.lua),")
        lines.append("    }")
        skipped += notes
        return (property, lines)
    }

    private func literalString(_ decl: SourceModel.TypeDecl, _ member: String) throws -> String? {
        guard let m = decl.staticMembers[member] else { return nil }
        guard let e = m.value, case .string(let s)? = evaluate(e) else { throw Failure("its \(member) is not a string literal") }
        return s
    }

    private func literalBool(_ decl: SourceModel.TypeDecl, _ member: String) throws -> Bool? {
        guard let m = decl.staticMembers[member] else { return nil }
        guard let e = m.value, case .bool(let b)? = evaluate(e) else { throw Failure("its \(member) is not true or false") }
        return b
    }

    // MARK: - Values and types

    private mutating func value(of member: SourceModel.Member) throws -> Typed {
        if member.isComplexGetter { throw Failure("its default value is computed (a getter with statements)") }
        guard let expr = member.value else { throw Failure("its default value is not given") }
        if expr.hasError || expr.is(MissingExprSyntax.self) { throw Failure("its default value does not parse") }
        var annotated: (name: String, optional: Bool)?
        if let t = member.type ?? constantType(expr) { annotated = try typeName(t) }
        guard let v = evaluate(expr, expected: annotated?.name) else {
            if let call = expr.as(FunctionCallExprSyntax.self), let callee = dottedName(call.calledExpression), isClass(callee) {
                throw Failure("its value is class-typed (\(callee)); trait values must be value types")
            }
            if expr.is(IntegerLiteralExprSyntax.self) || expr.as(PrefixOperatorExprSyntax.self)?.expression.is(IntegerLiteralExprSyntax.self) == true {
                throw Failure("its integer literal `\(short(expr))` does not fit in 64 bits")
            }
            throw Failure("its default value is computed (`\(short(expr))`), not a literal, an enum case, a constant or a memberwise struct")
        }
        return try resolve(v, annotated: annotated)
    }

    private func typeName(_ t: TypeSyntax) throws -> (name: String, optional: Bool) {
        if let o = t.as(OptionalTypeSyntax.self) { return (try typeName(o.wrappedType).name, true) }
        if let i = t.as(IdentifierTypeSyntax.self), i.name.text == "Optional",
           let arg = i.genericArgumentClause?.arguments.first {
            return (arg.argument.trimmedDescription, true)
        }
        if let i = t.as(IdentifierTypeSyntax.self), i.genericArgumentClause == nil { return (plainName(i.name), false) }
        if let m = t.as(MemberTypeSyntax.self), m.genericArgumentClause == nil {
            let name = m.trimmedDescription
            // `Swift.Int`, `CoreGraphics.CGFloat`: the standard names.
            return (Translator.scalarKinds[plainName(m.name)] != nil && model.type(named: name) == nil ? plainName(m.name) : name, false)
        }
        throw Failure("its type `\(t.trimmedDescription)` is not one TraitLab has (Bool, Int, Double, String, an enum or a struct of those)")
    }

    private static let scalarKinds: [String: Typed.Kind] = [
        "Bool": .boolean, "Int": .integer, "Int8": .integer, "Int16": .integer, "Int32": .integer, "Int64": .integer,
        "UInt": .integer, "UInt8": .integer, "UInt16": .integer, "UInt32": .integer, "Double": .number, "Float": .number,
        "CGFloat": .number, "Float64": .number, "Float32": .number, "String": .string,
    ]

    /// The raw types an enum can declare first in its inheritance clause.
    private static let rawTypes: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "CGFloat", "Character",
    ]

    /// Classes an app's trait could name that are not declared in its sources.
    private static let knownClasses: Set<String> = [
        "UIColor", "UIFont", "UIImage", "UIView", "UIViewController", "UIWindow", "UIScreen", "UITraitCollection",
        "NSObject", "NSString", "NSNumber", "NSAttributedString", "NSArray", "NSDictionary", "NSDate", "NSURL", "NSData",
    ]

    private func isClass(_ name: String) -> Bool {
        if let d = model.type(named: name), d.isDeclared { return d.kind == .class || d.kind == .actor }
        return Translator.knownClasses.contains(name)
    }

    /// The declared enum or struct a type name refers to, or a `--enum` list's name.
    private func knownType(_ name: String) -> Bool {
        Translator.scalarKinds[name] != nil || model.type(named: name)?.isDeclared == true || foreignEnums[name] != nil
    }

    /// Why an enum case of a type nobody declared cannot be read, and how to fix it.
    private func foreignCase(_ type: String, _ c: String) -> Failure {
        Failure("its default is `.\(c)` of \(type), an enum not declared in the Swift sources read (an Objective-C enum, "
                + "or one from another module): pass its cases with --enum \(type)=\(c),... or its declaration with --types FILE|DIR")
    }

    private mutating func resolve(_ v: Value, annotated: (name: String, optional: Bool)?) throws -> Typed {
        let optional = annotated?.optional ?? false
        if case .nilValue = v {
            guard let a = annotated, a.optional else { throw Failure("its default is nil without an optional type") }
            let kind = try kindOf(typeNamed: a.name)
            return Typed(kind: kind, optional: true, luaDefault: "nil")
        }
        if case .enumCase(let t, let c) = v, let type = t ?? annotated?.name, !knownType(type), !isClass(type) {
            throw foreignCase(type, c)
        }
        let kind: Typed.Kind
        if let a = annotated {
            kind = try kindOf(typeNamed: a.name)
        } else {
            switch v {
            case .bool: kind = .boolean
            case .int: kind = .integer
            case .double: kind = .number
            case .string: kind = .string
            case .enumCase(let type?, _): kind = try kindOf(typeNamed: type)
            case .enumCase(nil, let c):
                let owners = enumsWithCase(c)
                guard owners.count == 1 else {
                    throw Failure(owners.isEmpty ? "no enum in the sources has the case .\(c)"
                                                 : "the case .\(c) is in several enums (\(owners.joined(separator: ", "))): give defaultValue a type")
                }
                kind = try kindOf(typeNamed: owners[0])
            case .call(let type, _): kind = try kindOf(typeNamed: type)
            case .namedColor: kind = .color
            case .namedImage: kind = .image
            case .nilValue: kind = .string   // handled above
            }
        }
        return Typed(kind: kind, optional: optional, luaDefault: try luaValue(v, kind: kind, typeName: annotated?.name ?? callType(v)))
    }

    private func enumsWithCase(_ c: String) -> [String] {
        model.typeOrder.filter { n in model.types[n].map { $0.kind == .enum && $0.cases.contains { $0.name == c } } ?? false }
            + foreignEnums.keys.sorted().filter { foreignEnums[$0]?.contains(c) == true }
    }

    private func callType(_ v: Value) -> String? {
        switch v {
        case .call(let t, _): return t
        case .enumCase(let t, let c): return t ?? enumsWithCase(c).first
        default: return nil
        }
    }

    /// The TraitLab kind of a Swift type name; enums are registered on first use.
    private mutating func kindOf(typeNamed name: String) throws -> Typed.Kind {
        if let k = Translator.scalarKinds[name] { return k }
        // Named colours and images are classes TraitLab keeps by name (docs/swift.md).
        if name == "UIColor" { return .color }
        if name == "UIImage" { return .image }
        if isClass(name) { throw Failure("its value is class-typed (\(name)); trait values must be value types") }
        guard let decl = model.type(named: name), decl.isDeclared else {
            if let cases = foreignEnums[name] {
                registerForeignEnum(name, cases: cases)
                return .enumeration(name)
            }
            throw Failure("its type \(name) is not declared in the sources read (pass its declaration with --types FILE|DIR, or an enum's cases with --enum \(name)=a,b,...)")
        }
        switch decl.kind {
        case .enum:
            try registerEnum(decl)
            return .enumeration(decl.name)
        case .struct:
            _ = try structFields(decl)
            return .table
        case .class, .actor:
            throw Failure("its value is class-typed (\(name)); trait values must be value types")
        }
    }

    private mutating func registerForeignEnum(_ name: String, cases: [String]) {
        if enums.contains(where: { $0.swift == name }) { return }
        var swift = SwiftTable()
        swift.string("type", name)
        swift.flag("foreign", true)
        enums.append((name, luaLocal(localName(name), taken: enums.map(\.local)), cases, swift.lua))
    }

    private mutating func registerEnum(_ decl: SourceModel.TypeDecl) throws {
        if enums.contains(where: { $0.swift == decl.name }) { return }
        guard !decl.cases.isEmpty else {
            throw Failure("its enum \(decl.name) has no cases (a caseless enum is a namespace: name one of its constants)")
        }
        if let c = decl.cases.first(where: \.hasAssociatedValues) {
            throw Failure("its enum \(decl.name) has a case with associated values (.\(c.name))")
        }
        let cases = try decl.cases.map { try luaCase($0, in: decl) }
        var swift = SwiftTable()
        swift.string("type", decl.name)
        if decl.isForeign {
            swift.flag("foreign", true)
        } else {
            let raw = decl.conformances.first.flatMap { Translator.rawTypes.contains($0) ? $0 : nil }
            swift.string("rawType", raw)
            let names = decl.cases.map(\.name)
            if names != cases { swift.list("cases", names) }
            let rawValues = decl.cases.map { $0.rawValue?.trimmedDescription ?? "" }
            if rawValues.contains(where: { !$0.isEmpty }) { swift.list("rawValues", rawValues) }
            swift.list("conformances", Array(decl.conformances.dropFirst(raw == nil ? 0 : 1)))
            swift.written(decl.written, extensions: nil)
        }
        enums.append((decl.name, luaLocal(localName(decl.name), taken: enums.map(\.local)), cases, swift.lua))
    }

    /// `LNPopupBar.Style` → `LNPopupBarStyle`, a Lua local's name.
    private func localName(_ qualified: String) -> String {
        qualified.split(separator: ".").joined()
    }

    /// A case's value in Lua: its String raw value, or its name.
    private func luaCase(_ c: SourceModel.EnumCase, in decl: SourceModel.TypeDecl) throws -> String {
        guard decl.conformances.first == "String", let raw = c.rawValue else { return c.name }
        guard case .string(let s)? = evaluate(raw) else { throw Failure("the raw value of \(decl.name).\(c.name) is not a string literal") }
        return s
    }

    private func structFields(_ decl: SourceModel.TypeDecl) throws -> [(name: String, kind: Typed.Kind, initial: ExprSyntax?)] {
        if decl.definesEquality {
            throw Failure("its value type \(decl.name) has a custom Equatable (==); TraitLab compares tables field by field")
        }
        guard !decl.storedProperties.isEmpty else { throw Failure("its struct \(decl.name) has no stored properties") }
        return try decl.storedProperties.map { p in
            var kind: Typed.Kind?
            if let t = p.type {
                let (n, optional) = try typeName(t)
                if optional { throw Failure("the field \(decl.name).\(p.name) is optional; table fields cannot hold nil") }
                kind = Translator.scalarKinds[n]
                if kind == nil { throw Failure("the field \(decl.name).\(p.name) has type \(n); struct fields must be Bool, Int, Double or String") }
            } else if let e = p.value {
                switch evaluate(e) {
                case .bool?: kind = .boolean
                case .int?: kind = .integer
                case .double?: kind = .number
                case .string?: kind = .string
                default: throw Failure("the field \(decl.name).\(p.name) has no type TraitLab can tell")
                }
            }
            guard let kind else { throw Failure("the field \(decl.name).\(p.name) has no type") }
            return (p.name, kind, p.value)
        }
    }

    private mutating func luaValue(_ v: Value, kind: Typed.Kind, typeName: String?) throws -> String {
        switch (kind, v) {
        case (.boolean, .bool(let b)): return b ? "true" : "false"
        case (.integer, .int(let i)): return luaInteger(i)
        case (.number, .int(let i)): return luaNumber(Double(i))
        case (.number, .double(let d)): return luaNumber(d)
        case (.string, .string(let s)), (.color, .namedColor(let s)), (.image, .namedImage(let s)): return luaString(s)
        case (.enumeration(let e), .enumCase(let t, let c)):
            if let t, t != e, model.type(named: t)?.name != e { throw Failure("its default .\(c) is of \(t), not \(e)") }
            if let cases = foreignEnums[e], model.type(named: e) == nil {
                guard cases.contains(c) else { throw Failure("\(e) has no case .\(c) (the cases given with --enum: \(cases.joined(separator: ", ")))") }
                return luaString(c)
            }
            guard let decl = model.type(named: e), let ec = decl.cases.first(where: { $0.name == c }) else {
                throw Failure("\(e) has no case .\(c)")
            }
            return luaString(try luaCase(ec, in: decl))
        case (.table, .call(let t, let args)):
            guard let decl = model.type(named: t) else { throw Failure("its type \(t) is not declared in the sources read") }
            let fields = try structFields(decl)
            var given: [String: ExprSyntax] = [:]
            for a in args {
                guard let label = a.label.map(plainName) else { throw Failure("\(t)(...) has an unlabeled argument; only memberwise values translate") }
                guard fields.contains(where: { $0.name == label }) else { throw Failure("\(t) has no stored property '\(label)'") }
                given[label] = a.expression
            }
            var parts: [String] = []
            for f in fields {
                guard let e = given[f.name] ?? f.initial else { throw Failure("\(t)(...) gives no value for '\(f.name)'") }
                guard let fv = evaluate(e) else { throw Failure("the value of \(t).\(f.name) is computed (`\(short(e))`)") }
                parts.append("\(luaKey(f.name)) = \(try luaValue(fv, kind: f.kind, typeName: nil))")
            }
            return "{ " + parts.joined(separator: ", ") + " }"
        default:
            throw Failure("its default value does not fit its type \(typeName ?? "\(kind)")")
        }
    }

    // MARK: - Bridges

    private func bridge(_ decl: SourceModel.TypeDecl) -> Result<String, Failure> {
        guard let read = decl.functions["read"], let write = decl.functions["write"] else {
            return .failure(Failure("the conformance has no read(from:) and write(to:value:) in the sources"))
        }
        let readParams = read.signature.parameterClause.parameters.map { plainName($0.secondName ?? $0.firstName) }
        let writeParams = write.signature.parameterClause.parameters.map { plainName($0.secondName ?? $0.firstName) }
        guard readParams.count == 1, writeParams.count == 2,
              let readBody = read.body.flatMap({ singleExpression($0.statements) }),
              let readProperty = propertyAccess(readBody, on: readParams[0]) else {
            return .failure(Failure("read(from:) does more than return one trait property"))
        }
        guard let writeBody = write.body.flatMap({ singleAssignment($0.statements) }),
              let writeProperty = propertyAccess(writeBody.target, on: writeParams[0]),
              writeBody.value.as(DeclReferenceExprSyntax.self).map({ plainName($0.baseName) }) == writeParams[1] else {
            return .failure(Failure("write(to:value:) does more than set one trait property to the value"))
        }
        guard readProperty == writeProperty else {
            return .failure(Failure("read uses '\(readProperty)' but write sets '\(writeProperty)'"))
        }
        guard traitProperties.values.contains(readProperty) else {
            return .failure(Failure("it maps to '\(readProperty)', which is not the property of a trait translated from the sources"))
        }
        return .success(readProperty)
    }

    /// `p.prop` → prop; `p[XTrait.self]` → XTrait's property.
    private func propertyAccess(_ e: ExprSyntax, on param: String) -> String? {
        if let m = e.as(MemberAccessExprSyntax.self), let b = m.base?.as(DeclReferenceExprSyntax.self), plainName(b.baseName) == param {
            return plainName(m.declName.baseName)
        }
        if let t = subscriptedType(e, base: param), let decl = model.type(named: t) { return traitProperties[decl.name] }
        return nil
    }

    private func singleAssignment(_ items: CodeBlockItemListSyntax) -> (target: ExprSyntax, value: ExprSyntax)? {
        guard let e = singleExpression(items) else { return nil }
        if let s = e.as(SequenceExprSyntax.self) {
            let parts = Array(s.elements)
            guard parts.count == 3, parts[1].is(AssignmentExprSyntax.self) else { return nil }
            return (parts[0], parts[2])
        }
        if let i = e.as(InfixOperatorExprSyntax.self), i.operator.is(AssignmentExprSyntax.self) {
            return (i.leftOperand, i.rightOperand)
        }
        return nil
    }

    // MARK: - Expressions

    /// The value an expression stands for: a literal, an enum case, a memberwise
    /// struct, or a static constant's value (`ThemeSelection.system`, `.system`
    /// of the `expected` type), followed through constants that name constants.
    private func evaluate(_ e: ExprSyntax, expected: String? = nil, depth: Int = 0) -> Value? {
        if let b = e.as(BooleanLiteralExprSyntax.self) { return .bool(b.literal.tokenKind == .keyword(.true)) }
        if let i = e.as(IntegerLiteralExprSyntax.self) { return i.representedLiteralValue.map(Value.int) }
        if let f = e.as(FloatLiteralExprSyntax.self) { return f.representedLiteralValue.map(Value.double) }
        if let s = e.as(StringLiteralExprSyntax.self) { return s.representedLiteralValue.map(Value.string) }
        if e.is(NilLiteralExprSyntax.self) { return .nilValue }
        if let p = e.as(PrefixOperatorExprSyntax.self), p.operator.text == "-" {
            switch evaluate(p.expression, depth: depth) {
            case .int(let i)?: return i == Int.min ? nil : .int(-i)
            case .double(let d)?: return .double(-d)
            default: return nil
            }
        }
        if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first, only.label == nil {
            return evaluate(only.expression, expected: expected, depth: depth)
        }
        if let m = e.as(MemberAccessExprSyntax.self) {
            let member = plainName(m.declName.baseName)
            guard let base = m.base else {
                // `.system` of the declared type: a case, or one of its (or an extension's) constants.
                if expected == "UIColor" { return .namedColor(member) }
                if let expected, let constant = constant(member, of: expected, depth: depth) { return constant }
                return .enumCase(type: nil, name: member)
            }
            guard let type = dottedName(base) else { return nil }
            switch (type, member) {
            case ("Double", "infinity"), ("CGFloat", "infinity"), ("Float", "infinity"): return .double(.infinity)
            case ("Double", "pi"), ("CGFloat", "pi"): return .double(.pi)
            case ("Int", "min"): return .int(.min)
            case ("Int", "max"): return .int(.max)
            case ("UIColor", _): return .namedColor(member)
            default:
                if let constant = constant(member, of: type, depth: depth) { return constant }
                return .enumCase(type: model.type(named: type)?.name ?? type, name: member)
            }
        }
        if let f = e.as(ForceUnwrapExprSyntax.self) {
            // `UIColor(named: "Brand")!`
            return evaluate(f.expression, expected: expected, depth: depth)
        }
        if let c = e.as(FunctionCallExprSyntax.self), c.trailingClosure == nil, let callee = dottedName(c.calledExpression) {
            if callee == "UIColor" || callee == "UIImage", c.arguments.count == 1, let arg = c.arguments.first,
               arg.label?.text == "named", case .string(let name)? = evaluate(arg.expression) {
                return callee == "UIColor" ? .namedColor(name) : .namedImage(name)
            }
            if let d = model.type(named: callee), d.kind == .struct, d.isDeclared {
                return .call(type: d.name, args: c.arguments)
            }
        }
        return nil
    }

    /// The value of `type.name` when it is a static constant (not a case) whose
    /// value can be evaluated; nil otherwise.
    private func constant(_ name: String, of type: String, depth: Int) -> Value? {
        guard depth < 8, let decl = model.type(named: type), !decl.cases.contains(where: { $0.name == name }),
              let member = decl.staticMembers[name], !member.isComplexGetter, let value = member.value else { return nil }
        let expected = member.type.flatMap { try? typeName($0).name } ?? decl.name
        return evaluate(value, expected: expected, depth: depth + 1)
    }

    /// The type written on the constant an expression names, or on the constants
    /// it names in turn (`Sizes.card` where `static let card = Sizes.base` and
    /// `static let base: CGFloat = 8`): the value's type when the default has none.
    private func constantType(_ e: ExprSyntax, depth: Int = 0) -> TypeSyntax? {
        guard depth < 8, let m = e.as(MemberAccessExprSyntax.self), let base = m.base, let type = dottedName(base),
              let decl = model.type(named: type), !decl.cases.contains(where: { $0.name == plainName(m.declName.baseName) }),
              let member = decl.staticMembers[plainName(m.declName.baseName)] else { return nil }
        return member.type ?? member.value.flatMap { constantType($0, depth: depth + 1) }
    }

    private func short(_ e: ExprSyntax) -> String {
        let s = e.trimmedDescription.split(whereSeparator: \.isNewline).joined(separator: " ")
        return s.count > 60 ? String(s.prefix(57)) + "..." : s
    }

    // MARK: - Lua spelling

    private func luaType(_ k: Typed.Kind) -> String {
        switch k {
        case .boolean: return "\"boolean\""
        case .integer: return "\"integer\""
        case .number: return "\"number\""
        case .string: return "\"string\""
        case .table: return "\"table\""
        case .color: return "\"color\""
        case .image: return "\"image\""
        case .enumeration(let e): return enums.first { $0.swift == e }?.local ?? luaString(e)
        }
    }

    /// `ContainedInSettingsTrait` → `containedInSettings` (UIKit has no rule; TraitLab's, from the name).
    private func defaultName(_ typeName: String, dropping suffix: String) -> String {
        var n = typeName
        if n.hasSuffix(suffix), n.count > suffix.count { n.removeLast(suffix.count) }
        guard let first = n.first else { return n }
        return first.lowercased() + n.dropFirst()
    }
}

private let luaKeywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
]

private func isLuaPropertyName(_ s: String) -> Bool {
    guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
    return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
}

/// A local variable name for `name`: itself when Lua allows it, else a numbered one.
private func luaLocal(_ name: String, taken: [String]) -> String {
    var n = isLuaPropertyName(name) && !luaKeywords.contains(name) && !["api", "traits", "swiftui"].contains(name) ? name : "enum\(taken.count + 1)"
    while taken.contains(n) { n += "_" }
    return n
}

/// `.prop` or `["end"]`.
private func luaIndex(_ property: String) -> String {
    isLuaPropertyName(property) && !luaKeywords.contains(property) ? "." + property : "[\(luaString(property))]"
}

private func luaKey(_ name: String) -> String {
    isLuaPropertyName(name) && !luaKeywords.contains(name) ? name : "[\(luaString(name))]"
}

func luaString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if u.value < 0x20 || u.value == 0x7F {
                let d = String(u.value)
                out += "\\" + String(repeating: "0", count: 3 - d.count) + d
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// Text for a `--` comment: a control character (a newline in a file name,
/// say) would end the comment and put the rest in the plugin's code.
func commentText(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
}

private func luaInteger(_ i: Int) -> String {
    i == Int.min ? "math.mininteger" : String(i)
}

private func luaNumber(_ d: Double) -> String {
    if d.isNaN { return "(0/0)" }
    if d.isInfinite { return d < 0 ? "-math.huge" : "math.huge" }
    let s = "\(d)"
    return s.contains(".") || s.contains("e") ? s : s + ".0"
}

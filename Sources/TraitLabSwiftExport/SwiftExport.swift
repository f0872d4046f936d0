import TraitEngine

/// Swift source for custom traits, their enums, SwiftUI environment keys and
/// bridges, in the pattern of WWDC23's "Unleash the UIKit trait system":
///
/// ```swift
/// enum MyAppTheme: String, CaseIterable { case standard, pastel, bold, monochrome }
/// struct ThemeTrait: UITraitDefinition {
///     static let defaultValue = MyAppTheme.standard
///     static let affectsColorAppearance = true
///     static let name = "Theme"
///     static let identifier = "com.example.theme"
/// }
/// extension UITraitCollection { var myAppTheme: MyAppTheme { self[ThemeTrait.self] } }
/// extension UIMutableTraits { var myAppTheme: MyAppTheme { get {...} set {...} } }
/// struct MyAppThemeKey: EnvironmentKey { static let defaultValue = MyAppTheme.standard }
/// extension EnvironmentValues { var myAppTheme: MyAppTheme { get {...} set {...} } }
/// extension MyAppThemeKey: UITraitBridgedEnvironmentKey { read/write through `myAppTheme` }
/// ```
///
/// Naming: a trait named `Theme` becomes `ThemeTrait` (a name already ending in
/// `Trait` is kept), a key `myAppTheme` becomes `MyAppThemeKey`, an enum keeps
/// its name; names are UpperCamelCase made from the words of the TraitLab name.
/// Properties are the trait's `property` and the key's name as they are.
///
/// `name`, `identifier` and `affectsColorAppearance` are written only where
/// they differ from UIKit's defaults (the type's name, a generated
/// identifier, `false`).
///
/// Table-valued traits: a default table whose keys are all property names
/// and whose values are booleans, integers, numbers or strings becomes a
/// `struct` named after the trait (`Insets` for `Insets`), with one `var` per
/// key in key order, `Equatable`; the default value is its memberwise
/// initializer. Any other table (an array, nested tables, an empty table) is
/// reported as not exportable and left out.
public struct SwiftExport {
    public struct Options {
        /// Names (a trait's name or property, an enum's name, a key's name,
        /// or their Swift type names) to export; nil for everything.
        public var only: [String]?
        /// Whether to start with a comment and the `import` lines.
        public var moduleHeader = true
        /// Where the definitions came from, for the header comment.
        public var sources: [String] = []
        /// Whether enums born in Lua conform to `CaseIterable` (`--case-iterable`).
        public var caseIterable = false
        /// The app's iOS deployment target (`--deployment-target`): below 17,
        /// definitions born in Lua are marked `@available(iOS 17, tvOS 17, *)`,
        /// UIKit's custom traits being iOS 17 API. Nil: not known, so marked.
        public var deploymentTarget: Double?
        public init() {}
    }

    public struct Result {
        public var source: String
        /// One line for each definition left out, saying why.
        public var notExported: [String]
        /// Names in `only` that matched nothing.
        public var unmatched: [String]
        /// How many traits, enums and keys were written.
        public var traitCount = 0, enumCount = 0, keyCount = 0
    }

    let traits: [TraitDefinition]
    let keys: [EnvironmentKeyDefinition]
    let options: Options

    /// `traits` and `keys`: the custom ones, in definition order (system
    /// traits and SwiftUI's own keys are skipped if present).
    public init(traits: [TraitDefinition], keys: [EnvironmentKeyDefinition], options: Options = Options()) {
        self.traits = traits.filter { !$0.isSystem }
        self.keys = keys.filter { !$0.isBuiltin }
        self.options = options
    }

    // MARK: - Planning: what to write, under which Swift names

    private struct EnumPlan {
        let type: TraitEnum
        /// As the app spells it, qualified when nested.
        let swiftName: String
        /// (Swift case name, raw value) in declaration order.
        let cases: [(name: String, raw: String)]
        func caseName(_ raw: String) -> String? { cases.first { $0.raw == raw }?.name }
    }

    private struct StructPlan {
        let swiftName: String
        /// One per key of the default table, in key order; the key is the field's name.
        let fields: [(name: String, type: TraitValueType)]
    }

    private struct TraitPlan {
        let def: TraitDefinition
        let swiftName: String
        let valueType: String
        let defaultLiteral: String
        let table: StructPlan?
        /// Whether `defaultValue` is written with its type (`: CGFloat`).
        let annotated: Bool
    }

    private struct KeyPlan {
        let key: EnvironmentKeyDefinition
        let swiftName: String
        let valueType: String
        let defaultLiteral: String
        let bridgedProperty: String?
        let annotated: Bool
    }

    private final class Names {
        var used: Set<String> = []
        /// `base`, or `base2`, `base3` ... when taken.
        func claim(_ base: String) -> String {
            var n = base, k = 2
            while used.contains(n) { n = base + String(k); k += 1 }
            used.insert(n)
            return n
        }
    }

    public func render() -> Result { render(charge: { _ in }) }

    /// ``render()`` asking `budget` for the source as it grows (a script's
    /// definitions may be written many times over: names, literals), before
    /// each definition's text is added; throws the budget's refusal.
    public func render(budget: MemoryBudget) throws -> Result { try render(charge: budget.charge) }

    private func render(charge: (Int) throws -> Void) rethrows -> Result {
        var notes: [String] = []
        let selection = select()
        let names = Names()
        var enums: [EnumPlan] = []

        func enumPlan(_ e: TraitEnum) -> EnumPlan {
            if let p = enums.first(where: { $0.type == e }) { return p }
            var caseNames = Set<String>()
            let cases = e.cases.map { raw -> (name: String, raw: String) in
                var n = SwiftNames.identifier(raw), k = 2
                if n == "allCases" || n == "rawValue" || n == "init" { n += "Case" }
                let base = n
                while caseNames.contains(n) { n = base + String(k); k += 1 }
                caseNames.insert(n)
                return (n, raw)
            }
            if let swift = e.swift {
                // Imported: the app's names, its Swift case names beside the Lua cases.
                let swiftCases = swift.caseNames.count == e.cases.count ? swift.caseNames : e.cases
                let p = EnumPlan(type: e, swiftName: names.claim(swift.typeName ?? SwiftNames.typeName(e.name)),
                                 cases: Array(zip(swiftCases, e.cases)).map { (name: $0.0, raw: $0.1) })
                enums.append(p)
                return p
            }
            let p = EnumPlan(type: e, swiftName: names.claim(SwiftNames.typeName(e.name)), cases: cases)
            enums.append(p)
            return p
        }

        /// The Swift type and literal for a value of `type`; nil with a reason when there is none.
        func swiftType(_ type: TraitValueType, optional: Bool, value: TraitValue, structName: String)
            -> (type: String, literal: String, table: StructPlan?)? {
            var table: StructPlan?
            let base: String
            switch type {
            case .boolean, .integer, .number, .string, .color, .image: base = scalarType(type) ?? ""
            case .enumeration(let e):
                if e.cases.isEmpty { return nil }
                base = enumPlan(e).swiftName
            case .table:
                guard case .table(let t) = value, let plan = structPlan(t, name: structName) else { return nil }
                table = plan
                base = plan.swiftName
            }
            guard let lit = literal(value, type: type, table: table, enums: enums) else { return nil }
            if optional { return (base + "?", lit, table) }
            return (base, lit, table)
        }

        func structPlan(_ t: TraitTable, name: String) -> StructPlan? {
            guard !t.entries.isEmpty else { return nil }
            var fields: [(name: String, type: TraitValueType)] = []
            for e in t.entries {
                guard case .string(let k) = e.key, SwiftNames.isIdentifier(k) else { return nil }
                switch e.value {
                case .bool: fields.append((k, .boolean))
                case .int: fields.append((k, .integer))
                case .number: fields.append((k, .number))
                case .string: fields.append((k, .string))
                case .none, .table: return nil
                }
            }
            return StructPlan(swiftName: names.claim(SwiftNames.typeName(name)), fields: fields)
        }

        /// The type and default as the app wrote them, while the default is the value they stood for.
        func written(_ swift: SwiftDeclaration?, _ value: TraitValue, _ type: String, _ literal: String) -> (String, String, Bool) {
            guard let swift else { return (type, literal, false) }
            var lit = literal
            if let source = swift.defaultSource, swift.defaultSourceValue == value { lit = source }
            return (swift.valueType ?? type, lit, swift.valueType != nil)
        }

        // Traits.
        var traitPlans: [TraitPlan] = []
        for def in selection.traits {
            let base = SwiftNames.typeName(def.name)
            guard let (type, lit, table) = swiftType(def.valueType, optional: def.isOptional, value: def.defaultValue,
                                                     structName: base) else {
                if case .table = def.valueType {
                    notes.append("trait '\(def.name)' is not exportable: its default table \(tableShape(def.defaultValue)); "
                                 + "only tables with property-name keys and boolean, integer, number or string values become a struct")
                } else {
                    notes.append("trait '\(def.name)' is not exportable: its enum \(def.valueType.name) has no cases")
                }
                continue
            }
            let swiftName = names.claim(def.swift?.typeName ?? SwiftNames.traitTypeName(def.name))
            let (valueType, literal, annotated) = written(def.swift, def.defaultValue, type, lit)
            traitPlans.append(TraitPlan(def: def, swiftName: swiftName, valueType: valueType, defaultLiteral: literal,
                                        table: table, annotated: annotated))
        }

        // Keys, and their bridges.
        var keyPlans: [KeyPlan] = []
        for key in selection.keys {
            guard key.valueType != .table,
                  let (type, lit, _) = swiftType(key.valueType, optional: key.isOptional, value: key.defaultValue, structName: "") else {
                notes.append("environment key '\(key.name)' is not exportable: its \(key.valueType.name) values have no Swift type in the export")
                continue
            }
            var property: String?
            if let bridge = key.bridge {
                switch BridgeAnalysis.bridgedTrait(of: key, bridge: bridge) {
                case .trait(let t):
                    if let plan = traitPlans.first(where: { $0.def === t }) {
                        property = plan.def.property
                    } else {
                        notes.append("the bridge of environment key '\(key.name)' is not exported: its trait '\(t.name)' is not exported")
                    }
                case .notExportable(let why):
                    notes.append("the bridge of environment key '\(key.name)' is not exportable: \(why)")
                }
            }
            let swiftName = names.claim(key.swift?.typeName ?? SwiftNames.keyTypeName(key.name))
            let (valueType, literal, annotated) = written(key.swift, key.defaultValue, type, lit)
            keyPlans.append(KeyPlan(key: key, swiftName: swiftName, valueType: valueType, defaultLiteral: literal,
                                    bridgedProperty: property, annotated: annotated))
        }

        // Writing. Each part is asked for before it is added: twice its
        // bytes, for the lines and the joined text.
        var blocks: [Block] = []
        func add(_ parts: [Block]) throws {
            for part in parts {
                try charge(2 * part.lines.reduce(part.lines.count) { $0 + $1.utf8.count })
                if let last = blocks.last, last.isEntry, part.isEntry, last.conditions == part.conditions {
                    // `@Entry` keys one after another share one `extension EnvironmentValues`.
                    blocks[blocks.count - 1].lines = last.lines.dropLast() + part.lines.dropFirst()
                } else {
                    blocks.append(part)
                }
            }
        }
        for e in enums where e.type.swift?.isForeign != true { try add(enumSource(e)) }
        for t in traitPlans {
            if let s = t.table { try add([Block(lines: structSource(s))]) }
            try add(traitSource(t))
        }
        for k in keyPlans { try add(keySource(k)) }
        var out: [String] = []
        if options.moduleHeader, !traitPlans.isEmpty || !keyPlans.isEmpty {
            // A control character (a newline in a file name) would end the comment.
            let sources = options.sources.joined(separator: ", ").unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
            let from = options.sources.isEmpty ? "" : " from " + String(sources)
            out.append("// Generated by `traitlab swift export`\(from).")
            // SwiftUI alone for keys alone: UIKit is not on every platform a key is for.
            if !traitPlans.isEmpty { out.append("import UIKit") }
            if !keyPlans.isEmpty { out.append("import SwiftUI") }
            out.append("")
        }
        out += render(blocks[...], level: 0)
        while out.last == "" { out.removeLast() }
        return Result(source: out.isEmpty ? "" : out.joined(separator: "\n") + "\n", notExported: notes,
                      unmatched: selection.unmatched,
                      traitCount: traitPlans.count, enumCount: enums.count, keyCount: keyPlans.count)
    }

    /// Lines of source, under the `#if`s they were declared in (outermost first).
    private struct Block {
        var conditions: [SwiftCondition]
        var lines: [String]
        /// An `extension EnvironmentValues` holding `@Entry` keys alone.
        var isEntry = false

        init(_ conditions: [SwiftCondition] = [], lines: [String]) {
            self.conditions = conditions
            self.lines = lines
        }
    }

    /// The blocks, those one after another under the same `#if` inside one
    /// (at each level of nesting), each `#if`'s content indented as swift-format does.
    private func render(_ blocks: ArraySlice<Block>, level: Int) -> [String] {
        var out: [String] = []
        var i = blocks.startIndex
        while i < blocks.endIndex {
            if !out.isEmpty { out.append("") }
            let b = blocks[i]
            guard level < b.conditions.count else {
                out += b.lines
                i += 1
                continue
            }
            let c = b.conditions[level]
            var j = i + 1
            while j < blocks.endIndex, blocks[j].conditions.count > level, blocks[j].conditions[level] == c { j += 1 }
            out += textLines(c.before) + indented(render(blocks[i..<j], level: level + 1)) + textLines(c.after)
            i = j
        }
        return out
    }

    private func textLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: - Selection (--only)

    private func select() -> (traits: [TraitDefinition], keys: [EnvironmentKeyDefinition], unmatched: [String]) {
        guard let only = options.only else { return (traits, keys, []) }
        var pickedTraits = Set<Int>(), pickedKeys = Set<Int>(), unmatched: [String] = []
        for name in only {
            var hit = false
            for t in traits where t.name == name || t.property == name || SwiftNames.traitTypeName(t.name) == name
                || SwiftNames.typeName(t.name) == name || enumName(t.valueType) == name {
                pickedTraits.insert(t.id); hit = true
            }
            for k in keys where k.name == name || SwiftNames.keyTypeName(k.name) == name || enumName(k.valueType) == name {
                pickedKeys.insert(k.id); hit = true
            }
            if !hit { unmatched.append(name) }
        }
        // A key's bridge needs its trait: a selected key brings it along.
        for k in keys where pickedKeys.contains(k.id) {
            if let b = k.bridge, case .trait(let t) = BridgeAnalysis.bridgedTrait(of: k, bridge: b) { pickedTraits.insert(t.id) }
        }
        return (traits.filter { pickedTraits.contains($0.id) }, keys.filter { pickedKeys.contains($0.id) }, unmatched)
    }

    private func enumName(_ t: TraitValueType) -> String? {
        if case .enumeration(let e) = t { return e.name }
        return nil
    }

    // MARK: - Source text

    private func literal(_ v: TraitValue, type: TraitValueType, table: StructPlan?, enums: [EnumPlan]) -> String? {
        switch v {
        case .none: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return type == .number ? SwiftNames.doubleLiteral(Double(i)) : SwiftNames.intLiteral(i)
        case .number(let d): return SwiftNames.doubleLiteral(d)
        case .string(let s):
            if case .enumeration(let e) = type {
                guard let p = enums.first(where: { $0.type == e }), let c = p.caseName(s) else { return nil }
                return "\(p.swiftName).\(SwiftNames.declared(c))"
            }
            // UIKit's system colours are class properties; colour and image sets are looked up by name.
            if type == .color, SystemColors.names.contains(s) { return "UIColor.\(s)" }
            if type == .color { return "UIColor(named: \(SwiftNames.stringLiteral(s)))!" }
            if type == .image { return "UIImage(named: \(SwiftNames.stringLiteral(s)))!" }
            return SwiftNames.stringLiteral(s)
        case .table(let t):
            guard let table else { return nil }
            var args: [String] = []
            for f in table.fields {
                guard let fv = t[.string(f.name)], let l = literal(fv, type: f.type, table: nil, enums: enums) else { return nil }
                args.append("\(SwiftNames.declared(f.name)): \(l)")
            }
            return "\(table.swiftName)(\(args.joined(separator: ", ")))"
        }
    }

    /// The Swift type of a boolean, integer, number, string, colour or image value.
    private func scalarType(_ t: TraitValueType) -> String? {
        switch t {
        case .boolean: return "Bool"
        case .integer: return "Int"
        case .number: return "Double"
        case .string: return "String"
        case .color: return "UIColor"
        case .image: return "UIImage"
        case .enumeration, .table: return nil
        }
    }

    private func tableShape(_ v: TraitValue) -> String {
        guard case .table(let t) = v else { return "is nil, which gives no fields for a struct" }
        if t.entries.isEmpty { return "is empty" }
        for e in t.entries {
            guard case .string(let k) = e.key else { return "has a non-string key (an array or a mixed table)" }
            guard SwiftNames.isIdentifier(k) else { return "has the key \"\(k)\", which is not a property name" }
            if case .table = e.value { return "has a nested table under \"\(k)\"" }
        }
        return "cannot be written as a struct"
    }

    // MARK: - Declarations, as swift-format writes them (two-space indents)

    /// The availability Lua-born definitions of UIKit's trait API get: UIKit's custom
    /// traits (`UITraitDefinition`, `UIMutableTraits`) and `UITraitBridgedEnvironmentKey`
    /// are iOS 17 and tvOS 17 API (developer.apple.com/documentation/uikit/uitraitdefinition).
    private var luaBornAvailability: [String] {
        if let target = options.deploymentTarget, target >= 17 { return [] }
        return ["@available(iOS 17, tvOS 17, *)"]
    }

    private func attributes(_ swift: SwiftDeclaration?, traitAPI: Bool) -> [String] {
        guard let swift else { return traitAPI ? luaBornAvailability : [] }
        return swift.availability.map { "@available(\($0))" }
    }

    private func documentation(_ swift: SwiftDeclaration?) -> [String] {
        swift?.documentation.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// `public nonisolated ` before `struct`; the access level alone before members.
    private func modifiers(_ swift: SwiftDeclaration?) -> (type: String, member: String) {
        let access = swift?.access.map { $0 + " " } ?? ""
        let member = ["public", "package", "open"].contains(swift?.access ?? "") ? (swift?.access == "open" ? "public " : access) : ""
        return (access + (swift?.isNonisolated == true ? "nonisolated " : ""), member)
    }

    /// A type declaration, inside `extension Outer { }` when its name is qualified.
    private func nested(_ name: String, _ lines: (String) -> [String]) -> [String] {
        guard let dot = name.lastIndex(of: ".") else { return lines(name) }
        return ["extension \(name[..<dot]) {"] + indented(lines(String(name[name.index(after: dot)...]))) + ["}"]
    }

    /// Members of a type's body (indented), inside the `#if` the app chose `defaultValue` from, if any.
    private func conditioned(_ swift: SwiftDeclaration?, _ members: [String]) -> [String] {
        guard let before = swift?.defaultConditionBefore, let after = swift?.defaultConditionAfter else { return indented(members) }
        return indented(textLines(before) + indented(members) + textLines(after))
    }

    private func indented(_ lines: [String]) -> [String] {
        lines.map { $0.isEmpty ? $0 : "  " + $0 }
    }

    private func enumSource(_ e: EnumPlan) -> [Block] {
        let swift = e.type.swift
        let (typeModifiers, _) = modifiers(swift)
        var inherits: [String]
        if let swift {
            inherits = (swift.rawType.map { [$0] } ?? []) + swift.conformances
        } else {
            inherits = ["String"] + (options.caseIterable ? ["CaseIterable"] : [])
        }
        let rawValues = swift?.rawValues.count == e.cases.count ? swift!.rawValues : []
        let lines = nested(e.swiftName) { name in
            var lines = documentation(swift) + attributes(swift, traitAPI: false)
            lines.append("\(typeModifiers)enum \(name)\(inherits.isEmpty ? "" : ": " + inherits.joined(separator: ", ")) {")
            if swift != nil {
                if rawValues.allSatisfy(\.isEmpty) {
                    lines.append("  case " + e.cases.map { SwiftNames.declared($0.name) }.joined(separator: ", "))
                } else {
                    for (c, raw) in zip(e.cases, rawValues) {
                        lines.append("  case \(SwiftNames.declared(c.name))" + (raw.isEmpty ? "" : " = \(raw)"))
                    }
                }
            } else if e.cases.allSatisfy({ $0.name == $0.raw && !SwiftNames.keywords.contains($0.name) }) {
                lines.append("  case " + e.cases.map(\.name).joined(separator: ", "))
            } else {
                for c in e.cases {
                    let decl = SwiftNames.declared(c.name)
                    lines.append(c.name == c.raw ? "  case \(decl)" : "  case \(decl) = \(SwiftNames.stringLiteral(c.raw))")
                }
            }
            lines.append("}")
            return lines
        }
        return [Block(swift?.conditions ?? [], lines: lines)]
    }

    private func structSource(_ s: StructPlan) -> [String] {
        ["struct \(s.swiftName): Equatable {"]
            + s.fields.map { "  var \(SwiftNames.declared($0.name)): \(scalarType($0.type) ?? "String")" } + ["}"]
    }

    /// `static let defaultValue` with its type when the app wrote one, or when the literal cannot say it (nil);
    /// `static var`, or a getter, when the app wrote one (`form`).
    private func defaultLine(_ member: String, annotated: Bool, optional: Bool, type: String, literal: String,
                             form: String? = nil) -> String {
        if form == "getter" { return "\(member)static var defaultValue: \(type) { \(literal) }" }
        let keyword = form == "var" ? "var" : "let"
        return annotated || optional ? "\(member)static \(keyword) defaultValue: \(type) = \(literal)"
                                     : "\(member)static \(keyword) defaultValue = \(literal)"
    }

    private func traitSource(_ t: TraitPlan) -> [Block] {
        let d = t.def
        let swift = d.swift
        let prop = SwiftNames.declared(d.property)
        let (typeModifiers, member) = modifiers(swift)
        let available = attributes(swift, traitAPI: true)
        let declaration = nested(t.swiftName) { name in
            var lines = documentation(swift) + available
            lines.append("\(typeModifiers)struct \(name): UITraitDefinition {")
            lines += conditioned(swift, [defaultLine(member, annotated: t.annotated, optional: d.isOptional || d.defaultValue == .none,
                                                     type: t.valueType, literal: t.defaultLiteral, form: swift?.defaultForm)])
            if d.affectsColorAppearance { lines.append("  \(member)static let affectsColorAppearance = true") }
            if d.name != name { lines.append("  \(member)static let name = \(SwiftNames.stringLiteral(d.name))") }
            if let id = d.identifier { lines.append("  \(member)static let identifier = \(SwiftNames.stringLiteral(id))") }
            lines.append("}")
            return lines
        }
        let extensions = available + [
            "extension UITraitCollection {",
            "  \(member)var \(prop): \(t.valueType) { self[\(t.swiftName).self] }",
            "}",
            "",
        ] + available + [
            "extension UIMutableTraits {",
            "  \(member)var \(prop): \(t.valueType) {",
            "    get { self[\(t.swiftName).self] }",
            "    set { self[\(t.swiftName).self] = newValue }",
            "  }",
            "}",
        ]
        return split(swift, declaration, extensions)
    }

    /// A type's declaration under its `#if`s, and its extensions under those of them that hold them too.
    private func split(_ swift: SwiftDeclaration?, _ declaration: [String], _ extensions: [String]) -> [Block] {
        let conditions = swift?.conditions ?? []
        return [Block(conditions, lines: declaration),
                Block(Array(conditions.prefix(swift?.conditionsAroundExtensions ?? 0)), lines: extensions)]
    }

    private func keySource(_ k: KeyPlan) -> [Block] {
        let swift = k.key.swift
        let name = SwiftNames.declared(k.key.name)
        let (typeModifiers, member) = modifiers(swift)
        let optional = k.key.isOptional || k.key.defaultValue == .none
        if swift?.isEntry == true {
            let lines = ["extension EnvironmentValues {"]
                + indented(documentation(swift) + attributes(swift, traitAPI: false))
                + ["  @Entry \(typeModifiers)var \(name): \(k.valueType) = \(k.defaultLiteral)", "}"]
            var block = Block(swift?.conditions ?? [], lines: lines)
            block.isEntry = true
            return [block]
        }
        let available = attributes(swift, traitAPI: false)
        let property = k.bridgedProperty.map(SwiftNames.declared)
        let bridgeFunctions = property.map { p in [
            "\(member)static func read(from traitCollection: UITraitCollection) -> \(k.valueType) {",
            "  traitCollection.\(p)",
            "}",
            "",
            "\(member)static func write(to mutableTraits: inout UIMutableTraits, value: \(k.valueType)) {",
            "  mutableTraits.\(p) = value",
            "}",
        ] } ?? []
        // The app's type may conform to UITraitBridgedEnvironmentKey itself, read and write in its body.
        let bridgeOnType = swift?.bridgeOnType == true && property != nil
        let declaration = nested(k.swiftName) { typeName in
            documentation(swift) + available + [
                "\(typeModifiers)struct \(typeName): \(bridgeOnType ? "UITraitBridgedEnvironmentKey" : "EnvironmentKey") {",
            ] + conditioned(swift, [defaultLine(member, annotated: k.annotated, optional: optional, type: k.valueType,
                                                literal: k.defaultLiteral, form: swift?.defaultForm)])
                + (bridgeOnType ? [""] + indented(bridgeFunctions) : []) + ["}"]
        }
        var extensions = available + [
            "extension EnvironmentValues {",
            "  \(member)var \(name): \(k.valueType) {",
            "    get { self[\(k.swiftName).self] }",
            "    set { self[\(k.swiftName).self] = newValue }",
            "  }",
            "}",
        ]
        if property != nil, !bridgeOnType {
            let bridgeAvailable = swift.map { $0.bridgeAvailability.map { "@available(\($0))" } } ?? luaBornAvailability
            extensions += [""] + bridgeAvailable + ["extension \(k.swiftName): UITraitBridgedEnvironmentKey {"]
                + indented(bridgeFunctions) + ["}"]
        }
        return split(swift, declaration, extensions)
    }
}

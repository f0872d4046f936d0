import SwiftIfConfig
import SwiftParser
import SwiftSyntax

/// What one pass over an app's Swift sources collects, as the compiler would
/// see them for one platform (inactive `#if` clauses are not read): every type
/// declared, by its qualified name (its kind, conformances, static members,
/// stored properties, cases, how it was declared), extensions of
/// UITraitCollection, UIMutableTraits and EnvironmentValues (for property
/// names), the bridge functions of UITraitBridgedEnvironmentKey conformances,
/// and every `#if` that could not be decided.
struct SourceModel {
    struct Location: CustomStringConvertible {
        let file: String
        let line: Int
        var description: String { "\(file):\(line)" }
    }

    enum Kind { case `struct`, `class`, `enum`, actor }

    /// How a declaration was written, beside what it declares: carried into the
    /// plugin so that export writes it back the same.
    struct Written {
        var access: String?
        var isNonisolated = false
        var availability: [String] = []
        var documentation: String?
        /// The `#if` clauses around it, outermost first.
        var conditions: [Condition] = []
    }

    /// The innermost `#if` clause a declaration is in: the text before the
    /// declaration (`#if X`, or inactive clauses and `#else`) and after it (`#endif`).
    struct Condition {
        let before: String
        let after: String
        /// The clause, to tell whether two declarations share it.
        let clause: SyntaxIdentifier
    }

    struct Member {
        let name: String
        let type: TypeSyntax?
        /// The initializer, or the one expression a getter returns.
        let value: ExprSyntax?
        /// A getter with more than one statement.
        let isComplexGetter: Bool
        let location: Location
        /// `static var`, and `static var x: T { expr }` (a getter), as written.
        var isVar = false
        var isGetter = false
        /// The `#if` clause it is in within its type's body.
        var bodyCondition: Condition?
        var written = Written()
    }

    struct EnumCase {
        let name: String
        let rawValue: ExprSyntax?
        let hasAssociatedValues: Bool
    }

    final class TypeDecl {
        /// Qualified by the types and extensions around it (`AppTraits.ThemeTrait`).
        let name: String
        let kind: Kind
        var conformances: [String]
        /// Those of the declaration itself, not of its extensions.
        let ownConformances: [String]
        var staticMembers: [String: Member] = [:]
        var storedProperties: [Member] = []
        var cases: [EnumCase] = []
        var functions: [String: FunctionDeclSyntax] = [:]
        var functionLocations: [String: Location] = [:]
        var definesEquality = false
        var written = Written()
        /// `@available` arguments of the extension that made it a UITraitBridgedEnvironmentKey.
        var bridgeAvailability: [String] = []
        /// Read from `--types`: declared in another module, never translated itself.
        var isForeign = false
        let location: Location

        init(name: String, kind: Kind, conformances: [String], location: Location) {
            self.name = name
            self.kind = kind
            self.conformances = conformances
            self.ownConformances = conformances
            self.location = location
        }

        var simpleName: String { String(name.split(separator: ".").last ?? Substring(name)) }
        /// Declared in the sources read (not only extended).
        var isDeclared: Bool { location.line > 0 }
    }

    struct PropertyAccessor {
        let property: String
        let type: String
        let location: Location
        /// The `#if` clauses around it, outermost first.
        let clauses: [SyntaxIdentifier]
    }

    /// Types by qualified name; the first declaration read wins, files being
    /// read in the order given, folders sorted.
    var types: [String: TypeDecl] = [:]
    var typeOrder: [String] = []
    /// Simple name → qualified names, for references written without the qualifier.
    var bySimpleName: [String: [String]] = [:]
    /// Property name → the type named in `self[X.self]`, per extended type.
    var propertyFor: [String: [PropertyAccessor]] = [:]
    /// `@Entry var name: T = value` in `extension EnvironmentValues` (iOS 18).
    var entries: [(name: String, member: Member)] = []
    /// `#if`s that could not be decided, and other things read but not understood.
    var problems: [(location: Location, what: String, reason: String)] = []

    let settings: BuildSettings

    init(settings: BuildSettings) { self.settings = settings }

    /// Reads one file; `foreign` for `--types` files, whose types are known but not translated.
    mutating func add(source: String, file: String, foreign: Bool = false) {
        let tree = Parser.parse(source: source)
        let collector = Collector(file: file, tree: tree, settings: settings)
        collector.walk(tree)
        for t in collector.types {
            t.isForeign = foreign
            if let existing = types[t.name] {
                // A file given both with --types and as a source is the app's.
                if existing.isForeign, !foreign, existing.location.description == t.location.description {
                    existing.isForeign = false
                }
                // Extensions seen before the declaration were recorded on a placeholder.
                if !existing.isDeclared {
                    t.conformances += existing.conformances
                    t.staticMembers.merge(existing.staticMembers) { a, _ in a }
                    t.functions.merge(existing.functions) { a, _ in a }
                    t.functionLocations.merge(existing.functionLocations) { a, _ in a }
                    t.definesEquality = t.definesEquality || existing.definesEquality
                    if t.bridgeAvailability.isEmpty { t.bridgeAvailability = existing.bridgeAvailability }
                    types[t.name] = t
                    typeOrder.removeAll { $0 == t.name }
                    typeOrder.append(t.name)
                }
                continue
            }
            insert(t)
        }
        for ext in collector.extensions { apply(ext) }
        if !foreign {
            for (k, v) in collector.properties { propertyFor[k, default: []] += v }
            entries += collector.entries
        }
        problems += collector.problems
    }

    private mutating func insert(_ t: TypeDecl) {
        types[t.name] = t
        typeOrder.append(t.name)
        bySimpleName[t.simpleName, default: []].append(t.name)
    }

    private mutating func apply(_ ext: Collector.Extension) {
        let t: TypeDecl
        if let existing = types[ext.name] {
            t = existing
        } else {
            // The declaration may come in a later file: keep what the extension adds.
            t = TypeDecl(name: ext.name, kind: .struct, conformances: [], location: Location(file: ext.location.file, line: 0))
            insert(t)
        }
        t.conformances += ext.conformances
        t.staticMembers.merge(ext.staticMembers) { a, _ in a }
        t.functions.merge(ext.functions) { a, _ in a }
        t.functionLocations.merge(ext.functionLocations) { a, _ in a }
        t.definesEquality = t.definesEquality || ext.definesEquality
        if ext.conformances.contains("UITraitBridgedEnvironmentKey") { t.bridgeAvailability = ext.availability }
    }

    /// The type a reference names: its qualified name when declared or extended
    /// (`Style` found as `LNPopupBar.Style` when that is the only one), else nil.
    func type(named reference: String) -> TypeDecl? {
        if let t = types[reference] { return t }
        guard let candidates = bySimpleName[reference], candidates.count == 1 else { return nil }
        return types[candidates[0]]
    }
}

/// Walks one file, reading only what is active for the build settings.
final class Collector: SyntaxVisitor {
    struct Extension {
        let name: String
        let conformances: [String]
        var staticMembers: [String: SourceModel.Member] = [:]
        var functions: [String: FunctionDeclSyntax] = [:]
        var functionLocations: [String: SourceModel.Location] = [:]
        var definesEquality = false
        var availability: [String] = []
        let location: SourceModel.Location
    }

    let file: String
    let converter: SourceLocationConverter
    let settings: BuildSettings
    var types: [SourceModel.TypeDecl] = []
    var extensions: [Extension] = []
    var properties: [String: [SourceModel.PropertyAccessor]] = [:]
    var entries: [(name: String, member: SourceModel.Member)] = []
    var problems: [(location: SourceModel.Location, what: String, reason: String)] = []
    /// The names of the types and extensions around the node visited.
    private var scope: [String] = []
    /// The `#if` clauses around the node visited, innermost last.
    private var conditions: [SourceModel.Condition] = []
    /// The lines of the file, for the text of `#if` clauses.
    private lazy var lines: [Substring] = converter.sourceLines.map { $0.dropLast($0.hasSuffix("\n") ? 1 : 0) }

    init(file: String, tree: SourceFileSyntax, settings: BuildSettings) {
        self.file = file
        self.converter = SourceLocationConverter(fileName: file, tree: tree)
        self.settings = settings
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ node: some SyntaxProtocol) -> SourceModel.Location {
        SourceModel.Location(file: file, line: converter.location(for: node.positionAfterSkippingLeadingTrivia).line)
    }

    // MARK: Conditional compilation

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let clause = activeClause(node) else { return .skipChildren }
        if let elements = clause.elements {
            conditions.append(condition(node, clause))
            walk(elements)
            conditions.removeLast()
        }
        return .skipChildren
    }

    /// The clause compiled for the settings, or nil: none is, or the `#if`
    /// cannot be decided (then it is reported, and nothing in it is read).
    private func activeClause(_ node: IfConfigDeclSyntax) -> IfConfigClauseSyntax? {
        let (clause, diagnostics) = node.activeClause(in: settings)
        if let d = diagnostics.first {
            let first = node.clauses.first?.condition.map { "#if \($0.trimmedDescription)" } ?? "#if"
            problems.append((location(node), "`\(first)`",
                             "cannot be decided for \(settings.platform.displayName): \(d.message); nothing in it is read"))
            return nil
        }
        return clause
    }

    /// The text around the active clause's declarations, indented as in the
    /// file relative to the `#if`.
    private func condition(_ node: IfConfigDeclSyntax, _ clause: IfConfigClauseSyntax) -> SourceModel.Condition {
        let start = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: node.endPositionBeforeTrailingTrivia).line
        let headerLine = converter.location(for: clause.poundKeyword.positionAfterSkippingLeadingTrivia).line
        let lastLine = clause.elements.map { converter.location(for: $0.endPositionBeforeTrailingTrivia).line } ?? headerLine
        let indent = start.column - 1
        func text(_ range: ClosedRange<Int>) -> String {
            range.compactMap { n in n - 1 < lines.count ? dedent(lines[n - 1], indent) : nil }.joined(separator: "\n")
        }
        return SourceModel.Condition(before: text(start.line...headerLine), after: text((lastLine + 1)...max(end, lastLine + 1)),
                                     clause: clause.id)
    }

    /// The declarations of a member block the build compiles, through `#if`s.
    private func activeMembers(_ list: MemberBlockItemListSyntax) -> [DeclSyntax] {
        activeMembersWithConditions(list).map(\.decl)
    }

    /// The same, each with the innermost `#if` clause it is in within the block.
    private func activeMembersWithConditions(_ list: MemberBlockItemListSyntax,
                                             in outer: SourceModel.Condition? = nil) -> [(decl: DeclSyntax, condition: SourceModel.Condition?)] {
        var out: [(decl: DeclSyntax, condition: SourceModel.Condition?)] = []
        for item in list {
            guard let ifConfig = item.decl.as(IfConfigDeclSyntax.self) else { out.append((item.decl, outer)); continue }
            let (clause, diagnostics) = ifConfig.activeClause(in: settings)
            guard diagnostics.isEmpty, let clause, case .decls(let inner)? = clause.elements else { continue }
            out += activeMembersWithConditions(inner, in: condition(ifConfig, clause))
        }
        return out
    }

    // MARK: Declarations

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, .struct, node.inheritanceClause, node.memberBlock, node, node.modifiers, node.attributes)
        scope.append(plainName(node.name))
        return .visitChildren
    }

    override func visitPost(_ node: StructDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, .class, node.inheritanceClause, node.memberBlock, node, node.modifiers, node.attributes)
        scope.append(plainName(node.name))
        return .visitChildren
    }

    override func visitPost(_ node: ClassDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, .actor, node.inheritanceClause, node.memberBlock, node, node.modifiers, node.attributes)
        scope.append(plainName(node.name))
        return .visitChildren
    }

    override func visitPost(_ node: ActorDeclSyntax) { scope.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let t = record(node.name, .enum, node.inheritanceClause, node.memberBlock, node, node.modifiers, node.attributes)
        for decl in activeMembers(node.memberBlock.members) {
            guard let c = decl.as(EnumCaseDeclSyntax.self) else { continue }
            for e in c.elements {
                t.cases.append(.init(name: plainName(e.name), rawValue: e.rawValue?.value, hasAssociatedValues: e.parameterClause != nil))
            }
        }
        scope.append(plainName(node.name))
        return .visitChildren
    }

    override func visitPost(_ node: EnumDeclSyntax) { scope.removeLast() }

    // Functions' bodies hold no declarations import reads.
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = qualified(node.extendedType.trimmedDescription)
        switch name {
        case "UITraitCollection", "UIMutableTraits", "EnvironmentValues":
            for decl in activeMembers(node.memberBlock.members) {
                guard let v = decl.as(VariableDeclSyntax.self) else { continue }
                if name == "EnvironmentValues", v.attributes.contains(where: { attributeName($0) == "Entry" }) {
                    for var m in members(of: v) {
                        m.written = written(v, v.modifiers, v.attributes)
                        m.isVar = false   // `@Entry var` is the only form
                        m.isGetter = false
                        entries.append((m.name, m))
                    }
                    continue
                }
                for b in v.bindings {
                    guard let id = b.pattern.as(IdentifierPatternSyntax.self), let getter = getterExpression(b),
                          let type = subscriptedType(getter) else { continue }
                    properties[name, default: []].append(.init(property: plainName(id.identifier), type: type, location: location(b),
                                                               clauses: conditions.map(\.clause)))
                }
            }
            return .skipChildren
        default:
            var ext = Extension(name: name, conformances: inherited(node.inheritanceClause), location: location(node))
            ext.availability = availability(node.attributes)
            for decl in activeMembers(node.memberBlock.members) {
                if let v = decl.as(VariableDeclSyntax.self), isStatic(v.modifiers) {
                    for m in members(of: v) { ext.staticMembers[m.name] = m }
                } else if let f = decl.as(FunctionDeclSyntax.self) {
                    if f.name.text == "==" { ext.definesEquality = true }
                    ext.functions[f.name.text] = f
                    ext.functionLocations[f.name.text] = location(f)
                }
            }
            extensions.append(ext)
            scope.append(name)
            return .visitChildren
        }
    }

    override func visitPost(_ node: ExtensionDeclSyntax) {
        switch qualified(node.extendedType.trimmedDescription) {
        case "UITraitCollection", "UIMutableTraits", "EnvironmentValues": break
        default: scope.removeLast()
        }
    }

    /// `UIKit.UITraitCollection` → `UITraitCollection`; `AppTraits` as written.
    private func qualified(_ extended: String) -> String {
        for known in ["UITraitCollection", "UIMutableTraits", "EnvironmentValues"] where extended.hasSuffix("." + known) {
            return known
        }
        return extended
    }

    @discardableResult
    private func record(_ nameToken: TokenSyntax, _ kind: SourceModel.Kind, _ inheritance: InheritanceClauseSyntax?,
                        _ block: MemberBlockSyntax, _ node: some DeclSyntaxProtocol, _ modifiers: DeclModifierListSyntax,
                        _ attributes: AttributeListSyntax) -> SourceModel.TypeDecl {
        let name = (scope + [plainName(nameToken)]).joined(separator: ".")
        let t = SourceModel.TypeDecl(name: name, kind: kind, conformances: inherited(inheritance), location: location(node))
        t.written = written(node, modifiers, attributes)
        for (decl, condition) in activeMembersWithConditions(block.members) {
            if let v = decl.as(VariableDeclSyntax.self) {
                for var m in members(of: v) {
                    if isStatic(v.modifiers) {
                        m.bodyCondition = condition
                        t.staticMembers[m.name] = m
                    } else if !m.isComplexGetter, v.bindings.allSatisfy({ $0.accessorBlock == nil }) {
                        t.storedProperties.append(m)
                    }
                }
            } else if let f = decl.as(FunctionDeclSyntax.self) {
                if f.name.text == "==" { t.definesEquality = true }
                t.functions[f.name.text] = f
                t.functionLocations[f.name.text] = location(f)
            }
        }
        types.append(t)
        return t
    }

    private func written(_ node: some SyntaxProtocol, _ modifiers: DeclModifierListSyntax,
                         _ attributes: AttributeListSyntax) -> SourceModel.Written {
        var w = SourceModel.Written()
        let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
        w.access = modifiers.first { accessLevels.contains($0.name.text) && $0.detail == nil }?.name.text
        w.isNonisolated = modifiers.contains { $0.name.text == "nonisolated" }
        w.availability = availability(attributes)
        w.documentation = documentation(node.leadingTrivia)
        w.conditions = conditions
        return w
    }

    private func availability(_ attributes: AttributeListSyntax) -> [String] {
        attributes.compactMap { a in
            guard let attr = a.as(AttributeSyntax.self), attributeName(a) == "available" else { return nil }
            return attr.arguments?.trimmedDescription
        }
    }

    /// The `///` lines (or a `/** */` block) just above a declaration.
    private func documentation(_ trivia: Trivia) -> String? {
        var lines: [String] = []
        var newlines = 0
        for piece in trivia {
            switch piece {
            case .docLineComment(let text):
                if newlines > 1 { lines = [] }
                lines.append(text)
                newlines = 0
            case .docBlockComment(let text):
                lines = [text]
                newlines = 0
            case .newlines(let n), .carriageReturnLineFeeds(let n):
                newlines += n
            case .lineComment, .blockComment:
                lines = []
                newlines = 0
            default:
                break
            }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
    }

    private func members(of v: VariableDeclSyntax) -> [SourceModel.Member] {
        var out: [SourceModel.Member] = []
        for b in v.bindings {
            guard let id = b.pattern.as(IdentifierPatternSyntax.self) else { continue }
            var value = b.initializer?.value
            var complex = false
            if b.accessorBlock != nil {
                value = getterExpression(b)
                complex = value == nil
            }
            var m = SourceModel.Member(name: plainName(id.identifier), type: b.typeAnnotation?.type, value: value,
                                       isComplexGetter: complex, location: location(b))
            m.isVar = v.bindingSpecifier.tokenKind == .keyword(.var)
            m.isGetter = b.accessorBlock != nil
            out.append(m)
        }
        return out
    }

    private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { lastName($0.type) } ?? []
    }

    private func attributeName(_ a: AttributeListSyntax.Element) -> String? {
        a.as(AttributeSyntax.self).map { lastName($0.attributeName) }
    }
}

// MARK: - Small syntax helpers

/// `` `default` `` → `default`.
func plainName(_ token: TokenSyntax) -> String {
    var s = token.text
    if s.hasPrefix("`"), s.hasSuffix("`"), s.count >= 2 { s = String(s.dropFirst().dropLast()) }
    return s
}

/// `UIKit.UITraitCollection` → `UITraitCollection`; other types as written.
func lastName(_ type: TypeSyntax) -> String {
    if let m = type.as(MemberTypeSyntax.self) { return plainName(m.name) }
    if let i = type.as(IdentifierTypeSyntax.self) { return plainName(i.name) }
    return type.trimmedDescription
}

/// A line without its first `indent` columns of spaces (fewer when it has fewer).
func dedent(_ line: Substring, _ indent: Int) -> String {
    var n = 0
    var rest = line[...]
    while n < indent, let c = rest.first, c == " " || c == "\t" { rest = rest.dropFirst(); n += 1 }
    return String(rest)
}

/// The one expression a statement list amounts to (`expr` or `return expr`).
func singleExpression(_ items: CodeBlockItemListSyntax) -> ExprSyntax? {
    guard items.count == 1, let item = items.first else { return nil }
    switch item.item {
    case .expr(let e): return e
    case .stmt(let s): return s.as(ReturnStmtSyntax.self)?.expression ?? s.as(ExpressionStmtSyntax.self)?.expression
    default: return nil
    }
}

/// What a computed property's getter returns, when it is one expression.
func getterExpression(_ b: PatternBindingSyntax) -> ExprSyntax? {
    guard let block = b.accessorBlock else { return nil }
    switch block.accessors {
    case .getter(let items): return singleExpression(items)
    case .accessors(let list):
        guard let get = list.first(where: { $0.accessorSpecifier.text == "get" }), let body = get.body else { return nil }
        return singleExpression(body.statements)
    }
}

/// `a.b.c` → "a.b.c" for a chain of names; nil for anything else.
func dottedName(_ e: ExprSyntax) -> String? {
    if let d = e.as(DeclReferenceExprSyntax.self) { return plainName(d.baseName) }
    if let m = e.as(MemberAccessExprSyntax.self), let base = m.base, let b = dottedName(base) {
        return b + "." + plainName(m.declName.baseName)
    }
    return nil
}

/// `self[X.self]` → `X`, `self[AppTraits.X.self]` → `AppTraits.X`.
func subscriptedType(_ e: ExprSyntax, base: String = "self") -> String? {
    guard let s = e.as(SubscriptCallExprSyntax.self), s.calledExpression.trimmedDescription == base,
          s.arguments.count == 1, let arg = s.arguments.first, arg.label == nil,
          let m = arg.expression.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "self",
          let b = m.base else { return nil }
    return dottedName(b)
}

import SwiftParser
import SwiftSyntax

/// What one pass over an app's Swift sources collects: every type declared
/// (its kind, conformances, static and stored properties), extensions of
/// UITraitCollection, UIMutableTraits and EnvironmentValues (for property
/// names), and the bridge functions of UITraitBridgedEnvironmentKey conformances.
struct SourceModel {
    struct Location: CustomStringConvertible {
        let file: String
        let line: Int
        var description: String { "\(file):\(line)" }
    }

    enum Kind { case `struct`, `class`, `enum`, actor }

    struct Member {
        let name: String
        let type: TypeSyntax?
        /// The initializer, or the one expression a getter returns.
        let value: ExprSyntax?
        /// A getter with more than one statement.
        let isComplexGetter: Bool
        let location: Location
    }

    struct EnumCase {
        let name: String
        let rawValue: ExprSyntax?
        let hasAssociatedValues: Bool
    }

    final class TypeDecl {
        let name: String
        let kind: Kind
        var conformances: [String]
        var staticMembers: [String: Member] = [:]
        var storedProperties: [Member] = []
        var cases: [EnumCase] = []
        var functions: [String: FunctionDeclSyntax] = [:]
        var functionLocations: [String: Location] = [:]
        var definesEquality = false
        let location: Location

        init(name: String, kind: Kind, conformances: [String], location: Location) {
            self.name = name
            self.kind = kind
            self.conformances = conformances
            self.location = location
        }
    }

    /// Types by simple name (nesting is not tracked); the first declaration
    /// read wins, files being read in the order given, folders sorted.
    var types: [String: TypeDecl] = [:]
    var typeOrder: [String] = []
    /// Property name → the type named in `self[X.self]`, per extended type.
    var propertyFor: [String: [(property: String, type: String, location: Location)]] = [:]
    /// `@Entry var name: T = value` in `extension EnvironmentValues` (iOS 18).
    var entries: [(name: String, member: Member)] = []

    mutating func add(source: String, file: String) {
        let tree = Parser.parse(source: source)
        let collector = Collector(file: file, tree: tree)
        collector.walk(tree)
        for t in collector.types {
            if let existing = types[t.name] {
                // Extensions seen before the declaration were recorded on a placeholder.
                if existing.kind == .struct, existing.location.line == 0 {
                    t.conformances += existing.conformances
                    t.functions.merge(existing.functions) { a, _ in a }
                    t.functionLocations.merge(existing.functionLocations) { a, _ in a }
                    t.definesEquality = t.definesEquality || existing.definesEquality
                    types[t.name] = t
                    typeOrder.append(t.name)
                }
                continue
            }
            types[t.name] = t
            typeOrder.append(t.name)
        }
        for ext in collector.extensions { apply(ext) }
        for (k, v) in collector.properties { propertyFor[k, default: []] += v }
        entries += collector.entries
    }

    private mutating func apply(_ ext: Collector.Extension) {
        let t: TypeDecl
        if let existing = types[ext.name] {
            t = existing
        } else {
            // The declaration may come in a later file: keep what the extension adds.
            t = TypeDecl(name: ext.name, kind: .struct, conformances: [], location: Location(file: ext.location.file, line: 0))
            types[ext.name] = t
        }
        t.conformances += ext.conformances
        t.functions.merge(ext.functions) { a, _ in a }
        t.functionLocations.merge(ext.functionLocations) { a, _ in a }
        t.definesEquality = t.definesEquality || ext.definesEquality
    }
}

/// Walks one file.
final class Collector: SyntaxVisitor {
    struct Extension {
        let name: String
        let conformances: [String]
        var functions: [String: FunctionDeclSyntax] = [:]
        var functionLocations: [String: SourceModel.Location] = [:]
        var definesEquality = false
        let location: SourceModel.Location
    }

    let file: String
    let converter: SourceLocationConverter
    var types: [SourceModel.TypeDecl] = []
    var extensions: [Extension] = []
    var properties: [String: [(property: String, type: String, location: SourceModel.Location)]] = [:]
    var entries: [(name: String, member: SourceModel.Member)] = []

    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        self.converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    func location(_ node: some SyntaxProtocol) -> SourceModel.Location {
        SourceModel.Location(file: file, line: converter.location(for: node.positionAfterSkippingLeadingTrivia).line)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, .struct, node.inheritanceClause, node.memberBlock, node)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, .class, node.inheritanceClause, node.memberBlock, node)
        return .visitChildren
    }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name, .actor, node.inheritanceClause, node.memberBlock, node)
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let t = record(node.name, .enum, node.inheritanceClause, node.memberBlock, node)
        for item in node.memberBlock.members {
            guard let c = item.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for e in c.elements {
                t.cases.append(.init(name: plainName(e.name), rawValue: e.rawValue?.value, hasAssociatedValues: e.parameterClause != nil))
            }
        }
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = lastName(node.extendedType)
        switch name {
        case "UITraitCollection", "UIMutableTraits", "EnvironmentValues":
            for item in node.memberBlock.members {
                guard let v = item.decl.as(VariableDeclSyntax.self) else { continue }
                if name == "EnvironmentValues", v.attributes.contains(where: { attributeName($0) == "Entry" }) {
                    for m in members(of: v) { entries.append((m.name, m)) }
                    continue
                }
                for b in v.bindings {
                    guard let id = b.pattern.as(IdentifierPatternSyntax.self), let getter = getterExpression(b),
                          let type = subscriptedType(getter) else { continue }
                    properties[name, default: []].append((plainName(id.identifier), type, location(b)))
                }
            }
        default:
            var ext = Extension(name: name, conformances: inherited(node.inheritanceClause), location: location(node))
            for item in node.memberBlock.members {
                guard let f = item.decl.as(FunctionDeclSyntax.self) else { continue }
                if f.name.text == "==" { ext.definesEquality = true }
                ext.functions[f.name.text] = f
                ext.functionLocations[f.name.text] = location(f)
            }
            extensions.append(ext)
        }
        return .visitChildren
    }

    @discardableResult
    private func record(_ nameToken: TokenSyntax, _ kind: SourceModel.Kind, _ inheritance: InheritanceClauseSyntax?,
                        _ block: MemberBlockSyntax, _ node: some SyntaxProtocol) -> SourceModel.TypeDecl {
        let t = SourceModel.TypeDecl(name: plainName(nameToken), kind: kind, conformances: inherited(inheritance), location: location(node))
        for item in block.members {
            if let v = item.decl.as(VariableDeclSyntax.self) {
                let isStatic = v.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
                for m in members(of: v) {
                    if isStatic {
                        t.staticMembers[m.name] = m
                    } else if !m.isComplexGetter, v.bindings.allSatisfy({ $0.accessorBlock == nil }) {
                        t.storedProperties.append(m)
                    }
                }
            } else if let f = item.decl.as(FunctionDeclSyntax.self) {
                if f.name.text == "==" { t.definesEquality = true }
                t.functions[f.name.text] = f
                t.functionLocations[f.name.text] = location(f)
            }
        }
        types.append(t)
        return t
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
            out.append(.init(name: plainName(id.identifier), type: b.typeAnnotation?.type, value: value,
                             isComplexGetter: complex, location: location(b)))
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

/// `self[X.self]` → `X`.
func subscriptedType(_ e: ExprSyntax, base: String = "self") -> String? {
    guard let s = e.as(SubscriptCallExprSyntax.self), s.calledExpression.trimmedDescription == base,
          s.arguments.count == 1, let arg = s.arguments.first, arg.label == nil,
          let m = arg.expression.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "self",
          let b = m.base else { return nil }
    if let d = b.as(DeclReferenceExprSyntax.self) { return plainName(d.baseName) }
    return b.as(MemberAccessExprSyntax.self).map { plainName($0.declName.baseName) }
}

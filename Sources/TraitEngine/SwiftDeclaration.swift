/// How a trait, enum or environment key was declared in an app's Swift
/// source: what `traitlab swift import` reads beside the value and
/// `traitlab swift export` writes back, so that a definition that came from
/// an app goes back into it as it was (docs/swift.md, "Round trips").
///
/// The engine never reads it: two definitions that differ only here behave
/// the same. Every field is optional; a definition born in Lua has none.
public struct SwiftDeclaration: Equatable, Sendable {
    /// The type's name as the app spells it, qualified when nested
    /// (`ThemeTrait`, `AppTraits.ThemeTrait`, `LNPopupBar.Style`).
    public var typeName: String?
    /// The access level written on the type (`public`, `package`, `fileprivate` ...); nil when none was.
    public var access: String?
    /// Whether the type was declared `nonisolated`.
    public var isNonisolated = false
    /// The arguments of each `@available` attribute on the type (`iOS 26, *`).
    public var availability: [String] = []
    /// The documentation comment above the type, as written (`/// ...` lines), without indentation.
    public var documentation: String?
    /// The conditional compilation around the declaration, outermost first: each
    /// `#if`'s lines before it and after it, without indentation.
    public var conditions: [SwiftCondition] = []
    /// How many of ``conditions`` (the outermost) also hold the type's extensions
    /// (its UITraitCollection and UIMutableTraits properties, its EnvironmentValues
    /// property): all of them when they were declared beside the type, none when outside.
    public var conditionsAroundExtensions = 0
    /// The value type as written on `defaultValue` (`CGFloat`, `String`,
    /// `LNPopupBar.Style`); nil when the declaration had no annotation.
    public var valueType: String?
    /// The default's expression as written (`ThemeSelection.system`): export
    /// writes it while the definition's default is still ``defaultSourceValue``.
    public var defaultSource: String?
    /// The value ``defaultSource`` stands for.
    public var defaultSourceValue: TraitValue?
    /// How `defaultValue` was declared when not `static let`: `var`
    /// (`static var defaultValue = false`) or `getter` (`static var defaultValue: Bool { false }`).
    public var defaultForm: String?
    /// The `#if` in the type's body that `defaultValue` was chosen from: the
    /// lines before it (`#if os(tvOS)`, or other clauses and `#else`), without indentation.
    public var defaultConditionBefore: String?
    /// The lines after it (`#endif`, or `#else` and other clauses first).
    public var defaultConditionAfter: String?

    // Enums.
    /// The raw type (`Int`, `String`); nil for an enum without one.
    public var rawType: String?
    /// The Swift case names, one per case in order.
    public var caseNames: [String] = []
    /// Each case's raw value as written (`0`, `"dark"`); empty when implicit.
    public var rawValues: [String] = []
    /// The protocols after the raw type (`CaseIterable`, `Sendable`).
    public var conformances: [String] = []
    /// Declared outside the Swift sources (an Objective-C `NS_ENUM`): export names it but does not declare it.
    public var isForeign = false

    // Environment keys.
    /// Declared with iOS 18's `@Entry var name: T = value` in `extension EnvironmentValues`.
    public var isEntry = false
    /// The arguments of each `@available` attribute on the key's
    /// `UITraitBridgedEnvironmentKey` conformance.
    public var bridgeAvailability: [String] = []
    /// Whether the key's type itself conforms to `UITraitBridgedEnvironmentKey`
    /// (its `read` and `write` in its body), rather than an extension.
    public var bridgeOnType = false

    /// A declaration that says nothing.
    public init() {}

    /// The type's simple name: `ThemeTrait` of `AppTraits.ThemeTrait`.
    public var simpleTypeName: String? { typeName.map { String($0.split(separator: ".").last ?? Substring($0)) } }
}

/// One `#if` around a declaration: the lines before it (`#if canImport(UIKit)`,
/// or other clauses as written and then `#else`) and after it (`#endif`, or
/// `#else` and other clauses first), without indentation.
public struct SwiftCondition: Equatable, Sendable {
    /// The lines before the declaration.
    public var before: String
    /// The lines after it.
    public var after: String
    /// A condition of these lines.
    public init(before: String, after: String) {
        self.before = before
        self.after = after
    }
}

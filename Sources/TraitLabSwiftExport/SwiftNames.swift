/// Swift spellings for what scripts name freely: type names in UpperCamelCase,
/// identifiers that may need backticks, and string literals.
enum SwiftNames {
    /// Words Swift reserves; an identifier spelled like one needs backticks
    /// (`case \`default\``), and a type named like one gets a suffix instead.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
        "_",
    ]

    /// `my app-theme` → `MyAppTheme`, `theme` → `Theme`, `3d` → `_3d`: the
    /// words of `name` (split at anything not a letter or digit), each with
    /// its first letter upper-cased. Letters already upper-case stay so.
    static func upperCamel(_ name: String) -> String {
        let words = name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        var out = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if out.isEmpty { out = "Unnamed" }
        if let first = out.first, first.isNumber { out = "_" + out }
        return out
    }

    /// `Light mode` → `lightMode`; `SRGB` stays `SRGB` (a valid identifier
    /// is kept as written, so a case keeps its Lua spelling when it can).
    static func identifier(_ name: String) -> String {
        if isIdentifier(name) { return name }
        let camel = upperCamel(name)
        guard let first = camel.first, first != "_" else { return camel }
        return first.lowercased() + camel.dropFirst()
    }

    /// Letters, digits and `_`, not starting with a digit (ASCII only: what
    /// TraitLab allows for property names, so a name never depends on Unicode rules).
    static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    /// An identifier as written in a declaration: keywords in backticks.
    static func declared(_ id: String) -> String {
        keywords.contains(id) ? "`\(id)`" : id
    }

    /// A type name that is not a keyword and not one of the names the export
    /// itself relies on (`Bool`, `String` ... would shadow the standard ones):
    /// such a name gets `Value` (`StringValue`).
    static func typeName(_ name: String) -> String {
        let n = upperCamel(name)
        return isReserved(n) ? n + "Value" : n
    }

    /// `Theme` → `ThemeTrait`; a name already ending in `Trait` is kept. The
    /// suffix keeps it clear of keywords and of the app's other types (no
    /// reserved name ends in `Trait`).
    static func traitTypeName(_ name: String) -> String {
        let n = upperCamel(name)
        return n.hasSuffix("Trait") ? n : n + "Trait"
    }

    /// `myAppTheme` → `MyAppThemeKey`; a key whose name would make a reserved
    /// one gets `Value` before the suffix: `environment` → `EnvironmentValueKey`
    /// (`struct EnvironmentKey: EnvironmentKey` would not compile).
    static func keyTypeName(_ name: String) -> String {
        let n = upperCamel(name)
        return isReserved(n + "Key") ? n + "ValueKey" : n + "Key"
    }

    /// Whether a type may not be named `n`: a keyword, or a name that the
    /// exported file, or the app it goes into, uses (``reservedTypeNames``).
    static func isReserved(_ n: String) -> Bool { keywords.contains(n) || reservedTypeNames.contains(n) }

    /// Every type, protocol and module the exported file names (the
    /// standard library's, UIKit's and SwiftUI's, and `Value`, the
    /// associated type of `UITraitDefinition` and `EnvironmentKey`, which a
    /// type of that name would shadow inside the conforming types), and
    /// other UIKit and SwiftUI names an app uses: an enum or struct named
    /// like one would shadow it in the whole app module.
    static let reservedTypeNames: Set<String> = [
        "Bool", "Int", "Double", "Float", "String", "Character", "Optional", "Array", "Dictionary", "Set", "Equatable",
        "Hashable", "CaseIterable", "RawRepresentable", "Error", "Never", "Void", "Result", "Value", "Swift",
        "UIKit", "SwiftUI",
        "UITraitCollection", "UIMutableTraits", "UITraitDefinition", "UITraitBridgedEnvironmentKey", "UIColor", "UIFont",
        "UIImage", "UIView", "UIViewController", "UIWindow", "UIWindowScene", "UIScreen", "UIApplication",
        "EnvironmentKey", "EnvironmentValues", "Environment", "View", "Text", "Image", "Color", "Font", "Button", "List",
        "Label", "Scene", "App", "Animation", "Edge", "Alignment", "ColorScheme", "DynamicTypeSize", "LayoutDirection",
    ]

    /// A Swift string literal for any string (escapes, control characters as `\u{...}`).
    static func stringLiteral(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if u.value < 0x20 || u.value == 0x7F || (0x80..<0xA0).contains(u.value) || u.properties.generalCategory == .format {
                    out += "\\u{\(String(u.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// A `Double` literal that reads back as the same value.
    static func doubleLiteral(_ d: Double) -> String {
        if d.isNaN { return "Double.nan" }
        if d.isInfinite { return d < 0 ? "-Double.infinity" : "Double.infinity" }
        let s = "\(d)"
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }

    /// An `Int` literal; `Int.min` has no literal of its own.
    static func intLiteral(_ i: Int) -> String {
        i == Int.min ? "Int.min" : "\(i)"
    }
}

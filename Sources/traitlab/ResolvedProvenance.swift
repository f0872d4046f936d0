import TraitEngine
import TraitLabLua

// `:why view backgroundColor` (also tintColor, image): what a view shows,
// resolved for its traits, and where each trait that chose it comes from.
// A system colour is chosen by the traits Apple documents for it (style,
// contrast, level: UIColor's "Dynamic system colors"); a colour set or an
// image set by the keys of the variant UIKit picks (Asset Catalog Format
// Reference: appearances, idiom, scale, size classes, direction).

/// The properties `:why` explains as resolved values rather than traits.
let resolvedProperties = ["backgroundColor", "tintColor", "image"]

/// `:why` on a resolved value: its line as dumps show it
/// (`backgroundColor systemBackground → #1C1C1E (dark, elevated)`), then
/// each deciding trait with its value and where that value comes from. Nil
/// when `property` is not one of ``resolvedProperties``.
func explainResolved(_ property: String, for env: TraitEnvironment, style: Style) -> String? {
    guard resolvedProperties.contains(property) else { return nil }
    guard let view = env as? View else { return "\(env) is not a view: only views show \(property)\n" }
    guard let line = resolvedResourceLines(view).first(where: { $0.hasPrefix(property + " ") }) else {
        return property == "tintColor"
            ? explainTint(view, style: style)
            : "\(property) of \(view): none set\n"
    }
    var out = style.bold("\(line)") + "  (\(view))\n"
    for entry in deciding(property, of: view) {
        out += "  " + entry.definition.property + " " + describe(entry.value) + "  ← " + source(of: entry.definition, for: view).text + "\n"
    }
    if property == "tintColor", let from = view.inheritedTintColor?.source, from !== view {
        out += "  (the tint colour is inherited from \(from))\n"
    }
    return out
}

/// A view with no tint colour of its own: what it inherits, else systemBlue.
private func explainTint(_ view: View, style: Style) -> String {
    guard let r = try? view.resolvedTintColor() else { return "tintColor of \(view): cannot resolve\n" }
    let from = view.inheritedTintColor.map { "inherited from \($0.source)" } ?? "no view up the hierarchy sets one: systemBlue"
    var out = style.bold("tintColor → \(r.color.hexString) (\(r.traitsDescription))") + "  (\(view): \(from))\n"
    for entry in r.chosenBy {
        out += "  " + entry.definition.property + " " + describe(entry.value) + "  ← " + source(of: entry.definition, for: view).text + "\n"
    }
    return out
}

/// The traits, with their values, that chose what `property` shows.
private func deciding(_ property: String, of view: View) -> [TraitCollection.Entry] {
    switch property {
    case "backgroundColor": return (try? view.resolvedBackgroundColor())??.chosenBy ?? []
    case "tintColor": return (try? view.resolvedTintColor())?.chosenBy ?? []
    case "image": return view.resolvedImage?.traits ?? []
    default: return []
    }
}

import TraitEngine
import TraitLabLua

// `:traits` and `:why`: where an environment's trait values come from.
// Each environment's collection is its parent's with its own overrides
// applied, so a value comes from the nearest environment on the way up
// (following `traitParent`, which honours the hierarchy mode) that overrides
// the trait, else from the screen's device traits, else from the default.

/// `:traits`: every registered trait with its value and where it comes from.
func describeTraits(of env: TraitEnvironment, style: Style) -> String {
    var out = style.bold("\(env)") + "  (\(env.world.hierarchyMode.rawValue) flow)\n"
    if let note = staleNote(env) { out += style.dim(note) + "\n" }
    let definitions = env.world.registry.definitions
    let nameWidth = min(32, definitions.map(\.property.count).max() ?? 0)
    let rows = definitions.map { d in (d, describe(env.traitCollection.rawValue(d)), source(of: d, for: env)) }
    let valueWidth = min(24, rows.map(\.1.count).max() ?? 0)
    for (d, value, from) in rows {
        let line = "  " + pad(d.property, nameWidth) + "  " + pad(value, valueWidth) + "  " + from.text
        if case .defaultValue = from { out += style.dim(line) + "\n" } else { out += line + "\n" }
    }
    // What the view shows, resolved for these traits (:why view backgroundColor says why).
    for line in resolvedResourceLines(env) { out += "  shows " + line + "\n" }
    return out
}

/// `:why`: the chain from the root down to `env`, with the value at each
/// step and the overrides that set it.
func explain(_ definition: TraitDefinition, for env: TraitEnvironment, style: Style) -> String {
    let value = describe(env.traitCollection.rawValue(definition))
    var out = style.bold("\(definition.property) of \(env) = \(value)") + ": " + source(of: definition, for: env).text + "\n"
    if let note = staleNote(env) { out += style.dim(note) + "\n" }
    let chain = traitChain(from: env).reversed()
    let width = min(40, chain.map { "\($0)".count }.max() ?? 0)
    var depth = 0
    for node in chain {
        let name = String(repeating: "  ", count: depth) + "\(node)"
        var line = "  " + pad(name, width + 2 * depth) + "  " + describe(node.traitCollection.rawValue(definition))
        if let o = node.traitOverride(definition) {
            line += "  " + style.accent("← override \(describe(o))")
        } else if let layer = layerSetting(definition, on: node) {
            line += "  " + style.accent("← " + TraitSource.layer(node, layer).text)
        } else if let screen = node as? Screen {
            line += isSetByScreen(screen, definition) ? "  ← device trait" : "  (default)"
        }
        out += line + "\n"
        depth += 1
    }
    return out
}

/// The definition a user names in `:why`: a property name or a trait name.
func definition(named name: String, in registry: TraitRegistry) -> TraitDefinition? {
    registry.definition(forProperty: name) ?? registry.definitions.first { $0.name == name }
}

private func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

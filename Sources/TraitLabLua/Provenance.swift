import TraitEngine

// Where an environment's trait values come from (`:traits`, `:why`, and
// assert.has_trait's failures). Each environment's collection is its
// parent's with its own trait layers (a scene's size, the older override
// APIs, a presentation's override) and then its own overrides applied, so a
// value comes from the nearest environment on the way up (following
// `traitParent`, which honours the hierarchy mode) that sets the trait, else
// from the screen's device traits, else from the default.

/// Where one trait's value comes from, seen from one environment.
public enum TraitSource {
    case ownOverride
    case ancestorOverride(TraitEnvironment)
    /// A ``TraitLayer`` of the environment (itself or an ancestor).
    case layer(TraitEnvironment, TraitLayer)
    case screen(Screen)
    case defaultValue

    public var text: String {
        switch self {
        case .ownOverride: return "own override"
        case .ancestorOverride(let e): return "override on \(e)"
        case .layer(let e, let layer): return TraitSource.describe(layer, of: e)
        case .screen(let s): return "\(s) (device trait)"
        case .defaultValue: return "default"
        }
    }

    private static func describe(_ layer: TraitLayer, of e: TraitEnvironment) -> String {
        switch layer {
        case .sceneGeometry:
            let size = (e as? WindowScene).map { " (\($0.size))" } ?? ""
            return "the size of \(e)\(size)"
        case .overrideTraitCollection:
            return e is PresentationController ? "overrideTraitCollection of \(e)"
                : "the collection its parent set for \(e) (setOverrideTraitCollection)"
        case .overrideUserInterfaceStyle:
            return "overrideUserInterfaceStyle of \(e)"
        case .contentSizeCategoryLimits:
            let limits = (e as? View)?.contentSizeLimits.map { " (\($0.description))" } ?? ""
            let from = (e as? View).map { ", clamping \($0.unclampedContentSizeCategory.rawValue)" } ?? ""
            return "the content size category limits of \(e)\(limits)\(from)"
        @unknown default:
            return "\(e)"
        }
    }

    /// The environment that sets the value, if one does.
    public var environment: TraitEnvironment? {
        switch self {
        case .ancestorOverride(let e), .layer(let e, _): return e
        case .screen(let s): return s
        case .ownOverride, .defaultValue: return nil
        }
    }
}

/// The environments from `env` up to its root, `env` first.
public func traitChain(from env: TraitEnvironment) -> [TraitEnvironment] {
    var chain: [TraitEnvironment] = []
    var node: TraitEnvironment? = env
    while let n = node, chain.count < 10_000 {
        chain.append(n)
        node = n.traitParent
    }
    return chain
}

public func isSetByScreen(_ screen: Screen, _ definition: TraitDefinition) -> Bool {
    screen.traitCollection.entries.contains { $0.definition === definition }
}

/// The layer of `node` that sets `definition`, the last applied first.
public func layerSetting(_ definition: TraitDefinition, on node: TraitEnvironment) -> TraitLayer? {
    TraitLayer.allCases.reversed().first { l in node.traitLayer(l).contains { $0.definition === definition } }
}

public func source(of definition: TraitDefinition, for env: TraitEnvironment) -> TraitSource {
    for node in traitChain(from: env) {
        // A content size limit that changed the value wins over what it clamped.
        if definition === SystemTraits.preferredContentSizeCategory, (node as? View)?.contentSizeLimitsApplied == true {
            return .layer(node, .contentSizeCategoryLimits)
        }
        if node.containsTraitOverride(definition) { return node === env ? .ownOverride : .ancestorOverride(node) }
        if let layer = layerSetting(definition, on: node), layer != .contentSizeCategoryLimits { return .layer(node, layer) }
        if let screen = node as? Screen, isSetByScreen(screen, definition) { return .screen(screen) }
    }
    return .defaultValue
}

/// A note for environments whose collection does not follow their tree.
public func staleNote(_ env: TraitEnvironment) -> String? {
    if env is Screen || env.isInWindowScene { return nil }
    return "(not in a window scene: its traits do not update, values are as last computed)"
}

// Overrides on a trait environment (traitOverrides, and the older
// override APIs UIKit keeps), and the layers a value comes from.

extension TraitEnvironment {
    // MARK: Overrides

    /// The override value for `definition`, or nil when there is none.
    public func traitOverride(_ definition: TraitDefinition) -> TraitValue? {
        traitOverrideEntries.first { $0.definition === definition }?.value
    }

    /// Whether this environment overrides `definition` (`traitOverrides.contains`).
    public func containsTraitOverride(_ definition: TraitDefinition) -> Bool {
        traitOverrideEntries.contains { $0.definition === definition }
    }

    /// Whether trait layers (``TraitLayer``) are set here: the override
    /// entries an update applies are then layers and overrides merged.
    private var hasLayers: Bool { extras?.details.map { !$0.layers.isEmpty } ?? false }

    /// Sets an override after checking its type; takes effect at the next update.
    public func setTraitOverride(_ definition: TraitDefinition, _ value: TraitValue) throws {
        let v = try definition.validate(value)
        world.stats.overridesSet += 1
        let entry = TraitCollection.Entry(definition: definition, value: v)
        if hasLayers {
            var own = traitOverrideEntries
            guard TraitEnvironment.set(entry, in: &own) else { return }
            setUserOverrides(own)
        } else {
            let x = makeExtras()
            guard TraitEnvironment.set(entry, in: &x.overrideEntries) else { return }
            flags.insert(.hasOverrides)
        }
        world.trace(.overrideChanged(self, definition, v))
        setNeedsTraitUpdate()
    }

    /// Puts `entry` in `entries` (sorted by definition id); false when it
    /// was there with that value already.
    private static func set(_ entry: TraitCollection.Entry, in entries: inout [TraitCollection.Entry]) -> Bool {
        if let i = entries.firstIndex(where: { $0.definition === entry.definition }) {
            if entries[i].value == entry.value { return false }
            entries[i] = entry
        } else {
            let i = entries.firstIndex { $0.definition.id > entry.definition.id } ?? entries.endIndex
            entries.insert(entry, at: i)
        }
        return true
    }

    /// Removes an override; removing one that is not there does nothing.
    public func removeTraitOverride(_ definition: TraitDefinition) {
        if hasLayers {
            var own = traitOverrideEntries
            guard let i = own.firstIndex(where: { $0.definition === definition }) else { return }
            own.remove(at: i)
            setUserOverrides(own)
        } else {
            guard hasOverrides, let x = extras,
                  let i = x.overrideEntries.firstIndex(where: { $0.definition === definition }) else { return }
            x.overrideEntries.remove(at: i)
            if x.overrideEntries.isEmpty {
                flags.remove(.hasOverrides)
                releaseEmptyExtras()
            }
        }
        world.trace(.overrideChanged(self, definition, nil))
        setNeedsTraitUpdate()
    }

    /// The overridden definitions with their values, sorted by definition id
    /// (`traitOverrides` alone: not the ``TraitLayer``s).
    public var traitOverrideEntries: [TraitCollection.Entry] {
        if let d = extras?.details, !d.layers.isEmpty { return d.userOverrides }
        return overrideEntries
    }

    /// The entries of `layer` set here (empty when none).
    public func traitLayer(_ layer: TraitLayer) -> [TraitCollection.Entry] {
        extras?.details?.layers[layer] ?? []
    }

    /// Sets the traits `layer` gives this environment (each definition once);
    /// empty removes the layer. Takes effect at the next update.
    public func setTraitLayer(_ layer: TraitLayer, _ entries: [TraitCollection.Entry]) {
        let sorted = entries.sorted { $0.definition.id < $1.definition.id }
        if traitLayer(layer).elementsEqual(sorted, by: { $0.definition === $1.definition && $0.value == $1.value }) { return }
        let own = traitOverrideEntries
        if sorted.isEmpty {
            guard let d = extras?.details, d.layers[layer] != nil else { return }
            d.layers[layer] = nil
        } else {
            makeDetails().layers[layer] = sorted
        }
        setUserOverrides(own)
        setNeedsTraitUpdate()
    }

    /// Keeps `own` as the user's overrides and applies the layers and them,
    /// merged, as the entries an update applies.
    private func setUserOverrides(_ own: [TraitCollection.Entry]) {
        guard let d = extras?.details, !d.layers.isEmpty else {
            extras?.details?.userOverrides = []
            overrideEntries = own
            return
        }
        d.userOverrides = own
        var merged: [TraitCollection.Entry] = []
        for layer in TraitLayer.allCases {
            for e in d.layers[layer] ?? [] { _ = TraitEnvironment.set(e, in: &merged) }
        }
        for e in own { _ = TraitEnvironment.set(e, in: &merged) }
        overrideEntries = merged
    }

    /// Drops overrides whose value no longer fits its (replaced) definition, or
    /// whose definition is no longer kept, and returns the names of the dropped ones.
    public func revalidateOverrides(keeping: (TraitDefinition) -> Bool) -> [String] {
        var dropped: [String] = []
        let entries = traitOverrideEntries
        let kept: [TraitCollection.Entry] = entries.compactMap { e in
            if keeping(e.definition), let v = try? e.definition.validate(e.value) { return .init(definition: e.definition, value: v) }
            dropped.append(e.definition.name)
            return nil
        }
        if kept.count != entries.count {
            setUserOverrides(kept)
            setNeedsTraitUpdate()
        }
        return dropped
    }

    // MARK: The older override APIs

    /// `overrideUserInterfaceStyle` (views, windows and view controllers;
    /// iOS 13): "unspecified" inherits; any other style is this
    /// environment's ``TraitLayer/overrideUserInterfaceStyle`` layer, which
    /// reaches what inherits from it. Its own `traitOverrides` win over it
    /// (Apple does not say how the two combine; TraitLab's choice: the
    /// newer, per-trait API is the more specific).
    public var overrideUserInterfaceStyle: String {
        if case .string(let s)? = traitLayer(.overrideUserInterfaceStyle).first?.value { return s }
        return "unspecified"
    }

    /// Sets ``overrideUserInterfaceStyle`` (checked against the style's
    /// cases); takes effect at the next update.
    public func setOverrideUserInterfaceStyle(_ style: TraitValue) throws {
        let v = try SystemTraits.userInterfaceStyle.validate(style)
        setTraitLayer(.overrideUserInterfaceStyle,
                      v == SystemTraits.userInterfaceStyle.defaultValue ? [] : [.init(definition: SystemTraits.userInterfaceStyle, value: v)])
    }

    func propagateUp(_ marker: PendingWork) {
        world.hasPendingWork = true
        var p = traitParent
        while let cur = p, !cur.pending.contains(marker) {
            cur.pending.insert(marker)
            p = cur.traitParent
        }
    }

}

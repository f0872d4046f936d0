import CLua
import CLuaShim
import TraitEngine

// traitOverrides as scripts read and write them.
extension LuaHost {
    // MARK: - Overrides

    func installOverridesMeta() {
        func env(_ c: LuaCall) throws -> TraitEnvironment { try c.object(1, OverridesBox.self, "TraitOverrides").env }
        refs.overridesMeta = makeMeta(name: "TraitOverrides", index: ("overrides.index", { c in
            let e = try env(c)
            let d = try c.host.definition(forKey: 2)
            guard let v = e.traitOverride(d) else {
                throw LuaError.message("\(e) has no override for trait '\(d.name)' (check with traitOverrides:contains first)")
            }
            c.host.push(v)
            return 1
        }), methods: [
            "contains": ("TraitOverrides:contains", { c in
                let e = try env(c)
                c.L.push(e.containsTraitOverride(try c.host.definition(forKey: 2)))
                return 1
            }),
            "remove": ("TraitOverrides:remove", { c in
                let e = try env(c)
                e.removeTraitOverride(try c.host.definition(forKey: 2))
                return 0
            }),
        ], newindex: { c in
            let e = try env(c)
            let d = try c.host.definition(forKey: 2)
            try e.setTraitOverride(d, try c.host.traitValue(at: 3))
            return 0
        }, tostring: { c in
            let e = try env(c)
            try c.host.chargeEngine(c.host.textCost(of: e.traitOverrideEntries.map(\.value), times: 2))
            let parts = e.traitOverrideEntries.map { "\($0.definition.property) = \(TraitEngine.describe($0.value))" }
            c.L.push("TraitOverrides of \(e) { " + parts.joined(separator: ", ") + (parts.isEmpty ? "}" : " }"))
            return 1
        }, extra: [("__pairs", "overrides.pairs", { c in
            c.host.pushEntryIterator(try env(c).traitOverrideEntries)
            return 3
        })])
    }
}

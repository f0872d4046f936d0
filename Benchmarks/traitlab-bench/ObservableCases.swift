import TraitLabLua

// ui.Observable: a read outside tracked methods against a plain table field
// read in the same loop (the target: within 2×), and a read inside
// layoutSubviews, which is recorded.

struct ObservableFigures {
    let reads: Int
    /// Seconds per read (best of the runs).
    var untrackedRead = 0.0
    var plainRead = 0.0
    var trackedRead = 0.0
    /// The floor of the design: a read through `__index = table` in plain Lua.
    var indexTableRead = 0.0
    /// Check: the reads returned the value, and a change after the tracked
    /// reads ran the layout again.
    var valuesRead = false
    var error: String?
}

func measureObservable(reads: Int, repeats: Int) -> ObservableFigures {
    var f = ObservableFigures(reads: reads)
    let host: LuaHost
    do { host = try LuaHost() } catch { f.error = "cannot create a Lua host: \(error)"; return f }
    defer { host.close() }
    // The tracked loop runs in layoutSubviews; a read there arms the model
    // first, and the loops outside run after the model went back to plain reads.
    let setup = """
        local model = ui.Observable { unread = 3 }
        local scene = ui.WindowScene {}
        local window = ui.Window { windowScene = scene }
        local layouts, loops = 0, 0
        local view = ui.View { layoutSubviews = function()
          layouts = layouts + 1
          local o = model
          local v = o.unread
          for i = 1, loops do local v = o.unread end
        end }
        window:addSubview(view)
        ui.update()
        bench = { model = model, plain = { unread = 3 }, view = view,
                  floor = setmetatable({}, { __index = { unread = 3 } }),
                  layouts = function() return layouts end, setLoops = function(n) loops = n end }
        assert(model.unread == 3)
        model.unread = 4
        ui.update()
        assert(layouts == 2 and model.unread == 4)
        """
    if let e = host.run(setup, name: "=bench setup") { f.error = e; return f }
    f.valuesRead = true

    func loop(_ object: String) -> String {
        "local o = bench.\(object) for i = 1, \(reads) do local v = o.unread end"
    }
    let tracked = "bench.setLoops(\(reads)) bench.view:setNeedsLayout() ui.update() bench.setLoops(0)"
    var plain: [Double] = [], untracked: [Double] = [], trackedSamples: [Double] = [], floor: [Double] = []
    for _ in 0..<repeats {
        var failure: String?
        plain.append(seconds { failure = host.run(loop("plain"), name: "=plain loop") ?? failure })
        untracked.append(seconds { failure = host.run(loop("model"), name: "=observable loop") ?? failure })
        floor.append(seconds { failure = host.run(loop("floor"), name: "=__index loop") ?? failure })
        trackedSamples.append(seconds { failure = host.run(tracked, name: "=tracked loop") ?? failure })
        if let failure { f.error = failure; return f }
    }
    f.plainRead = best(plain) / Double(reads)
    f.untrackedRead = best(untracked) / Double(reads)
    f.trackedRead = best(trackedSamples) / Double(reads)
    f.indexTableRead = best(floor) / Double(reads)
    // The tracked reads were recorded: a change runs the layout again.
    let check = """
        local before = bench.layouts()
        bench.model.unread = bench.model.unread + 1
        ui.update()
        assert(bench.layouts() == before + 1, "a change after tracked reads ran no layout")
        """
    if let e = host.run(check, name: "=bench check") { f.error = e; f.valuesRead = false }
    return f
}

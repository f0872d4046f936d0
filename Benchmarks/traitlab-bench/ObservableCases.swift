import TraitLabLua

// ui.Observable: reads outside tracked methods against a plain table field
// read in the same loop (the target: within 2×) — of a property no tracked
// method read and of one a layout depends on (both plain fields of the
// object outside tracked methods; beside them the floor of a read through
// `__index = table`) — a read inside layoutSubviews, which is recorded, and
// what an update pays to compare the properties work depends on
// (1,000 observables × 10 properties a layout read).

struct ObservableFigures {
    let reads: Int
    /// Seconds per read (best of the runs).
    /// Outside tracked methods, a property nothing depends on.
    var untrackedRead = 0.0
    /// Outside tracked methods, a property a layout's latest run read.
    var dependedRead = 0.0
    var plainRead = 0.0
    var trackedRead = 0.0
    /// The floor of a depended-on read: a read through `__index = table` in plain Lua.
    var indexTableRead = 0.0
    /// One `ui.update()` with nothing to do while 1,000 observables × 10
    /// properties that a layout read are compared, and without them.
    var updateWithCheck = 0.0
    var updateWithoutCheck = 0.0
    /// Check: the reads returned the value, each property was where the
    /// case says, and a change after the tracked reads ran the layout again.
    var valuesRead = false
    var error: String?
}

func measureObservable(reads: Int, repeats: Int) -> ObservableFigures {
    var f = ObservableFigures(reads: reads)
    let host: LuaHost
    do { host = try LuaHost() } catch { f.error = "cannot create a Lua host: \(error)"; return f }
    defer { host.close() }
    // The tracked loop runs in layoutSubviews, which reads `unread` (the
    // model is armed first); the first read outside it disarms the model:
    // `count` and `unread` (which the layout's latest run read) go back to
    // plain fields.
    let setup = """
        local model = ui.Observable { unread = 3, count = 3 }
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
        bench = { model = model, plain = { unread = 3, count = 3 }, view = view,
                  floor = setmetatable({}, { __index = { unread = 3, count = 3 } }),
                  layouts = function() return layouts end, setLoops = function(n) loops = n end }
        assert(model.unread == 3)
        model.unread = 4
        ui.update()
        assert(layouts == 2 and model.unread == 4)
        -- What the loops measure: count and unread (read by the layout) are plain fields.
        assert(model.count == 3 and rawget(model, "count") == 3 and rawget(model, "unread") == 4)
        """
    if let e = host.run(setup, name: "=bench setup") { f.error = e; return f }
    f.valuesRead = true

    func loop(_ object: String, _ key: String = "unread") -> String {
        "local o = bench.\(object) for i = 1, \(reads) do local v = o.\(key) end"
    }
    let tracked = "bench.setLoops(\(reads)) bench.view:setNeedsLayout() ui.update() bench.setLoops(0)"
    var plain: [Double] = [], untracked: [Double] = [], depended: [Double] = [], trackedSamples: [Double] = [], floor: [Double] = []
    for _ in 0..<repeats {
        var failure: String?
        plain.append(seconds { failure = host.run(loop("plain"), name: "=plain loop") ?? failure })
        untracked.append(seconds { failure = host.run(loop("model", "count"), name: "=observable loop") ?? failure })
        depended.append(seconds { failure = host.run(loop("model"), name: "=depended-on loop") ?? failure })
        floor.append(seconds { failure = host.run(loop("floor"), name: "=__index loop") ?? failure })
        trackedSamples.append(seconds { failure = host.run(tracked, name: "=tracked loop") ?? failure })
        if let failure { f.error = failure; return f }
    }
    f.plainRead = best(plain) / Double(reads)
    f.untrackedRead = best(untracked) / Double(reads)
    f.dependedRead = best(depended) / Double(reads)
    f.trackedRead = best(trackedSamples) / Double(reads)
    f.indexTableRead = best(floor) / Double(reads)
    // The tracked reads were recorded: a change runs the layout again.
    let check = """
        -- (The tracked loop ran last: a read outside it disarms the model, as in each repeat.)
        assert(bench.model.count == 3 and rawget(bench.model, "count") == 3 and rawget(bench.model, "unread") ~= nil,
               "the untracked loops did not read what they say")
        local before = bench.layouts()
        bench.model.unread = bench.model.unread + 1
        ui.update()
        assert(bench.layouts() == before + 1, "a change after tracked reads ran no layout")
        """
    if let e = host.run(check, name: "=bench check") { f.error = e; f.valuesRead = false }
    if f.error == nil { measureObservableCheck(&f, repeats: repeats) }
    return f
}

/// The cost of comparing before an update: 1,000 observables whose 10
/// properties each a layout read, disarmed by a read outside it, then
/// `ui.update()` with nothing pending (it compares all 10,000), against
/// the same update once no layout depends on them.
private func measureObservableCheck(_ f: inout ObservableFigures, repeats: Int) {
    let host: LuaHost
    do { host = try LuaHost() } catch { f.error = "cannot create a Lua host: \(error)"; return }
    defer { host.close() }
    let setup = """
        local models = {}
        for i = 1, 1000 do
          local init = {}
          for k = 1, 10 do init["p" .. k] = k end
          models[i] = ui.Observable(init)
        end
        local reading = true
        local scene = ui.WindowScene {}
        local window = ui.Window { windowScene = scene }
        local view = ui.View { layoutSubviews = function()
          if not reading then return end
          for i = 1, #models do local m = models[i] for k = 1, 10 do local _ = m["p" .. k] end end
        end }
        window:addSubview(view)
        ui.update()
        for i = 1, #models do local _ = models[i].p1 end -- disarms them: now compared
        bench = { models = models, stop = function() reading = false; view:setNeedsLayout(); ui.update()
                                                     for i = 1, #models do local _ = models[i].p1 end end }
        """
    if let e = host.run(setup, name: "=bench check setup") { f.error = e; return }
    let updates = 1000
    let loop = "for i = 1, \(updates) do ui.update() end"
    guard host.world.checksBeforeApplyingWork else { f.error = "the observables are not compared"; return }
    var with: [Double] = [], without: [Double] = []
    for _ in 0..<repeats {
        var failure: String?
        with.append(seconds { failure = host.run(loop, name: "=update loop") })
        if let failure { f.error = failure; return }
    }
    if let e = host.run("bench.stop()", name: "=bench") { f.error = e; return }
    guard !host.world.checksBeforeApplyingWork else { f.error = "the observables are still compared"; return }
    for _ in 0..<repeats {
        var failure: String?
        without.append(seconds { failure = host.run(loop, name: "=update loop") })
        if let failure { f.error = failure; return }
    }
    f.updateWithCheck = best(with) / Double(updates)
    f.updateWithoutCheck = best(without) / Double(updates)
}

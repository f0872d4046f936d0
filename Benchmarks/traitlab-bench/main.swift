#if canImport(Glibc)
import Glibc
#endif
import TraitEngine

// traitlab-bench: the figures behind the performance targets (docs/performance.md), as a
// table, each comparison measured side by side in one run. It reads in the
// order a run happens: options, the cases (propagation, dispatch, Lua bridge,
// host, memory), the figures, the targets, the checks.
//
//   traitlab-bench                   full mode: 10k, 100k and 1M views (release build)
//   traitlab-bench --quick           seconds: small trees, few iterations
//   traitlab-bench --no-targets      figures and checks, timing targets not judged (debug CI)
//   traitlab-bench --case NAME --views N [--iterations K]
//                                    one case alone (root-change, leaf-change,
//                                    idle-update, memory), for callgrind
//   traitlab-bench --print-workload  the pure-Lua workload script (for callgrind)
//
// Checks (handler counts, values read, processes succeeding) decide the exit
// status and the last line, "N passed, N failed"; targets are figures and
// never fail the run.

struct Options {
    var quick = false
    var judgeTargets = true
    var singleCase: String?
    var printWorkload = false
    var views = 100_000
    var iterations = 1

    /// Tree sizes, iteration counts and loop lengths for each mode.
    var sizes: [Int] { quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000] }
    var dispatchViews: Int { quick ? 1_000 : 100_000 }
    var memoryViews: Int { quick ? 100_000 : 1_000_000 }
    func iterations(for views: Int) -> Int { quick ? 3 : (views >= 1_000_000 ? 5 : 11) }
    var luaReads: Int { quick ? 100_000 : 20_000_000 }
    var luaRepeats: Int { quick ? 1 : 5 }
    var startRuns: Int { quick ? 3 : 31 }
    var workRuns: Int { quick ? 1 : 7 }
    var workload: (fib: Int, size: Int) { quick ? (22, 30_000) : (30, 400_000) }
    /// Trees built from Lua: sizes, runs, object loops, memory.
    var luaTreeSizes: [Int] { quick ? [1_000, 10_000] : [10_000, 100_000] }
    func luaTreeIterations(for views: Int) -> Int { quick ? 2 : (views >= 100_000 ? 15 : 25) }
    var luaObjects: Int { quick ? 2_000 : 200_000 }
    var freshViews: Int { quick ? 1_000 : 20_000 }
    var floorCalls: Int { quick ? 10_000 : 1_000_000 }
    var luaMemoryViews: Int { quick ? 10_000 : 1_000_000 }
    var promptRuns: Int { quick ? 2 : 11 }
    var specFiles: Int { quick ? 20 : 500 }
    var specRuns: Int { quick ? 1 : 3 }
    /// Catalogue colours: resolutions per loop, sets in the catalogue, loads.
    var resourceReads: Int { quick ? 100_000 : 2_000_000 }
    var catalogSets: Int { 500 }
    var catalogLoads: Int { quick ? 3 : 11 }
}

func parseOptions(_ args: [String]) -> Options {
    var o = Options()
    var i = 0
    func value() -> String {
        i += 1
        guard i < args.count else { fail("\(args[i - 1]) needs a value") }
        return args[i]
    }
    while i < args.count {
        switch args[i] {
        case "--quick": o.quick = true
        case "--print-workload": o.printWorkload = true
        case "--no-targets": o.judgeTargets = false
        case "--case": o.singleCase = value()
        case "--views": guard let n = Int(value()), n > 0 else { fail("--views needs a positive count") }; o.views = n
        case "--iterations": guard let n = Int(value()), n > 0 else { fail("--iterations needs a positive count") }; o.iterations = n
        case "-h", "--help":
            print("usage: traitlab-bench [--quick] [--no-targets] | --case root-change|leaf-change|idle-update|memory|lua-memory|lua-memory-registration|lua-root-change[-registration|-layout]|lua-objects|lua-fresh-read|observable|resources --views N [--iterations K]"
                  + " | --case spec-files --views FILES [--iterations RUNS] | --print-workload [--quick]")
            exit(0)
        default: fail("unknown option '\(args[i])'")
        }
        i += 1
    }
    return o
}

func fail(_ message: String) -> Never {
    fputs("traitlab-bench: \(message)\n", stderr)
    exit(2)
}

// MARK: - One case (callgrind, memory)

/// `--case NAME`: prints one figure. The memory case runs in a process of its
/// own, so its peak resident size is the tree's and nothing else's.
func runCase(_ name: String, _ o: Options) -> Int32 {
    do {
        if name == "memory" {
            print("memory \(fixed(try measureMemory(views: o.views), 1)) bytes/view")
        } else if name == "lua-memory" || name == "lua-memory-registration" {
            let m = try measureLuaMemory(views: o.views, registration: name == "lua-memory-registration")
            print("memory \(fixed(m.total, 1)) \(fixed(m.lua, 1)) bytes/view (total, Lua)")
        } else if name == "lua-objects" {
            // The "Lua objects" rows alone (--views: collections per loop; fresh views a tenth of it).
            let f = measureLuaObjects(count: o.views, freshViews: max(1, o.views / 10), repeats: o.iterations)
            if let e = f.error { throw BenchError(e) }
            print("lua-objects collection \(duration(f.collection)) / \(duration(f.plainCollection)) = \(ratio(f.collection / f.plainCollection));"
                  + " modifying \(duration(f.modifying)) / \(duration(f.plainModifying)) = \(ratio(f.modifying / f.plainModifying));"
                  + " first read \(duration(f.freshRead)) / \(duration(f.plainRead)) = \(ratio(f.freshRead / f.plainRead))")
        } else if name == "lua-fresh-read" {
            // The first read of each of --views fresh collections, for callgrind.
            let host = try makeBenchHost()
            if let e = host.run("bench.buildFresh(\(o.views))", name: "=bench") { throw BenchError(e) }
            var s = 0.0
            for _ in 0..<o.iterations {
                if let e = host.run("bench.freshChange()", name: "=bench") { throw BenchError(e) }
                s += seconds { measuredRegion { _ = host.run("bench.freshReads()", name: "=bench") } }
            }
            print("\(name) views \(o.views) iterations \(o.iterations): \(sig3(s / Double(o.iterations * o.views) * 1e9)) ns/read")
            host.close()
        } else if name == "observable" {
            // The "ui.Observable" rows alone (--views: reads per loop; --iterations: runs).
            let f = measureObservable(reads: o.views, repeats: o.iterations)
            if let e = f.error { throw BenchError(e) }
            print("observable untracked read of a property nothing depends on \(duration(f.untrackedRead)) / plain field read \(duration(f.plainRead))"
                  + " = \(ratio(f.untrackedRead / f.plainRead)) (target 2×);"
                  + " untracked read of a property a layout depends on \(duration(f.dependedRead)) = \(ratio(f.dependedRead / f.plainRead)) (target 2×)"
                  + " (floor: plain Lua, __index = table, \(duration(f.indexTableRead)) = \(ratio(f.indexTableRead / f.plainRead)));"
                  + " tracked read \(duration(f.trackedRead)) = \(ratio(f.trackedRead / f.plainRead));"
                  + " ui.update() comparing 1,000 observables × 10 depended-on properties \(duration(f.updateWithCheck)),"
                  + " with nothing to compare \(duration(f.updateWithoutCheck))")
        } else if name == "resources" {
            // The "resources" rows alone (--views: resolutions per loop; --iterations: runs and loads).
            let f = measureResources(reads: o.views, sets: o.catalogSets, repeats: o.iterations, loads: o.iterations)
            if let e = f.error { throw BenchError(e) }
            print("resources catalogue colour resolved as tc[color], light/dark \(duration(f.resolveIndex)) / trait read \(duration(f.traitRead))"
                  + " = \(ratio(f.resolveIndex / f.traitRead)) (target 2×);"
                  + " as color:resolvedColor(tc) \(duration(f.resolve)) = \(ratio(f.resolve / f.traitRead))"
                  + " (floor, an empty Lua method: \(duration(f.methodFloor)) = \(ratio(f.methodFloor / f.traitRead)));"
                  + " same collection \(duration(f.resolveSame)) / \(duration(f.traitReadSame))"
                  + " = \(ratio(f.resolveSame / f.traitReadSame)); loading \(f.sets) sets \(duration(f.load)) (target 50 ms);"
                  + " Swift: resolved \(duration(f.engineResolve)) / trait read \(duration(f.engineTraitRead)) = \(ratio(f.engineResolve / f.engineTraitRead)),"
                  + " loading \(duration(f.engineLoad))")
        } else if name == "spec-files" {
            // --views is the number of files here.
            let f = measureSpecFiles(files: o.views, runs: o.iterations)
            if let e = f.error { throw BenchError(e) }
            print("spec-files \(f.files): traitlab -j1 \(duration(f.traitlabJ1)), -j2 \(duration(f.traitlabJ2)), busted \(duration(f.busted))")
        } else if name == "lua-root-change" || name == "lua-root-change-registration" || name == "lua-root-change-layout" {
            // A Lua-built tree's root change alone, for callgrind (plain views,
            // one registration each, or a Lua layoutSubviews reading a trait).
            let variant = name == "lua-root-change" ? "plain" : String(name.dropFirst("lua-root-change-".count))
            let host = try makeBenchHost()
            if let e = host.run("bench.buildLua(\(o.views), '\(variant)')", name: "=bench") { throw BenchError(e) }
            let start = now()
            for _ in 0..<o.iterations { measuredRegion { _ = host.run("bench.changeLua()", name: "=bench") } }
            let s = (now() - start) / Double(o.iterations)
            // The last change reached the deepest view, and made one callback per view.
            if let e = host.run("return bench.luaResult()", name: "=bench", results: 1) { throw BenchError(e) }
            let r = host.popError().split(separator: " ")
            let callbacks = variant == "layout" ? r[1] : r[2]
            guard r.first == "true", variant == "plain" || Int(callbacks) == o.views else {
                throw BenchError("the last change did not do its work: \(r.joined(separator: " ")) (reached, layouts, handlers)")
            }
            print("\(name) views \(o.views) iterations \(o.iterations): \(duration(s)) per update, \(sig3(s / Double(o.views) * 1e9)) ns/view")
            host.close()
        } else {
            let s = try runSingleCase(name, views: o.views, iterations: o.iterations)
            print("\(name) views \(o.views) iterations \(o.iterations): \(duration(s)) per update, \(sig3(s / Double(o.views) * 1e9)) ns/view")
        }
        return 0
    } catch {
        fputs("traitlab-bench: \(error)\n", stderr)
        return 1
    }
}

/// Runs `--case memory` in a fresh child process and reads its figure.
func memoryInChild(views: Int) -> (bytesPerView: Double?, error: String?) {
    guard let r = runProcess([executablePath(), "--case", "memory", "--views", String(views)]) else {
        return (nil, "cannot start \(executablePath())")
    }
    let words = r.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard r.succeeded, words.count >= 2, words[0] == "memory", let b = Double(words[1]) else {
        return (nil, "memory case failed: \(r.output)")
    }
    return (b, nil)
}

// MARK: - Report

/// Targets are judged and printed; checks decide the exit status.
struct Report {
    let judge: Bool
    var targetLines: [String] = []
    var met = 0, missed = 0
    var checkLines: [String] = []
    var passed = 0, failed = 0

    /// A target `figure ≤ limit`; `shown` is how the figure reads.
    mutating func target(_ name: String, _ figure: Double?, limit: Double, shown: (Double) -> String) {
        guard let figure, figure.isFinite else {
            targetLines.append("  ----  \(pad(name, 52)) not measured")
            return
        }
        let fraction = limit > 0 ? "  (\(fixed(figure / limit, 2)) of the limit)" : ""
        let figures = "\(padLeft(shown(figure), 10))   limit \(shown(limit))\(fraction)"
        guard judge else {
            targetLines.append("  ----  \(pad(name, 52)) \(figures)")
            return
        }
        let ok = figure <= limit
        if ok { met += 1 } else { missed += 1 }
        targetLines.append("  \(ok ? "PASS" : "MISS")  \(pad(name, 52)) \(figures)")
    }

    mutating func check(_ name: String, _ ok: Bool, _ detail: String = "") {
        if ok { passed += 1 } else { failed += 1 }
        checkLines.append("  \(ok ? "PASS" : "FAIL")  \(name)\(detail.isEmpty ? "" : ": " + detail)")
    }
}

func row(_ label: String, _ cells: [String], width: Int = 14) -> String {
    "  " + pad(label, 38) + cells.map { padLeft($0, width) }.joined()
}

/// A section title over its column headings.
func header(_ title: String, _ columns: [String]) -> String {
    "\n" + pad(title, 40) + columns.map { padLeft($0, 14) }.joined()
}

func runAll(_ o: Options) -> Int32 {
    var report = Report(judge: o.judgeTargets)
    print("TraitLab benchmarks: \(o.quick ? "quick" : "full") mode\(o.judgeTargets ? "" : ", targets not judged")")
    print("machine: \(machineDescription())")
    print("tree: screen > window scene > window > root view controller > root view > N views, up to 10 subviews each")
    print("figures are the best of several runs; ratios compare figures from this run")

    // Propagation.
    var propagation: [PropagationFigures] = []
    for n in o.sizes {
        do {
            propagation.append(try measurePropagation(views: n, iterations: o.iterations(for: n)))
        } catch {
            report.check("propagation at \(short(n)) views", false, "\(error)")
        }
    }
    print(header("propagation", propagation.map { short($0.views) + " views" }))
    print(row("override change at the window scene", propagation.map { duration($0.rootChange) }))
    print(row("  per view", propagation.map { sig3($0.rootChange / Double($0.views) * 1e9) + " ns" }))
    print(row("override change at one leaf", propagation.map { duration($0.leafChange) }))
    print(row("  environments visited", propagation.map { String($0.leafChangeVisited) }))
    print(row("  vs the change at the scene", propagation.map { fixed($0.leafChange / $0.rootChange * 100, 3) + "%" }))
    print(row("update with nothing pending", propagation.map { duration($0.idleUpdate) }))
    print(row("collections created: scene change", propagation.map { String($0.collectionsPerRootChange) }))
    print(row("collections created: leaf change", propagation.map { String($0.collectionsPerLeafChange) }))
    for p in propagation {
        report.check("a change at the scene reaches the deepest leaf (\(short(p.views)) views)", p.rootReachedLeaf)
        report.check("a change at a leaf updates that leaf only (\(short(p.views)) views)", p.leafChangedOnlyLeaf)
    }

    // Dispatch.
    print("\ndispatch: \(short(o.dispatchViews)) views registered for one trait")
    var dispatch: DispatchFigures?
    do {
        let d = try measureDispatch(views: o.dispatchViews)
        dispatch = d
        let perView = { (s: Double) in duration(s) + ", " + sig3(s / Double(d.views) * 1e9) + " ns/view" }
        print(row("change to another trait", [perView(d.otherTraitSeconds), "handlers called \(d.otherTraitHandlers)"], width: 26))
        print(row("change to the registered trait", [perView(d.registeredTraitSeconds), "handlers called \(d.registeredTraitHandlers)"], width: 26))
        report.check("a change to another trait calls no handler", d.otherTraitHandlers == 0, "\(d.otherTraitHandlers) called")
        report.check("a change to the registered trait calls each handler once", d.registeredTraitHandlers == d.views,
                     "\(d.registeredTraitHandlers) of \(d.views) called")
    } catch {
        report.check("dispatch", false, "\(error)")
    }

    // Lua bridge.
    let b = measureLuaBridge(reads: o.luaReads, repeats: o.luaRepeats)
    print(header("Lua bridge: \(grouped(b.reads)) reads per loop", ["bridged", "plain table", "ratio"]))
    print(row("collection.someTrait", [duration(b.collectionRead), duration(b.plainRead), ratio(b.collectionRead / b.plainRead)]))
    print(row("view.traitCollection.someTrait", [duration(b.viewRead), duration(b.nestedPlainRead), ratio(b.viewRead / b.nestedPlainRead)]))
    print(row("  (against one plain field read)", ["", duration(b.plainRead), ratio(b.viewRead / b.plainRead)]))
    report.check("Lua reads of a trait return its value", b.valuesRead && b.error == nil, b.error ?? "")

    // What traits resolve to: a catalogue colour, and loading a catalogue.
    let rs = measureResources(reads: o.resourceReads, sets: o.catalogSets, repeats: o.luaRepeats, loads: o.catalogLoads)
    print(header("resources: \(grouped(rs.reads)) resolutions per loop", ["resolve", "trait read", "ratio"]))
    print(row("tc[color], light/dark", [duration(rs.resolveIndex), duration(rs.traitRead), ratio(rs.resolveIndex / rs.traitRead)]))
    print(row("color:resolvedColor(tc), light/dark", [duration(rs.resolve), duration(rs.traitRead), ratio(rs.resolve / rs.traitRead)]))
    print(row("  (floor: an empty Lua method, light/dark)", [duration(rs.methodFloor), duration(rs.traitRead), ratio(rs.methodFloor / rs.traitRead)]))
    print(row("  the same collection each time", [duration(rs.resolveSame), duration(rs.traitReadSame), ratio(rs.resolveSame / rs.traitReadSame)]))
    print(row("Swift: resolvedColor(with:), light/dark", [duration(rs.engineResolve), duration(rs.engineTraitRead),
                                                          ratio(rs.engineResolve / rs.engineTraitRead)]))
    print(row("Swift: AssetCatalog(path:files:), \(rs.sets) sets", [duration(rs.engineLoad), sig3(rs.engineLoad / Double(rs.sets) * 1e6) + " µs/set", ""]))
    print(row("ui.AssetCatalog(path), \(rs.sets) sets", [duration(rs.load), sig3(rs.load / Double(rs.sets) * 1e6) + " µs/set", ""]))
    report.check("a 500-set catalogue loads and its colour resolves as written", rs.loaded && rs.error == nil, rs.error ?? "")

    // ui.Observable.
    let ob = measureObservable(reads: o.luaReads, repeats: o.luaRepeats)
    print(header("ui.Observable: \(grouped(ob.reads)) reads per loop", ["observable", "plain table", "ratio"]))
    print(row("untracked, nothing depends on it", [duration(ob.untrackedRead), duration(ob.plainRead), ratio(ob.untrackedRead / ob.plainRead)]))
    print(row("untracked, a layout depends on it", [duration(ob.dependedRead), duration(ob.plainRead), ratio(ob.dependedRead / ob.plainRead)]))
    print(row("model.unread in layoutSubviews", [duration(ob.trackedRead), duration(ob.plainRead), ratio(ob.trackedRead / ob.plainRead)]))
    print(row("  (floor: plain Lua, __index = table)", [duration(ob.indexTableRead), duration(ob.plainRead), ratio(ob.indexTableRead / ob.plainRead)]))
    print(row("ui.update(), 1,000 × 10 properties compared", [duration(ob.updateWithCheck), duration(ob.updateWithoutCheck), ""]))
    report.check("ui.Observable reads return the value and tracked reads invalidate", ob.valuesRead && ob.error == nil, ob.error ?? "")

    // Host.
    let h = measureHost(startRuns: o.startRuns, workRuns: o.workRuns, fib: o.workload.fib, size: o.workload.size)
    print(header("host: \(o.startRuns) start-ups, \(o.workRuns) workloads", ["traitlab", "lua5.4", "ratio"]))
    print(row("start-up, -e ''", [duration(h.startTraitlab), duration(h.startLua), ratio(h.startTraitlab / h.startLua)]))
    print(row("pure-Lua workload", [duration(h.workTraitlab), duration(h.workLua), ratio(h.workTraitlab / h.workLua)]))
    print(row("pure-Lua workload, --timeout 1000", [duration(h.workTraitlabTimeout), duration(h.workLua),
                                                    ratio(h.workTraitlabTimeout / h.workLua)]))
    report.check("traitlab and lua5.4 run -e '' and the workload", h.error == nil && h.runsSucceeded, h.error ?? "")
    report.check("traitlab and lua5.4 compute the same workload result", h.error == nil && h.sameResults)

    // Spec files: traitlab test against busted under lua5.4 with the module.
    let sf = measureSpecFiles(files: o.specFiles, runs: o.specRuns)
    print(header("spec files: \(sf.files) small files, best of \(o.specRuns)", ["seconds", "files/s", "vs busted"]))
    let filesPerSecond = { (s: Double) in s.isNaN ? "n/a" : fixed(Double(sf.files) / s, 0) }
    print(row("traitlab test -j 1", [duration(sf.traitlabJ1), filesPerSecond(sf.traitlabJ1), ratio(sf.busted / sf.traitlabJ1)]))
    print(row("traitlab test -j 2", [duration(sf.traitlabJ2), filesPerSecond(sf.traitlabJ2), ratio(sf.busted / sf.traitlabJ2)]))
    print(row("lua5.4 busted --helper=traitlab.busted", [duration(sf.busted), filesPerSecond(sf.busted), ""]))
    report.check("traitlab test and busted pass every test of the spec files", sf.error == nil && sf.allPassed, sf.error ?? "")

    // Memory.
    let m = memoryInChild(views: o.memoryViews)
    var collectionsPerUpdate = "n/a"
    if let p = propagation.last { collectionsPerUpdate = "\(p.collectionsPerRootChange) per scene change, \(p.collectionsPerLeafChange) per leaf change" }
    print("\nmemory: \(short(o.memoryViews)) views, in a fresh process")
    print(row("peak resident bytes per view", [m.bytesPerView.map { fixed($0, 1) } ?? "n/a"]))
    print(row("collections allocated per update", [collectionsPerUpdate], width: 0))
    report.check("memory case runs", m.error == nil, m.error ?? "")

    // Trees built from Lua, beside the same trees built from Swift and a plain-Lua reference.
    var trees: [TreeFigures] = []
    for n in o.luaTreeSizes {
        for v in TreeVariant.allCases {
            let t = measureTree(views: n, variant: v, iterations: o.luaTreeIterations(for: n))
            trees.append(t)
            report.check("Lua-built tree, \(v.label), \(short(n)) views", t.error == nil, t.error ?? "")
            report.check("a root change reaches the deepest leaf of each tree (\(v.label), \(short(n)))", t.reachedLeaf)
            if v != .plain {
                report.check("\(v == .layout ? "layouts" : "handlers") run once per view (\(v.label), \(short(n)))",
                             t.callbacksPerChange == n && t.plainCallbacksPerChange == n,
                             "Lua-built \(t.callbacksPerChange), plain Lua \(t.plainCallbacksPerChange) of \(n)")
            }
        }
    }
    let luaTop = o.luaTreeSizes.last!, luaLow = o.luaTreeSizes.first!
    func tree(_ n: Int, _ v: TreeVariant) -> TreeFigures? { trees.first { $0.views == n && $0.variant == v } }
    print(header("root change per view, by who built the tree", ["Swift-built", "Lua-built", "plain Lua", "Lua/Swift", "Lua/plain"]))
    for t in trees {
        let per = { (s: Double) in sig3(s / Double(t.views) * 1e9) + " ns" }
        print(row("\(short(t.views)) views, \(t.variant.label)", [per(t.swiftBuilt), per(t.luaBuilt), per(t.plainLua),
                                                                ratio(t.luaBuilt / t.swiftBuilt), ratio(t.luaBuilt / t.plainLua)]))
    }
    for t in trees where t.variant == .plain {
        print(row("\(short(t.views)) views: build + first update", ["", sig3(t.luaBuild / Double(t.views) * 1e9) + " ns",
                                                                   sig3(t.plainBuild / Double(t.views) * 1e9) + " ns", "",
                                                                   ratio(t.luaBuild / t.plainBuild)]))
    }
    let objects = measureLuaObjects(count: o.luaObjects, freshViews: o.freshViews, repeats: o.luaRepeats)
    print(header("Lua objects", ["TraitLab", "plain Lua", "ratio"]))
    print(row("traits.collection { 3 traits }", [duration(objects.collection), duration(objects.plainCollection),
                                                 ratio(objects.collection / objects.plainCollection)]))
    print(row("tc:modifyingTraits(f)", [duration(objects.modifying), duration(objects.plainModifying),
                                        ratio(objects.modifying / objects.plainModifying)]))
    print(row("first read of a fresh collection", [duration(objects.freshRead), duration(objects.plainRead),
                                                    ratio(objects.freshRead / objects.plainRead)]))
    report.check("Lua object loops run", objects.error == nil, objects.error ?? "")

    // Floors: the public Lua C API alone, in a lua_State of its own.
    let floors = measureFloors(calls: o.floorCalls, freshViews: o.freshViews, rounds: o.luaRepeats + 2)
    let swiftHandlerView = tree(luaTop, .registration).map { $0.swiftBuilt / Double($0.views) }
    print(header("floors: the Lua C API alone, no TraitLab", ["floor", "compared", "ratio"]))
    print(row("protected call of the handler from C", [duration(floors.protectedCall),
                                                       swiftHandlerView.map(duration) ?? "n/a",
                                                       swiftHandlerView.map { ratio(floors.protectedCall / $0) } ?? "n/a"]))
    print("    (compared: the Swift-built registration case's root change per view at \(short(luaTop)))")
    print(row("new object + two C __index, first read", [duration(floors.freshObject), duration(floors.freshTable),
                                                         ratio(floors.freshObject / floors.freshTable)]))
    print("    (compared: a read of a table made just before; the fresh-read target's limit is 2×)")
    report.check("floor loops run", floors.error == nil, floors.error ?? "")

    let lm = luaMemoryInChild(views: o.luaMemoryViews, registration: false)
    let lmr = luaMemoryInChild(views: o.luaMemoryViews, registration: true)
    print(header("memory: \(short(o.luaMemoryViews)) views built from Lua", ["peak RSS", "Lua heap", "Swift+rest"]))
    for (label, m) in [("plain views", lm), ("one registration each", lmr)] {
        print(row("\(label), bytes per view", [m.total.map { fixed($0, 0) } ?? "n/a", m.lua.map { fixed($0, 0) } ?? "n/a",
                                                 (m.total.flatMap { t in m.lua.map { t - $0 } }).map { fixed($0, 0) } ?? "n/a"]))
        report.check("Lua memory case runs (\(label))", m.error == nil, m.error ?? "")
    }
    var prompts: [Double] = []
    if let traitlab = siblingTraitlab() {
        for _ in 0..<o.promptRuns { if let p = timeToFirstPrompt(traitlab) { prompts.append(p) } }
    }
    print(row("REPL: time to the first prompt (pty)", [prompts.isEmpty ? "n/a" : duration(best(prompts))]))

    // Targets, judged at the sizes the issue names (the largest sizes in quick mode).
    let mid = propagation.count >= 2 ? propagation[propagation.count - 2] : propagation.last
    let top = propagation.count >= 2 ? propagation.last : nil
    let at = mid.map { " at \(short($0.views))" } ?? ""
    report.target("root change per view\(at)", mid.map { $0.rootChange / Double($0.views) * 1e9 }, limit: 200) { sig3($0) + " ns" }
    if let mid, let top {
        let views = Double(top.views) / Double(mid.views)
        report.target("\(short(top.views)) vs \(short(mid.views)) views: \(fixed(views, 0))× the views, time at most",
                      top.rootChange / mid.rootChange, limit: views * 1.1) { ratio($0) }
    }
    report.target("leaf change vs root change\(at)", mid.map { $0.leafChange / $0.rootChange * 100 }, limit: 1) { fixed($0, 3) + "%" }
    report.target("a change nobody registered for calls no handler", dispatch.map { Double($0.otherTraitHandlers) },
                  limit: 0) { "\(Int($0)) calls" }
    report.target("collection.someTrait vs a table field read", b.collectionRead / b.plainRead, limit: 4) { ratio($0) }
    report.target("view.traitCollection.someTrait vs a table field read", b.viewRead / b.nestedPlainRead, limit: 8) { ratio($0) }
    report.target("untracked read of a ui.Observable property nothing depends on vs a table field read", ob.error == nil ? ob.untrackedRead / ob.plainRead : nil, limit: 2) { ratio($0) }
    report.target("untracked read of a ui.Observable property a layout depends on vs a table field read", ob.error == nil ? ob.dependedRead / ob.plainRead : nil, limit: 2) { ratio($0) }
    report.target("catalogue colour resolved vs a trait read (Lua, tc[color])", rs.error == nil ? rs.resolveIndex / rs.traitRead : nil,
                  limit: 2) { ratio($0) }
    report.target("catalogue colour resolved vs a trait read (Swift)", rs.error == nil ? rs.engineResolve / rs.engineTraitRead : nil,
                  limit: 2) { ratio($0) }
    report.target("loading a \(rs.sets)-set catalogue", rs.error == nil ? rs.load * 1000 : nil, limit: 50) { sig3($0) + " ms" }
    report.target("start-up vs lua5.4", h.startTraitlab / h.startLua, limit: 2) { ratio($0) }
    report.target("traitlab test -j 1, time vs busted (files/s at least busted's)", sf.error == nil ? sf.traitlabJ1 / sf.busted : nil, limit: 1) { ratio($0) }
    report.target("traitlab test -j 2, time vs busted", sf.error == nil ? sf.traitlabJ2 / sf.busted : nil, limit: 1) { ratio($0) }
    report.target("pure-Lua work vs lua5.4", h.workTraitlab / h.workLua, limit: 1.05) { ratio($0) }
    report.target("pure-Lua work with --timeout vs lua5.4", h.workTraitlabTimeout / h.workLua, limit: 1.05) { ratio($0) }
    report.target("peak resident bytes per view at \(short(o.memoryViews))", m.bytesPerView, limit: 300) { fixed($0, 0) + " B" }
    // Trees and objects built from Lua.
    let limits: [TreeVariant: Double] = [.plain: 1.25, .registration: 3, .layout: 3]
    for v in TreeVariant.allCases {
        report.target("Lua-built vs Swift-built, \(v.label), \(short(luaTop))", tree(luaTop, v).map { $0.luaBuilt / $0.swiftBuilt },
                      limit: limits[v]!) { ratio($0) }
    }
    for v in TreeVariant.allCases {
        report.target("Lua-built vs plain Lua, \(v.label), \(short(luaTop))", tree(luaTop, v).map { $0.luaBuilt / $0.plainLua },
                      limit: v == .layout ? 1 : 1.0 / 3) { ratio($0) }
    }
    if let a = tree(luaLow, .plain), let b = tree(luaTop, .plain) {
        let views = Double(luaTop) / Double(luaLow)
        report.target("Lua-built \(short(luaTop)) vs \(short(luaLow)) views (\(fixed(views, 0))× the views)", b.luaBuilt / a.luaBuilt,
                      limit: views * 1.1) { ratio($0) }
    }
    report.target("build + first update, \(short(luaTop)) views, vs plain tables", tree(luaTop, .plain).map { $0.luaBuild / $0.plainBuild },
                  limit: 3) { ratio($0) }
    report.target("traits.collection {…} vs validated plain copy", objects.collection / objects.plainCollection, limit: 2) { ratio($0) }
    report.target("modifyingTraits vs validated plain copy", objects.modifying / objects.plainModifying, limit: 2) { ratio($0) }
    report.target("first read of a fresh collection vs a table read", objects.freshRead / objects.plainRead, limit: 2) { ratio($0) }
    report.target("peak bytes per view, \(short(o.luaMemoryViews)) built from Lua", lm.total, limit: 300) { fixed($0, 0) + " B" }
    report.target("same, one registration each", lmr.total, limit: 400) { fixed($0, 0) + " B" }
    print("\ntargets\(o.quick && o.judgeTargets ? " (quick mode: judged at small sizes; the issue's sizes need the full mode)" : "")")
    for line in report.targetLines { print(line) }
    print("  instructions per view (limit 400): scripts/bench-callgrind.sh")
    if o.judgeTargets { print("  \(report.met) met, \(report.missed) missed") }

    print("\nchecks")
    for line in report.checkLines { print(line) }
    print("\(report.passed) passed, \(report.failed) failed")
    return report.failed == 0 ? 0 : 1
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
setvbuf(stdout, nil, _IOLBF, 0)
if options.printWorkload {
    print(workloadScript(fib: options.workload.fib, size: options.workload.size))
    exit(0)
}
let status = options.singleCase.map { runCase($0, options) } ?? runAll(options)
exit(status)

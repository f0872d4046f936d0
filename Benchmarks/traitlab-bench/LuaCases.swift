import TraitEngine
import TraitLabLua
import CBenchFloors

// The Lua cases: trait reads through the binding against plain table reads in
// the same loop, and the `traitlab` process against `lua5.4`.

// MARK: - Lua bridge

struct BridgeFigures {
    let reads: Int
    /// Seconds per read (best of the runs), each pair timed in the same loop shape.
    var collectionRead = 0.0
    var plainRead = 0.0
    var viewRead = 0.0
    var nestedPlainRead = 0.0
    /// Check: the reads returned the trait's value.
    var valuesRead = false
    var error: String?
}

/// Reads `someTrait` from a collection and from `view.traitCollection`
/// `reads` times in a loop, against the same loop over plain tables holding
/// the same value. The loops run as chunks through a `LuaHost`, timed from
/// Swift around each chunk (loading one costs microseconds; a loop, milliseconds).
func measureLuaBridge(reads: Int, repeats: Int) -> BridgeFigures {
    var f = BridgeFigures(reads: reads)
    let host: LuaHost
    do { host = try LuaHost() } catch { f.error = "cannot create a Lua host: \(error)"; return f }
    defer { host.close() }
    let setup = """
        local SomeTrait = traits.define { name = "SomeTrait", default = "standard" }
        local scene = ui.WindowScene {}
        local window = ui.Window { windowScene = scene }
        window.rootViewController = ui.ViewController {}
        local view = ui.View {}
        window.rootViewController.view:addSubview(view)
        scene.traitOverrides.someTrait = "pastel"
        ui.update()
        local plain = { someTrait = "pastel" }
        bench = { collection = view.traitCollection, view = view, plain = plain, nested = { traitCollection = plain } }
        assert(bench.collection.someTrait == "pastel" and bench.collection[SomeTrait] == "pastel")
        assert(view.traitCollection.someTrait == "pastel")
        """
    if let e = host.run(setup, name: "=bench setup") { f.error = e; return f }
    f.valuesRead = true

    // One loop shape for both sides of each comparison; only the object differs.
    func loop(_ object: String, _ access: String) -> String {
        "local o = bench.\(object) for i = 1, \(reads) do local v = o\(access) end"
    }
    let cases = [
        (loop("collection", ".someTrait"), loop("plain", ".someTrait")),
        (loop("view", ".traitCollection.someTrait"), loop("nested", ".traitCollection.someTrait")),
    ]
    var results: [(Double, Double)] = []
    for (bridged, plain) in cases {
        var bridgedSamples: [Double] = [], plainSamples: [Double] = []
        for _ in 0..<repeats {
            var failure: String?
            plainSamples.append(seconds { failure = host.run(plain, name: "=plain loop") ?? failure })
            bridgedSamples.append(seconds { failure = host.run(bridged, name: "=bridge loop") ?? failure })
            if let failure { f.error = failure; return f }
        }
        results.append((best(bridgedSamples) / Double(reads), best(plainSamples) / Double(reads)))
    }
    (f.collectionRead, f.plainRead) = results[0]
    (f.viewRead, f.nestedPlainRead) = results[1]
    return f
}

// MARK: - Host processes

struct HostFigures {
    var traitlab: String?
    /// Wall seconds of `-e ''` (best of the runs).
    var startTraitlab = 0.0
    var startLua = 0.0
    /// CPU seconds of the workload, timed inside the script (best of the runs).
    var workLua = 0.0
    var workTraitlab = 0.0
    var workTraitlabTimeout = 0.0
    /// Checks: every run exited 0 and the three interpreters computed the same result.
    var runsSucceeded = true
    var sameResults = true
    var error: String?
}

/// A pure-Lua CPU workload: calls, tables, strings and garbage. It prints
/// `work SECONDS CHECKSUM`, timing itself with os.clock so start-up is left out.
func workloadScript(fib: Int, size: Int) -> String {
    """
    local t0 = os.clock()
    local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
    local acc = fib(\(fib))
    local points = {}
    for i = 1, \(size) do points[i] = { x = i, y = i * 2 } end
    local sum = 0
    for _, p in ipairs(points) do sum = sum + p.x * p.y end
    local parts = {}
    for i = 1, \(size) // 10 do parts[#parts + 1] = string.format("%d:%d", i, i % 7) end
    local joined = table.concat(parts, ",")
    local threes = 0
    for _ in joined:gmatch("%d+:3") do threes = threes + 1 end
    print(string.format("work %.6f %d", os.clock() - t0, (acc + sum + #joined + threes) % 1000000007))
    """
}

/// Start-up and the workload under `traitlab` (with and without `--timeout`)
/// against `lua5.4`, runs interleaved so a busy moment hits all of them.
func measureHost(startRuns: Int, workRuns: Int, fib: Int, size: Int) -> HostFigures {
    var f = HostFigures()
    guard let traitlab = siblingTraitlab() else {
        f.error = "no traitlab next to \(executablePath()) (build the traitlab product)"
        return f
    }
    f.traitlab = traitlab
    guard onPath("lua5.4") else { f.error = "lua5.4 is not on PATH (scripts/setup.sh installs it)"; return f }

    var startT: [Double] = [], startL: [Double] = []
    for _ in 0..<startRuns {
        guard let l = runProcess(["lua5.4", "-e", ""]), let t = runProcess([traitlab, "-e", ""]) else {
            f.error = "cannot start a process"
            return f
        }
        if !l.succeeded || !t.succeeded {
            f.runsSucceeded = false
            f.error = "-e '' failed: " + (t.succeeded ? l.output : t.output)
        }
        startL.append(l.seconds)
        startT.append(t.seconds)
    }
    f.startLua = best(startL)
    f.startTraitlab = best(startT)

    let script = workloadScript(fib: fib, size: size)
    let commands = [["lua5.4", "-e", script], [traitlab, "-e", script], [traitlab, "--timeout", "1000", "-e", script]]
    var work: [[Double]] = [[], [], []]
    var checksums: Set<String> = []
    for _ in 0..<workRuns {
        for (k, argv) in commands.enumerated() {
            guard let r = runProcess(argv) else { f.error = "cannot start \(argv[0])"; return f }
            let words = r.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard r.succeeded, words.count >= 3, words[0] == "work", let s = Double(words[1]) else {
                f.runsSucceeded = false
                f.error = "\(argv[0]) \(argv[1]) failed: \(r.output)"
                continue
            }
            work[k].append(s)
            checksums.insert(String(words[2]))
        }
    }
    f.sameResults = checksums.count == 1
    f.workLua = best(work[0])
    f.workTraitlab = best(work[1])
    f.workTraitlabTimeout = best(work[2])
    return f
}

// MARK: - Floors

/// What the public Lua C API costs at least (Benchmarks/floors): a protected
/// call of the registration handler from C, and the first read of an object
/// made at the read (a view's C `__index` making a userdata with a C `__index`
/// and a `__gc`) against a read of a table made before.
struct FloorFigures {
    var protectedCall = Double.nan
    var freshObject = Double.nan, freshTable = Double.nan
    var error: String?
}

func measureFloors(calls: Int, freshViews: Int, rounds: Int) -> FloorFigures {
    var f = FloorFigures()
    let call = tlf_protected_call(Int32(calls), Int32(rounds))
    if call >= 0 { f.protectedCall = call } else { f.error = "the protected-call loop failed" }
    var out = [Double](repeating: .nan, count: 2)
    if tlf_fresh_object_read(Int32(freshViews), Int32(rounds), &out) == 0 {
        f.freshObject = out[0]
        f.freshTable = out[1]
    } else {
        f.error = "the fresh-object loop failed"
    }
    return f
}

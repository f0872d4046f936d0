#if canImport(Glibc)
import Glibc
#endif
import TraitEngine
import TraitLabLua

// What traits resolve to: a catalogue colour resolved for a collection from
// Lua, against reading a trait from that collection in the same loop; and
// loading a catalogue of 500 sets, written at run time into a temporary folder.

struct ResourceFigures {
    let reads: Int
    let sets: Int
    /// Seconds per call (best of the runs), each pair timed in the same loop shape
    /// over the same two collections (light and dark, taken in turn).
    var resolve = 0.0
    var traitRead = 0.0
    /// The same written from the collection's side, `tc[color]` (light/dark).
    var resolveIndex = 0.0
    /// The same with one collection throughout (the colour's last answer is kept).
    var resolveSame = 0.0
    var traitReadSame = 0.0
    /// The floor of any `object:method(tc)` in Lua: a plain Lua method that
    /// returns its argument, found through `__index = table`, light/dark.
    var methodFloor = 0.0
    /// The same pair in Swift, with no Lua: `NamedColor.resolvedColor(with:)`
    /// against `TraitCollection.subscript`, over the same two collections.
    var engineResolve = 0.0
    var engineTraitRead = 0.0
    /// Seconds to load the catalogue with the engine alone (`AssetCatalog(path:files:)`).
    var engineLoad = 0.0
    /// Seconds to load the catalogue (`ui.AssetCatalog(path)`, best of the runs).
    var load = 0.0
    /// Check: the catalogue has every set, and the colour resolves as written.
    var loaded = false
    var error: String?
}

/// Writes a catalogue of `sets` sets into a fresh folder under /tmp, as Xcode
/// writes one: three namespace folders; colour sets with any, dark and
/// high-contrast variants; image sets with 1x, 2x and 3x files and a dark 3x.
/// Returns the catalogue's path.
func writeBenchCatalog(sets: Int) throws -> String {
    var template = Array("/tmp/traitlab-bench-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { throw BenchError("cannot make a temporary folder") }
    let root = String(cString: dir) + "/Bench.xcassets"
    func folder(_ p: String) throws {
        guard mkdir(p, 0o755) == 0 else { throw BenchError("cannot make \(p)") }
    }
    func file(_ p: String, _ text: String) throws {
        guard let f = fopen(p, "wb") else { throw BenchError("cannot write \(p)") }
        defer { fclose(f) }
        guard fputs(text, f) >= 0 else { throw BenchError("cannot write \(p)") }
    }
    let info = #""info" : { "author" : "xcode", "version" : 1 }"#
    func color(_ appearances: String, _ r: Int, _ g: Int, _ b: Int) -> String {
        """
            {
              \(appearances)"color" : {
                "color-space" : "srgb",
                "components" : { "alpha" : "1.000", "blue" : "0x\(hex(b))", "green" : "0x\(hex(g))", "red" : "0x\(hex(r))" }
              },
              "idiom" : "universal"
            }
        """
    }
    func hex(_ n: Int) -> String { let s = String(n % 256, radix: 16, uppercase: true); return s.count < 2 ? "0" + s : s }
    let dark = #""appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ], "#
    let high = #""appearances" : [ { "appearance" : "contrast", "value" : "high" } ], "#
    try folder(root)
    try file(root + "/Contents.json", "{\n  \(info)\n}\n")
    let namespaces = ["Brand", "Icons", "Screens"]
    for ns in namespaces {
        try folder(root + "/" + ns)
        try file(root + "/" + ns + "/Contents.json", "{\n  \(info),\n  \"properties\" : { \"provides-namespace\" : true }\n}\n")
    }
    let colors = sets * 3 / 5
    for i in 0..<sets {
        let ns = namespaces[i % namespaces.count]
        if i < colors {
            let set = "\(root)/\(ns)/Color\(i).colorset"
            try folder(set)
            let entries = [color("", i, i * 3, i * 7), color(dark, i * 5, i * 11, i * 13), color(high, i * 17, i, i * 2)]
            try file(set + "/Contents.json", "{\n  \"colors\" : [\n\(entries.joined(separator: ",\n"))\n  ],\n  \(info)\n}\n")
        } else {
            let set = "\(root)/\(ns)/Image\(i).imageset"
            try folder(set)
            var images: [String] = []
            for (scale, extra) in [("1x", ""), ("2x", ""), ("3x", ""), ("3x", dark)] {
                let name = "image\(i)\(extra.isEmpty ? "" : "-dark")@\(scale).png"
                try file(set + "/" + name, "")
                images.append("    { \(extra)\"filename\" : \"\(name)\", \"idiom\" : \"universal\", \"scale\" : \"\(scale)\" }")
            }
            try file(set + "/Contents.json", "{\n  \"images\" : [\n\(images.joined(separator: ",\n"))\n  ],\n  \(info)\n}\n")
        }
    }
    return root
}

/// Removes the folder `writeBenchCatalog` made (the catalogue's parent).
func removeBenchCatalog(_ root: String) {
    let parent = String(root.dropLast("/Bench.xcassets".count))
    guard parent.hasPrefix("/tmp/traitlab-bench-") else { return }
    _ = runProcess(["/bin/rm", "-rf", parent])
}

/// The resource figures: `reads` resolutions per loop, a catalogue of `sets` sets.
func measureResources(reads: Int, sets: Int, repeats: Int, loads: Int) -> ResourceFigures {
    var f = ResourceFigures(reads: reads, sets: sets)
    let root: String
    do { root = try writeBenchCatalog(sets: sets) } catch { f.error = "\(error)"; return f }
    defer { removeBenchCatalog(root) }
    do { try measureEngineResources(root: root, reads: reads, repeats: repeats, loads: loads, into: &f) } catch {
        f.error = "engine: \(error)"
        return f
    }
    let host: LuaHost
    do { host = try LuaHost() } catch { f.error = "cannot create a Lua host: \(error)"; return f }
    defer { host.close() }

    // Loading: the whole of ui.AssetCatalog(path), a fresh catalogue each time.
    var loadSamples: [Double] = []
    for _ in 0..<loads {
        var failure: String?
        loadSamples.append(seconds { failure = host.run("bench_catalog = ui.AssetCatalog('\(root)')", name: "=load") })
        if let failure { f.error = failure; return f }
    }
    f.load = best(loadSamples)

    let setup = """
        local cat = bench_catalog
        assert(#cat.colors + #cat.images == \(sets), "sets: " .. #cat.colors + #cat.images)
        local color = assert(ui.Color.named("Brand/Color0", cat))
        local light = traits.collection { userInterfaceStyle = "light" }
        local dark = traits.collection { userInterfaceStyle = "dark" }
        assert(tostring(color:resolvedColor(light)) == "#000000")
        assert(tostring(color:resolvedColor(dark)) == "#000000")
        local c1 = assert(ui.Color.named("Icons/Color1", cat))
        assert(tostring(c1:resolvedColor(light)) == "#010307" and tostring(c1:resolvedColor(dark)) == "#050B0D")
        assert(tostring(light[c1]) == "#010307" and tostring(dark[c1]) == "#050B0D")
        local floor = setmetatable({}, { __index = { resolvedColor = function(_, tc) return tc end } })
        bench = { color = c1, both = { light, dark }, light = light, floor = floor }
        """
    if let e = host.run(setup, name: "=resources setup") { f.error = e; return f }
    f.loaded = true

    // One loop shape for both sides of each comparison; only the call differs.
    func loop(_ body: String, alternate: Bool, object: String = "bench.color") -> String {
        let pick = alternate ? "local tc = both[i % 2 + 1]" : "local tc = one"
        return "local color, both, one = \(object), bench.both, bench.light for i = 1, \(reads) do \(pick) local v = \(body) end"
    }

    let cases = [
        (loop("color:resolvedColor(tc)", alternate: true), loop("tc.userInterfaceStyle", alternate: true)),
        (loop("color:resolvedColor(tc)", alternate: false), loop("tc.userInterfaceStyle", alternate: false)),
        (loop("color:resolvedColor(tc)", alternate: true, object: "bench.floor"),
         loop("tc.userInterfaceStyle", alternate: true)),
        (loop("tc[color]", alternate: true), loop("tc.userInterfaceStyle", alternate: true)),
    ]
    var results: [(Double, Double)] = []
    for (resolve, read) in cases {
        var resolveSamples: [Double] = [], readSamples: [Double] = []
        for _ in 0..<repeats {
            var failure: String?
            readSamples.append(seconds { failure = host.run(read, name: "=trait read loop") ?? failure })
            resolveSamples.append(seconds { failure = host.run(resolve, name: "=resolve loop") ?? failure })
            if let failure { f.error = failure; return f }
        }
        results.append((best(resolveSamples) / Double(reads), best(readSamples) / Double(reads)))
    }
    (f.resolve, f.traitRead) = results[0]
    (f.resolveSame, f.traitReadSame) = results[1]
    f.methodFloor = results[2].0 / results[2].1 * f.traitRead   // (scaled to the first pair's read)
    f.resolveIndex = results[3].0 / results[3].1 * f.traitRead  // (the same)
    return f
}

/// The engine's side: the catalogue read through plain POSIX files, one of
/// its colours resolved for two collections in turn, and a trait read from them.
func measureEngineResources(root: String, reads: Int, repeats: Int, loads: Int, into f: inout ResourceFigures) throws {
    var catalog: AssetCatalog?
    var loadSamples: [Double] = []
    for _ in 0..<loads {
        loadSamples.append(try seconds { catalog = try AssetCatalog(path: root, files: BenchCatalogFiles(root: root)) })
    }
    f.engineLoad = best(loadSamples)
    guard let catalog, let color = catalog.color(named: "Icons/Color1") else { throw BenchError("no colour Icons/Color1") }
    let style = SystemTraits.userInterfaceStyle
    let both = [TraitCollection { $0[style] = .string("light") }, TraitCollection { $0[style] = .string("dark") }]
    guard color.resolvedColor(with: both[0]).hexString == "#010307", color.resolvedColor(with: both[1]).hexString == "#050B0D" else {
        throw BenchError("Icons/Color1 resolves to \(color.resolvedColor(with: both[0]).hexString), \(color.resolvedColor(with: both[1]).hexString)")
    }
    var resolveSamples: [Double] = [], readSamples: [Double] = []
    var sink = 0
    for _ in 0..<repeats {
        readSamples.append(seconds {
            for i in 0..<reads { if case .string(let s) = both[i & 1][style] { sink &+= s.utf8.count } }
        })
        resolveSamples.append(seconds {
            for i in 0..<reads { sink &+= Int(color.resolvedColor(with: both[i & 1]).red * 255) }
        })
    }
    if sink == 42 { print("") }   // (keeps the loops' results alive)
    f.engineResolve = best(resolveSamples) / Double(reads)
    f.engineTraitRead = best(readSamples) / Double(reads)
}

/// A catalogue's files through POSIX calls, as the command line reads them
/// (without its symbolic-link and budget checks).
struct BenchCatalogFiles: AssetCatalogFiles {
    let root: String

    func entries(of path: String) throws -> [(name: String, isFolder: Bool)] {
        let full = path.isEmpty ? root : root + "/" + path
        guard let d = opendir(full) else { throw BenchError("cannot list \(full)") }
        defer { closedir(d) }
        var out: [(name: String, isFolder: Bool)] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name == "." || name == ".." { continue }
            out.append((name, e.pointee.d_type == UInt8(DT_DIR)))
        }
        return out.sorted { $0.name < $1.name }
    }

    func contents(of path: String, budget: MemoryBudget?) throws -> [UInt8]? {
        guard let f = fopen(root + "/" + path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    func fileExists(_ path: String) throws -> Bool { access(root + "/" + path, F_OK) == 0 }
}

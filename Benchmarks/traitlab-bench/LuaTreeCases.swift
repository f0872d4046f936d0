#if canImport(Glibc)
import Glibc
#endif
import TraitEngine
import TraitLabLua

// Trees as users build them (docs/performance.md, "Trees built from Lua"): a Lua script creates `ui.View {}`
// objects and `addSubview`s them, exactly like an app would; beside them the
// same trees built from Swift, and a plain-Lua reference that does the same
// job with tables (parent pointers, overrides, collections shared while a
// node has no overrides, per-trait change detection, handlers). Every figure
// of a row comes from the same run.

/// The three shapes of tree the issue compares.
enum TreeVariant: String, CaseIterable {
    /// Plain views.
    case plain
    /// Every view registered for the changed trait (a handler that counts).
    case registration
    /// Every view of a subclass whose layoutSubviews reads the changed trait.
    case layout

    var label: String {
        switch self {
        case .plain: return "plain views"
        case .registration: return "one registration each"
        case .layout: return "layoutSubviews reads one trait"
        }
    }
}

struct TreeFigures {
    let views: Int
    let variant: TreeVariant
    /// Seconds per root change (best of the runs).
    var swiftBuilt = Double.nan
    var luaBuilt = Double.nan
    var plainLua = Double.nan
    /// Seconds to build the tree and run its first update.
    var luaBuild = Double.nan
    var plainBuild = Double.nan
    /// Checks: the change reached the deepest leaf; handlers / layouts ran once per view.
    var reachedLeaf = true
    var callbacksPerChange = -1
    var plainCallbacksPerChange = -1
    var error: String?
}

// MARK: - Swift-built

/// A Swift view whose layoutSubviews reads one trait (the Swift counterpart of the Lua subclass).
final class ReadingView: View {
    nonisolated(unsafe) static var theme: TraitDefinition? = nil
    nonisolated(unsafe) static var reads = 0
    override func layoutSubviews() throws {
        if let t = ReadingView.theme, case .string = traitCollection[t] { ReadingView.reads += 1 }
    }
}

/// A Swift-built tree of one variant, ready for root changes.
final class SwiftTree {
    /// Counts the handlers' calls (a box of its own: the handlers must not
    /// capture the tree that holds them).
    final class Counter { var calls = 0 }
    let tree: BenchTree
    let variant: TreeVariant
    let views: Int
    /// The deepest view, which every root change must reach.
    let leaf: View
    let counter = Counter()

    init(views: Int, variant: TreeVariant) throws {
        self.variant = variant
        self.views = views
        tree = try BenchTree(views: variant == .layout ? 0 : views)
        switch variant {
        case .layout:
            // BenchTree's shape, with views of the reading class.
            ReadingView.theme = tree.theme
            let rootView = try tree.root.loadViewIfNeeded()
            var all: [View] = []
            all.reserveCapacity(views)
            var parentIndex = -1, children = 0
            while all.count < views {
                let parent = parentIndex < 0 ? rootView : all[parentIndex]
                let v = ReadingView(world: tree.world)
                try parent.addSubview(v)
                all.append(v)
                children += 1
                if children == 10 { parentIndex += 1; children = 0 }
            }
            leaf = all[all.count - 1]
            try tree.world.update()
        case .registration:
            let counter = self.counter
            for v in tree.views { try v.registerForTraitChanges([tree.theme]) { _, _ in counter.calls += 1 } }
            leaf = tree.leaf
        case .plain:
            leaf = tree.leaf
        }
    }

    /// One root change: its seconds, the callbacks it made (views, for plain
    /// views) and whether it reached the deepest view.
    func change() throws -> (seconds: Double, callbacks: Int, reached: Bool) {
        let value = tree.nextTheme()
        try tree.scene.setTraitOverride(tree.theme, value)
        counter.calls = 0
        ReadingView.reads = 0
        let s = try seconds { try tree.world.update() }
        let callbacks: Int
        switch variant {
        case .plain: callbacks = views
        case .registration: callbacks = counter.calls
        case .layout: callbacks = ReadingView.reads
        }
        return (s, callbacks, leaf.traitCollection[tree.theme] == value)
    }
}

// MARK: - Lua-built and plain Lua

/// Defines the traits and the plain-Lua reference. `bench.*` is the interface
/// Swift drives; everything is timed from Swift around one call.
let luaTreeLibrary = """
    local Theme = traits.define { name = "BenchTheme", default = "standard" }
    local Density = traits.define { name = "BenchDensity", default = 0 }
    local Style = traits.define { name = "BenchStyle", default = "plain" }
    bench = { Theme = Theme, values = { "pastel", "bold" }, flips = 0 }

    function bench.next()
      bench.flips = bench.flips + 1
      return bench.values[bench.flips % 2 + 1]
    end

    -- Trees built from Lua, as a user does it.
    local reads, calls = 0, 0
    local LayoutView = ui.View:subclass("BenchLayoutView", {
      layoutSubviews = function(self) if self.traitCollection.benchTheme then reads = reads + 1 end end,
    })
    local function handler(self, previous) calls = calls + 1 end

    function bench.buildLua(n, variant)
      local scene = ui.WindowScene {}
      local window = ui.Window { windowScene = scene }
      local root = ui.ViewController {}
      window.rootViewController = root
      local rootView = root.view
      local Class = variant == "layout" and LayoutView or ui.View
      local views = {}
      local parentIndex, children = 0, 0
      for i = 1, n do
        local v = Class {}
        ;(parentIndex == 0 and rootView or views[parentIndex]):addSubview(v)
        views[i] = v
        if variant == "registration" then v:registerForTraitChanges({ Theme }, handler) end
        children = children + 1
        if children == 10 then parentIndex = parentIndex + 1; children = 0 end
      end
      ui.update()
      bench.lua = { scene = scene, window = window, views = views }
    end

    function bench.changeLua()
      local value = bench.next()
      bench.lua.scene.traitOverrides.benchTheme = value
      reads, calls = 0, 0
      ui.update()
      bench.value = value
    end

    function bench.luaResult()
      local views = bench.lua.views
      return string.format("%s %d %d", tostring(views[#views].traitCollection.benchTheme == bench.value), reads, calls)
    end

    function bench.dropLua()
      if bench.lua then bench.lua.window.windowScene = nil end
      bench.lua = nil
      collectgarbage() collectgarbage()
    end

    -- The plain-Lua reference: the same propagation with tables. A node with
    -- no overrides shares its parent's collection; a node with overrides
    -- memoises its collection per parent collection; nodes with handlers or
    -- a layout function compare the traits they listen to.
    local plainMeta = { __index = function(_, k) error("unknown trait " .. tostring(k)) end }
    local function derive(parent, overrides)
      local c = {}
      for k, v in pairs(parent) do c[k] = v end
      for k, v in pairs(overrides) do c[k] = v end
      return setmetatable(c, plainMeta)
    end
    local pcalls, preads = 0, 0
    local function plainHandler(node, previous) pcalls = pcalls + 1 end
    local function plainLayout(node) if node.tc.benchTheme then preads = preads + 1 end end

    -- Per node whose collection changed: the list of changed traits (what
    -- TraitLab computes per environment), the handlers registered for them,
    -- and traitCollectionDidChange when the node defines one.
    local traitNames = { "benchTheme", "benchDensity", "benchStyle" }
    local function update(node, parentTC)
      local new = parentTC
      local overrides = node.overrides
      if overrides then
        if node.memoParent == parentTC then new = node.tc
        else new = derive(parentTC, overrides); node.memoParent = parentTC end
      end
      local old = node.tc
      if new == old then return end
      node.tc = new
      local changed
      for i = 1, #traitNames do
        local k = traitNames[i]
        if old == nil or old[k] ~= new[k] then changed = changed or {}; changed[k] = true end
      end
      if not changed then return end
      local handlers = node.handlers
      if handlers then
        for trait, list in pairs(handlers) do
          if changed[trait] then
            for i = 1, #list do list[i](node, old) end
          end
        end
      end
      local layout = node.layout
      if layout and changed[node.layoutTrait] then layout(node) end
      local didChange = node.traitCollectionDidChange
      if didChange then didChange(node, old) end
      local children = node.children
      for i = 1, #children do update(children[i], new) end
    end

    function bench.buildPlain(n, variant)
      local screenTC = setmetatable({ benchTheme = "standard", benchDensity = 0, benchStyle = "plain" }, plainMeta)
      local scene = { children = {}, overrides = {} }
      local window = { parent = scene, children = {} }
      local rootView = { parent = window, children = {} }
      scene.children[1] = window
      window.children[1] = rootView
      local nodes = {}
      local parentIndex, children = 0, 0
      for i = 1, n do
        local parent = parentIndex == 0 and rootView or nodes[parentIndex]
        local node = { parent = parent, children = {} }
        parent.children[#parent.children + 1] = node
        nodes[i] = node
        if variant == "registration" then node.handlers = { benchTheme = { plainHandler } } end
        if variant == "layout" then node.layout = plainLayout; node.layoutTrait = "benchTheme" end
        children = children + 1
        if children == 10 then parentIndex = parentIndex + 1; children = 0 end
      end
      update(scene, screenTC)
      bench.plain = { scene = scene, screenTC = screenTC, nodes = nodes }
    end

    function bench.changePlain()
      local value = bench.next()
      local p = bench.plain
      p.scene.overrides.benchTheme = value
      p.scene.memoParent = nil   -- the overrides changed
      pcalls, preads = 0, 0
      update(p.scene, p.screenTC)
      bench.value = value
    end

    function bench.plainResult()
      local nodes = bench.plain.nodes
      return string.format("%s %d %d", tostring(nodes[#nodes].tc.benchTheme == bench.value), preads, pcalls)
    end

    function bench.dropPlain() bench.plain = nil collectgarbage() collectgarbage() end

    -- Objects: a collection from a table, a modified copy, and the plain
    -- copies that validate keys and values as traits.collection does.
    local known = { benchTheme = "string", benchDensity = "number", benchStyle = "string" }
    local function plainCollection(t)
      local c = {}
      for k, v in pairs(t) do
        local kind = known[k]
        if kind == nil then error("unknown trait " .. tostring(k)) end
        if type(v) ~= kind then error("bad value for " .. k) end
        c[k] = v
      end
      return setmetatable(c, plainMeta)
    end
    local function plainModifying(tc, f)
      local m = {}
      for k, v in pairs(tc) do m[k] = v end
      f(m)
      return plainCollection(m)
    end
    function bench.collections(n)
      local tc
      for i = 1, n do tc = traits.collection { benchTheme = "bold", benchDensity = 3, benchStyle = "fancy" } end
      assert(tc.benchDensity == 3)
    end
    function bench.plainCollections(n)
      local tc
      for i = 1, n do tc = plainCollection { benchTheme = "bold", benchDensity = 3, benchStyle = "fancy" } end
      assert(tc.benchDensity == 3)
    end
    local function setBold(m) m.benchTheme = "bold" end
    function bench.modifying(n)
      local base, tc = traits.collection { benchDensity = 3, benchStyle = "fancy" }
      for i = 1, n do tc = base:modifyingTraits(setBold) end
      assert(tc.benchTheme == "bold")
    end
    function bench.plainModifying(n)
      local base, tc = plainCollection { benchDensity = 3, benchStyle = "fancy", benchTheme = "standard" }
      for i = 1, n do tc = plainModifying(base, setBold) end
      assert(tc.benchTheme == "bold")
    end

    -- First reads of fresh collections: n views with an override each, so a
    -- change at the scene gives each its own new collection.
    function bench.buildFresh(n)
      local scene = ui.WindowScene {}
      local window = ui.Window { windowScene = scene }
      window.rootViewController = ui.ViewController {}
      local rootView = window.rootViewController.view
      local views, nodes = {}, {}
      for i = 1, n do
        local v = ui.View {}
        v.traitOverrides.benchDensity = i
        rootView:addSubview(v)
        views[i] = v
        nodes[i] = { tc = plainCollection { benchTheme = "standard", benchDensity = i, benchStyle = "plain" } }
      end
      ui.update()
      bench.fresh = { scene = scene, window = window, views = views, nodes = nodes }
    end
    function bench.freshChange()
      bench.value = bench.next()
      bench.fresh.scene.traitOverrides.benchTheme = bench.value
      ui.update()
      local nodes = bench.fresh.nodes
      for i = 1, #nodes do nodes[i].tc = derive(nodes[i].tc, { benchTheme = bench.value }) end
    end
    function bench.freshReads()
      local views, x = bench.fresh.views
      for i = 1, #views do x = views[i].traitCollection.benchTheme end
      assert(x == bench.fresh.scene.traitCollection.benchTheme)
    end
    function bench.plainReads()
      local nodes, x = bench.fresh.nodes
      for i = 1, #nodes do x = nodes[i].tc.benchTheme end
      assert(x ~= nil)
    end
    function bench.dropFresh() bench.fresh.window.windowScene = nil bench.fresh = nil collectgarbage() collectgarbage() end
    """

/// Runs `code`, returning its single result as a string (or throwing its error).
private func luaString(_ host: LuaHost, _ code: String) throws -> String {
    if let e = host.run("return " + code, name: "=bench", results: 1) { throw TraitError(e) }
    return host.popError()   // pops the result as a string
}

private func luaTimed(_ host: LuaHost, _ code: String) throws -> Double {
    var failure: String?
    let s = seconds { failure = host.run(code, name: "=bench") }
    if let failure { throw TraitError(failure) }
    return s
}

func makeBenchHost() throws -> LuaHost {
    let host = try LuaHost()
    if let e = host.run(luaTreeLibrary, name: "=bench library") { host.close(); throw TraitError(e) }
    return host
}

/// One row: the Swift-built tree, the Lua-built tree and the plain-Lua
/// reference. The three trees are built first, then changed in turn, one
/// tree after the other in each round, so that every ratio compares figures
/// measured moments apart (this machine's speed drifts by tens of percent
/// over seconds). Each timed change follows an untimed one of the same tree,
/// so that each is measured with its own tree in the caches, as when it is
/// measured alone (the other trees' changes would evict it). The plain-Lua
/// reference has a Lua state of its own, so neither Lua tree's objects add
/// to the other's garbage collection.
func measureTree(views: Int, variant: TreeVariant, iterations: Int) -> TreeFigures {
    var f = TreeFigures(views: views, variant: variant)
    do {
        let swift = try SwiftTree(views: views, variant: variant)
        let host = try makeBenchHost()
        defer { host.close() }
        let plainHost = try makeBenchHost()
        defer { plainHost.close() }
        f.luaBuild = try luaTimed(host, "bench.buildLua(\(views), '\(variant.rawValue)')")
        f.plainBuild = try luaTimed(plainHost, "bench.buildPlain(\(views), '\(variant.rawValue)')")
        func callbacks(_ r: [Substring]) -> Int { variant == .plain ? views : Int(r[variant == .layout ? 1 : 2]) ?? -1 }
        var swiftSamples: [Double] = [], luaSamples: [Double] = [], plainSamples: [Double] = []
        var swiftCallbacks = -1
        for _ in 0..<iterations {
            _ = try swift.change()
            let s = try swift.change()
            swiftSamples.append(s.seconds)
            swiftCallbacks = s.callbacks
            if !s.reached { f.reachedLeaf = false }

            _ = try luaTimed(host, "bench.changeLua()")
            luaSamples.append(try luaTimed(host, "bench.changeLua()"))
            let r = try luaString(host, "bench.luaResult()").split(separator: " ")
            if r.first != "true" { f.reachedLeaf = false }
            f.callbacksPerChange = callbacks(r)

            _ = try luaTimed(plainHost, "bench.changePlain()")
            plainSamples.append(try luaTimed(plainHost, "bench.changePlain()"))
            let p = try luaString(plainHost, "bench.plainResult()").split(separator: " ")
            if p.first != "true" { f.reachedLeaf = false }
            f.plainCallbacksPerChange = callbacks(p)
        }
        f.swiftBuilt = best(swiftSamples)
        f.luaBuilt = best(luaSamples)
        f.plainLua = best(plainSamples)
        _ = try luaTimed(host, "bench.dropLua()")
        _ = try luaTimed(plainHost, "bench.dropPlain()")
        if swiftCallbacks != f.callbacksPerChange { f.error = "Swift-built tree made \(swiftCallbacks) callbacks, Lua-built \(f.callbacksPerChange)" }
    } catch {
        f.error = "\(error)"
    }
    return f
}

struct ObjectFigures {
    /// Seconds per object / per read (best of the runs).
    var collection = Double.nan, plainCollection = Double.nan
    var modifying = Double.nan, plainModifying = Double.nan
    var freshRead = Double.nan, plainRead = Double.nan
    var error: String?
}

func measureLuaObjects(count: Int, freshViews: Int, repeats: Int) -> ObjectFigures {
    var f = ObjectFigures()
    do {
        let host = try makeBenchHost()
        defer { host.close() }
        func pair(_ a: String, _ b: String, _ n: Int) throws -> (Double, Double) {
            var sa: [Double] = [], sb: [Double] = []
            for _ in 0..<repeats {
                sb.append(try luaTimed(host, b))
                sa.append(try luaTimed(host, a))
            }
            return (best(sa) / Double(n), best(sb) / Double(n))
        }
        (f.collection, f.plainCollection) = try pair("bench.collections(\(count))", "bench.plainCollections(\(count))", count)
        (f.modifying, f.plainModifying) = try pair("bench.modifying(\(count))", "bench.plainModifying(\(count))", count)
        _ = try luaTimed(host, "bench.buildFresh(\(freshViews))")
        var sa: [Double] = [], sb: [Double] = []
        for _ in 0..<repeats {
            _ = try luaTimed(host, "bench.freshChange()")
            sa.append(try luaTimed(host, "bench.freshReads()"))   // first read of each fresh collection
            sb.append(try luaTimed(host, "bench.plainReads()"))   // first read of each new table
        }
        f.freshRead = best(sa) / Double(freshViews)
        f.plainRead = best(sb) / Double(freshViews)
        _ = try luaTimed(host, "bench.dropFresh()")
    } catch {
        f.error = "\(error)"
    }
    return f
}

// MARK: - Memory of a Lua-built tree

/// Peak resident bytes per view for `views` views built from Lua (in a fresh
/// process), and the part of them Lua allocated.
func measureLuaMemory(views: Int, registration: Bool) throws -> (total: Double, lua: Double) {
    let host = try makeBenchHost()
    _ = try luaTimed(host, "collectgarbage() collectgarbage()")
    resetPeakResident()
    let before = procStatusBytes("VmHWM") ?? 0
    let luaBefore = host.memoryInUse
    _ = try luaTimed(host, "bench.buildLua(\(views), '\(registration ? "registration" : "plain")') bench.changeLua()")
    let after = procStatusBytes("VmHWM") ?? 0
    let lua = host.memoryInUse - luaBefore
    return withExtendedLifetime(host) { (Double(after - before) / Double(views), Double(lua) / Double(views)) }
}

func luaMemoryInChild(views: Int, registration: Bool) -> (total: Double?, lua: Double?, error: String?) {
    let name = registration ? "lua-memory-registration" : "lua-memory"
    guard let r = runProcess([executablePath(), "--case", name, "--views", String(views)]) else {
        return (nil, nil, "cannot start \(executablePath())")
    }
    let words = r.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard r.succeeded, words.count >= 3, words[0] == "memory", let t = Double(words[1]), let l = Double(words[2]) else {
        return (nil, nil, "\(name) case failed: \(r.output)")
    }
    return (t, l, nil)
}

// MARK: - The REPL's first prompt

/// Wall seconds from spawning `traitlab` on a pseudo-terminal to its first
/// prompt ("> "), the way a user meets the REPL; nil when no pty is available.
func timeToFirstPrompt(_ traitlab: String) -> Double? {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard master >= 0 else { return nil }
    defer { close(master) }
    // glibc's pty functions are not in Swift's Glibc module (they need _XOPEN_SOURCE).
    typealias IntFn = @convention(c) (Int32) -> Int32
    typealias NameFn = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let g = dlsym(nil, "grantpt"), let u = dlsym(nil, "unlockpt"), let n = dlsym(nil, "ptsname"),
          unsafeBitCast(g, to: IntFn.self)(master) == 0, unsafeBitCast(u, to: IntFn.self)(master) == 0,
          let name = unsafeBitCast(n, to: NameFn.self)(master) else { return nil }
    let slavePath = String(cString: name)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, slavePath, O_RDWR, 0) }
    posix_spawn_file_actions_addclose(&actions, master)
    var cArgs: [UnsafeMutablePointer<CChar>?] = [strdup(traitlab), nil]
    defer { for p in cArgs { free(p) } }
    var env: [UnsafeMutablePointer<CChar>?] = [strdup("TERM=dumb"), strdup("HOME=/nonexistent"), nil]
    defer { for p in env { free(p) } }
    var pid = pid_t()
    let start = now()
    guard posix_spawn(&pid, traitlab, &actions, nil, &cArgs, &env) == 0 else { return nil }
    var seen: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var elapsed: Double?
    while now() - start < 10 {
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 100) <= 0 { continue }
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        seen.append(contentsOf: buffer[0..<n])
        if let i = seen.firstIndex(of: UInt8(ascii: ">")), i + 1 < seen.count, seen[i + 1] == UInt8(ascii: " ") {
            elapsed = now() - start
            break
        }
    }
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return elapsed
}

import CLuaShim
import TraitEngine
@testable import TraitLabLua
import XCTest

/// The host seen from Swift: error paths return Lua errors (never crash or
/// longjmp through Swift), lifetimes follow Lua's collector, limits hold.
final class HostTests: XCTestCase {
    private func host(_ options: LuaHostOptions = LuaHostOptions()) throws -> LuaHost {
        try LuaHost(options: options)
    }

    /// The shim's fast paths read box kinds by number (CLuaShim.h's TL_KIND_*):
    /// a reordering of BoxKind must fail here, not as a wrong fast path.
    func testBoxKindsMatchTheShimsNumbers() {
        XCTAssertEqual(BoxKind.environment.rawValue, TL_KIND_ENVIRONMENT)
        XCTAssertEqual(BoxKind.definition.rawValue, TL_KIND_DEFINITION)
        XCTAssertEqual(BoxKind.collection.rawValue, TL_KIND_COLLECTION)
        XCTAssertEqual(BoxKind.color.rawValue, TL_KIND_COLOR)
    }

    /// Pops the value on top into global `name` (a raw set: nothing runs).
    private func setGlobal(_ h: LuaHost, _ name: String) {
        lua_rawgeti(h.L, tl_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
        h.L.push(name)
        lua_rotate(h.L, -3, -1)   // [value, globals, name] -> [globals, name, value]
        lua_rawset(h.L, -3)
        h.L.pop()
    }

    /// Runs `code` and returns its error message (nil when it succeeded).
    private func error(_ h: LuaHost, _ code: String) -> String? {
        h.run(code, name: "=test")
    }

    func testBadInputGivesLuaErrorsNamingTheProblem() throws {
        let h = try host()
        let cases: [(String, String)] = [
            ("traits.collection { horizontalSizeClass = 'wide' }", "compact, regular"),
            ("local _ = traits.collection {}.nope", "unknown trait property 'nope'"),
            ("traits.define { default = 1 }", "name"),
            ("traits.enum('E', {})", "one or more cases"),
            ("ui.View {}:addSubview(42)", "View expected"),
            ("ui.View.addSubview(42, ui.View {})", "bad self"),
            ("local v = ui.View {}; v:addSubview(v)", "itself"),
            ("ui.View {}:registerForTraitChanges({}, function() end)", "one or more traits"),
            ("local _ = ui.View {}.traitOverrides.userInterfaceStyle", "no override"),
            ("ui.hierarchyMode = 'ios99'", "ios17"),
            ("ui.dump(ui.View {}, 'pdf')", "unknown dump format"),
            ("traits.decode('{')", "offset"),
            ("ui.Color('#12')", "#RRGGBB"),
            ("plugins.load('definitely_missing_plugin')", "not found"),
        ]
        for (code, expected) in cases {
            let message = error(h, code)
            XCTAssertNotNil(message, code)
            XCTAssertTrue(message?.contains(expected) == true, "\(code): \(message ?? "no error")")
        }
        // The host is still usable after every error.
        XCTAssertNil(error(h, "local s = ui.WindowScene {}; ui.update(); assert(s.traitCollection.userInterfaceIdiom == 'phone')"))
    }

    func testErrorsFromCallbacksPropagateWithTraceback() throws {
        let h = try host()
        let message = error(h, """
        local scene = ui.WindowScene {}
        local w = ui.Window { windowScene = scene }
        local vc = ui.ViewController { viewDidAppear = function() error("boom") end }
        w.rootViewController = vc
        ui.update()
        """)
        XCTAssertTrue(message?.contains("boom") == true)
        XCTAssertTrue(message?.contains("stack traceback") == true)
        XCTAssertNil(error(h, "ui.update()"))
    }

    func testEnvironmentsFollowLuaLifetimes() throws {
        let h = try host()
        // (The world's main screen, which the engine makes on first use and
        // ui.Screen.main holds once the classes are made, is not the script's.)
        _ = h.world.mainScreen
        let base = h.world.stats.environments
        XCTAssertNil(error(h, """
        local function make()
          local v = ui.View {}
          for i = 1, 10 do v:addSubview(ui.View {}) end
          v:registerForTraitChanges({ traits.UserInterfaceStyle }, function() return v end)
        end
        make()
        collectgarbage()
        """))
        XCTAssertEqual(h.world.stats.environments, base)
    }

    /// A view's one function registration is kept without a field table
    /// (the box's user value is the function); whatever makes the table later
    /// (a user field, a second registration, a target-action, a cached
    /// collection) takes it in, and the handler keeps running, in
    /// registration order, until its own token ends it (docs/guide.md,
    /// "Trait change registration"; UIKit calls a view's
    /// handlers in the order they were registered). Views made with each form
    /// are collected with their handlers when they capture themselves.
    func testALoneHandlerKeepsWorkingWhateverComesAfterIt() throws {
        let h = try host()
        XCTAssertNil(error(h, """
        local Theme = traits.define { name = "LoneTheme", default = "a" }
        local scene = ui.WindowScene {}
        local window = ui.Window { windowScene = scene }
        window.rootViewController = ui.ViewController {}
        local root = window.rootViewController.view
        local calls = {}
        local flip = "a"
        local function change()
          calls = {}
          flip = flip == "a" and "b" or "a"
          scene.traitOverrides.loneTheme = flip
          ui.update()
          return table.concat(calls, " ")
        end
        local function expect(want)
          local got = change()
          if got ~= want then error(string.format("calls %q, expected %q", got, want), 2) end
        end
        local function handler(name) return function(view, previous)
          assert(previous.loneTheme ~= view.traitCollection.loneTheme)
          calls[#calls + 1] = name
        end end
        local function fresh() local v = ui.View {} root:addSubview(v) ui.update() return v end

        -- Alone; ended by its token; a new one is alone again.
        local v = fresh()
        local t1 = v:registerForTraitChanges({ Theme }, handler("one"))
        expect("one")
        v:unregisterForTraitChanges(t1)
        assert(not t1.isActive); expect("")
        local t2 = v:registerForTraitChanges({ Theme }, handler("two"))
        expect("two")
        -- A user field makes the table: the handler moves in, the field is kept.
        v.note = "kept"
        expect("two"); assert(v.note == "kept")
        v:unregisterForTraitChanges(t2)
        expect(""); assert(v.note == "kept")

        -- A second registration, then a target-action, after a lone one: all run, in order.
        local w = fresh()
        local ta = w:registerForTraitChanges({ Theme }, handler("first"))
        local tb = w:registerForTraitChanges({ Theme }, handler("second"))
        local target = { act = function(self, env) calls[#calls + 1] = "action" end }
        local tc = w:registerForTraitChanges({ Theme }, { target = target, action = "act" })
        expect("first second action")
        w:unregisterForTraitChanges(ta)
        expect("second action")
        w:unregisterForTraitChanges(tb)
        w:unregisterForTraitChanges(tc)
        expect("")

        -- A token of another view ends nothing here (and says so).
        local x, y = fresh(), fresh()
        local tx = x:registerForTraitChanges({ Theme }, handler("x"))
        local ty = y:registerForTraitChanges({ Theme }, handler("y"))
        assert(not pcall(y.unregisterForTraitChanges, y, tx))
        assert(tx.isActive); expect("x y")
        assert(not pcall(x.unregisterForTraitChanges, x, ty))
        assert(ty.isActive); expect("x y")
        x:unregisterForTraitChanges(tx)
        y:unregisterForTraitChanges(ty)
        expect("")

        -- A cached collection object makes the table too.
        local z = fresh()
        local tz = z:registerForTraitChanges({ Theme }, handler("z"))
        local _ = z.traitCollection.loneTheme, z.traitCollection.loneTheme
        expect("z")
        assert(z.traitCollection.loneTheme == flip)
        expect("z")

        -- A handler that ends itself runs once.
        local s = fresh()
        local ts
        ts = s:registerForTraitChanges({ Theme }, function() calls[#calls + 1] = "self"; s:unregisterForTraitChanges(ts) end)
        expect("z self")
        expect("z")

        -- Views whose handlers capture them are collected.
        collectgarbage(); collectgarbage()
        local before = ui.stats().environments
        local function make()
          local a = ui.View {}
          a:registerForTraitChanges({ Theme }, function() return a end)
          local b = ui.View {}
          b:registerForTraitChanges({ Theme }, function() return b end)
          b.note = 1
          b:registerForTraitChanges({ Theme }, function() return b end)
        end
        make()
        collectgarbage(); collectgarbage()
        assert(ui.stats().environments == before, "views whose handlers capture them stayed alive")
        """))
    }

    /// docs/guide.md, "The hierarchy and overrides": "An environment is always
    /// the same Lua value (`==`, usable as a table key)", also as a weak key and when no
    /// Lua variable refers to it (its owner keeps its object). Objects sit in
    /// numbered slots (TraitEnvironment.hostSlot) that their finalizers free:
    /// building and dropping trees reuses the slots, and a slot number an
    /// environment kept after its object was collected never yields another
    /// environment's object.
    func testEnvironmentObjectsKeepTheirIdentityAndReuseTheirSlots() throws {
        let h = try host()
        XCTAssertNil(error(h, """
        local mark = setmetatable({}, { __mode = "k" })
        root = ui.View {}
        root:addSubview(ui.View {})
        mark[root.subviews[1]] = true
        collectgarbage(); collectgarbage()
        assert(mark[root.subviews[1]], "a subview's object changed while it lived")
        assert(root.subviews[1] == root.subviews[1])
        -- The owner holds what it owns, and lets go when it no longer owns it.
        local before = ui.stats().environments
        local c = ui.View {}
        root:addSubview(c)
        c = nil
        collectgarbage(); collectgarbage()
        assert(ui.stats().environments == before + 1, "an owned view was collected")
        root.subviews[2]:removeFromSuperview()
        collectgarbage(); collectgarbage()
        assert(ui.stats().environments == before, "a removed view stayed alive")
        """))
        func highestSlot() -> Int { Int(tl_gethost(h.L)!.pointee.high_slot) }
        for _ in 0..<5 {
            XCTAssertNil(error(h, """
            local r = ui.View {}
            for i = 1, 1000 do r:addSubview(ui.View {}) end
            r = nil
            collectgarbage(); collectgarbage()
            """))
        }
        XCTAssertLessThan(highestSlot(), 1100, "slots of collected objects must be reused")

        // An environment Swift keeps whose Lua object is collected.
        let kept = View(world: h.world)
        h.push(kept)
        let firstSlot = kept.hostSlot
        XCTAssertNotEqual(firstSlot, 0)
        h.L.pop()
        XCTAssertNil(error(h, "collectgarbage(); collectgarbage(); others = {} for i = 1, 50 do others[i] = ui.View {} end"))
        h.push(kept)
        h.push(kept)
        XCTAssertEqual(lua_rawequal(h.L, -1, -2), 1, "one object while it lives")
        XCTAssertTrue(h.L.box(-1, as: TraitEnvironment.self) === kept, "a reused slot gave another environment's object")
        h.L.pop(2)
        XCTAssertNil(error(h, "others = nil; root = nil; collectgarbage(); collectgarbage()"))
    }

    /// A collection's object is kept by slot too (TraitCollection.hostKey:
    /// the host's id and the slot), whichever side makes it: C on the first
    /// `view.traitCollection` read, Swift everywhere else. One object per
    /// collection and host while it lives; a slot its object was collected
    /// from, reused by a view, never yields the view; and a collection two
    /// hosts share (keyed by the first) is one object in each.
    func testCollectionObjectsKeepTheirIdentityBySlotPerHost() throws {
        let h = try host()
        // Made in C first, then pushed from Swift (modifyingTraits that
        // changes nothing returns the collection itself).
        XCTAssertNil(error(h, """
        local v = ui.View {}
        v.traitOverrides.displayScale = 3
        ui.update()
        local tc = v.traitCollection
        assert(rawequal(tc, tc:modifyingTraits(function() end)), "Swift made a second object")
        fromC = tc
        """))
        // Made in Swift first, then read in C.
        XCTAssertNil(error(h, """
        local w = ui.Window { windowScene = ui.WindowScene {} }
        w.rootViewController = ui.ViewController {}
        view = ui.View {}
        view.traitOverrides.displayScale = 2
        w.rootViewController.view:addSubview(view)
        ui.update()
        """))
        XCTAssertNil(h.run("return view", name: "=test", results: 1))
        XCTAssertEqual(lua_type(h.L, -1), LUA_TUSERDATA)
        let view = try XCTUnwrap(h.L.box(-1, as: View.self))
        h.L.pop()
        XCTAssertEqual(view.traitCollection.hostKey, 0, "no object yet")
        h.push(view.traitCollection)
        setGlobal(h, "fromSwift")
        XCTAssertNotEqual(view.traitCollection.hostKey, 0, "Swift's object took no slot")
        XCTAssertNil(error(h, """
        assert(rawequal(fromSwift, view.traitCollection), "C made a second object")
        assert(fromSwift.displayScale == 2)
        """))
        // Its object collected, its slot reused by views: the key still finds
        // no view, and a new object is made once.
        XCTAssertNil(error(h, """
        fromSwift = nil; fromC = nil
        collectgarbage(); collectgarbage()
        others = {} for i = 1, 50 do others[i] = ui.View {} end
        local a, b = view.traitCollection, view.traitCollection
        assert(rawequal(a, b) and a.displayScale == 2, "not one collection object")
        """))
        XCTAssertNotEqual(UInt32(truncatingIfNeeded: view.traitCollection.hostKey), 0)

        // A collection shared by two hosts (another collection pushed in
        // between, so that neither push is served as the last one pushed).
        let h2 = try host()
        let shared = TraitCollection { $0[SystemTraits.displayScale] = .number(5) }
        let other = TraitCollection { $0[SystemTraits.displayScale] = .number(6) }
        h.push(shared)
        let key = shared.hostKey
        XCTAssertNotEqual(key, 0)
        for host in [h2, h] {
            host.push(shared)
            host.push(other)
            host.push(shared)
            XCTAssertEqual(lua_rawequal(host.L, -1, -3), 1, "a host made two objects of one collection")
            XCTAssertTrue(host.collection(at: -1) === shared)
            host.L.pop(3)
        }
        XCTAssertEqual(shared.hostKey, key, "the second host took over the first one's key")
        h.L.pop()
        h2.close()
        XCTAssertNil(error(h, "view = nil; others = nil; collectgarbage(); collectgarbage()"))
    }

    /// Whatever a body leaves on the stack, `forEachPair` gives `lua_next`
    /// the key back: a wrong key is an error lua_next raises, which would
    /// unwind through Swift (a class method added while collection objects
    /// sat in the table of objects once did that, and leaked environments).
    func testForEachPairVisitsEveryPairWhateverTheBodyLeaves() throws {
        let h = try host()
        let L = h.L
        XCTAssertNil(h.run("return { a = 1, b = 2, c = 3, d = 4, [10] = 5 }", name: "=test", results: 1))
        let top = L.top
        var seen = 0
        L.forEachPair(-1) {
            seen += 1
            if seen % 2 == 0 { L.pop() } else { L.push(true); L.push(false) }   // one short, or two more
        }
        XCTAssertEqual(seen, 5, "a pair was skipped or iteration stopped")
        XCTAssertEqual(L.top, top, "the table stays where it was")
        L.pop()
    }

    func testMemoryLimitStopsScriptsWithoutCorruptingTheHost() throws {
        var options = LuaHostOptions()
        options.memoryLimit = 8 << 20
        let h = try host(options)
        let message = error(h, "local t = {} for i = 1, 1e8 do t[i] = traits.collection { displayScale = i } end")
        XCTAssertTrue(message?.contains("not enough memory") == true, message ?? "no error")
        XCTAssertNil(error(h, "collectgarbage(); local s = ui.WindowScene {}; ui.update()"))
    }

    func testClosingTheHostFreesEveryEnvironment() throws {
        weak var world: TraitWorld?
        do {
            let h = try host()
            world = h.world
            XCTAssertNil(error(h, """
            local scene = ui.WindowScene {}
            local w = ui.Window { windowScene = scene }
            w.rootViewController = ui.ViewController {}
            w.rootViewController.view:addSubview(ui.View {})
            ui.update()
            """))
            h.close()
        }
        XCTAssertNil(world, "the world and its environments must be freed with the host")
    }

    /// `traitlab test` (and the `traitlab.busted` helper) give each spec file
    /// a fresh world: nothing the previous file defined or connected is
    /// reachable, the old world is freed once Lua drops its objects, and the
    /// shared system traits stay the same Lua objects.
    func testResetWorldStartsOverAndFreesTheOldWorld() throws {
        let h = try host()
        weak var old: TraitWorld?
        XCTAssertNil(error(h, """
        Theme = traits.define { name = "Theme", default = "a", property = "theme" }
        swiftui.EnvironmentKey { name = "accent", default = "blue" }
        local scene = ui.WindowScene {}
        local w = ui.Window { windowScene = scene }
        w.rootViewController = ui.ViewController {}
        ui.update()
        sizeClass = traits.HorizontalSizeClass
        kept = ui.View {}
        """))
        old = h.world
        h.resetWorld()
        // An object of the old world, still held by Lua, is refused everywhere:
        // no tree mixes two worlds.
        for code in ["local _ = kept.traitCollection", "ui.View {}:addSubview(kept)", "kept:addSubview(ui.View {})"] {
            let message = error(h, code)
            XCTAssertTrue(message?.contains("earlier engine world") == true, "\(code): \(message ?? "no error")")
        }
        XCTAssertNil(error(h, """
        kept = nil
        assert(traits.named("theme") == nil, "the trait survived")
        Theme, scene = nil, nil
        assert(traits.HorizontalSizeClass == sizeClass, "system traits changed identity")
        assert(ui.Screen.main.name == "main")
        collectgarbage(); collectgarbage()
        assert(ui.stats().environments == 1, "environments: " .. ui.stats().environments)
        traits.define { name = "Theme", default = 2, property = "theme" }
        swiftui.EnvironmentKey { name = "accent", default = "red" }
        collectgarbage(); collectgarbage()
        """))
        XCTAssertNil(old, "the old world must be freed")
    }

    func testSandboxHidesFilesProcessesAndNativeCode() throws {
        var options = LuaHostOptions()
        options.sandbox = true
        let h = try host(options)
        XCTAssertNil(error(h, "assert(io == nil and os.execute == nil and dofile == nil and loadfile == nil)"))
        XCTAssertNil(error(h, "assert(package.loadlib == nil and debug.getinfo == nil and debug.traceback)"))
        XCTAssertNil(error(h, "assert(os.clock and os.time and os.date and os.difftime)"))
        XCTAssertNotNil(error(h, "load(string.char(27) .. 'Lua', 'x', 'b')"))
        XCTAssertNil(error(h, "local s = ui.WindowScene {}; ui.update()"))
    }
}

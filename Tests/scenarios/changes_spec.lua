-- Automatic trait tracking, lifetimes, colors and instruments (docs/guide.md,
-- "Automatic tracking and observable models", "Colors", "Dumps, pictures and traces").

local function window_with_root()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  return scene, window, root
end

describe("automatic trait tracking", function()
  it("re-runs layoutSubviews only when a trait it read changes", function()
    local scene, _, root = window_with_root()
    local laid = 0
    local v = ui.View {
      layoutSubviews = function(self)
        laid = laid + 1
        local _ = self.traitCollection.userInterfaceStyle
      end,
    }
    root.view:addSubview(v)
    ui.update()
    assert.are.equal(1, laid)
    scene.traitOverrides.legibilityWeight = "bold"
    ui.update()
    assert.are.equal(1, laid)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(2, laid)
  end)

  -- docs/guide.md, "Automatic tracking and observable models": "Traits read
  -- through `self.traitCollection` inside `layoutSubviews` ... are tracked". Iterating, describing, comparing or copying the
  -- collection reads every trait (what it gives changes with any of them),
  -- so a change to any trait lays the view out again.
  it("tracks pairs, tostring, ==, changedTraits and modifyingTraits as reads of every trait", function()
    local Extra = traits.define { name = "TrackedExtra", default = 0 }
    local uses = {
      pairs = function(tc) for _ in pairs(tc) do end end,
      tostring = function(tc) return tostring(tc) end,
      eq = function(tc) return tc == traits.collection {} end,
      changedTraits = function(tc) return tc:changedTraits(traits.collection {}) end,
      modifyingTraits = function(tc) return tc:modifyingTraits(function() end) end,
    }
    local values = { 1, 2, 3, 4, 5, 6, 7, 8 }
    for name, use in pairs(uses) do
      local scene, _, root = window_with_root()
      local laid = 0
      local v = ui.View { layoutSubviews = function(self) laid = laid + 1; use(self.traitCollection) end }
      root.view:addSubview(v)
      ui.update()
      assert.are.equal(1, laid, name)
      scene.traitOverrides.userInterfaceStyle = "dark"
      ui.update()
      assert.are.equal(2, laid, name .. " after a system trait changed")
      scene.traitOverrides[Extra] = table.remove(values)
      ui.update()
      assert.are.equal(3, laid, name .. " after a custom trait became set")
      ui.update()
      assert.are.equal(3, laid, name .. " with nothing changed")
    end
  end)

  it("tracks draw and updateProperties separately", function()
    local scene, _, root = window_with_root()
    local drawn, props = 0, 0
    local v = ui.View {
      draw = function(self) drawn = drawn + 1; local _ = self.traitCollection.horizontalSizeClass end,
      updateProperties = function(self) props = props + 1; local _ = self.traitCollection.verticalSizeClass end,
    }
    root.view:addSubview(v)
    v:setNeedsUpdateProperties()
    ui.update()
    drawn, props = 0, 0
    scene.traitOverrides.horizontalSizeClass = "regular"
    ui.update()
    assert.are.equal(1, drawn)
    assert.are.equal(0, props)
    scene.traitOverrides.verticalSizeClass = "compact"
    ui.update()
    assert.are.equal(1, drawn)
    assert.are.equal(1, props)
  end)

  it("tracks the view controller's layout callbacks", function()
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local count = 0
    local vc = ui.ViewController {
      viewWillLayoutSubviews = function(self)
        count = count + 1
        local _ = self.traitCollection.layoutDirection
      end,
    }
    window.rootViewController = vc
    ui.update()
    count = 0
    scene.traitOverrides.layoutDirection = "rightToLeft"
    ui.update()
    assert.are.equal(1, count)
  end)

  it("does not track reads outside those callbacks", function()
    local scene, _, root = window_with_root()
    local laid = 0
    local v = ui.View { layoutSubviews = function() laid = laid + 1 end }
    root.view:addSubview(v)
    ui.update()
    local _ = v.traitCollection.userInterfaceStyle
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, laid)
  end)
end)

describe("registration lifetimes", function()
  it("end silently when a weakly held target is collected", function()
    local scene, _, root = window_with_root()
    ui.update()
    local calls = 0
    local function register()
      local target = { handle = function() calls = calls + 1 end }
      root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = target, action = "handle" })
    end
    register()
    collectgarbage()
    collectgarbage()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(0, calls)
  end)

  it("keep working while the target lives", function()
    local scene, _, root = window_with_root()
    ui.update()
    local target = { calls = 0, handle = function(self) self.calls = self.calls + 1 end }
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = target, action = "handle" })
    collectgarbage()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, target.calls)
  end)

  it("look the action up at delivery time and fail clearly when it is missing", function()
    local scene, _, root = window_with_root()
    ui.update()
    local target = {}
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = target, action = "later" })
    target.later = function(self) self.done = true end
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.is_true(target.done)
    target.later = nil
    scene.traitOverrides.userInterfaceStyle = "light"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("later", err)
  end)

  it("collect a whole detached subtree in one collection", function()
    collectgarbage()
    local before = ui.stats().environments
    local function make()
      local top = ui.View {}
      local mid = ui.View {}
      top:addSubview(mid)
      for _ = 1, 5 do
        local leaf = ui.View {}
        mid:addSubview(leaf)
        leaf:registerForTraitChanges({ traits.UserInterfaceStyle }, function() return leaf, top end)
      end
    end
    make()
    collectgarbage()
    assert.are.equal(before, ui.stats().environments)
  end)

  it("go away with a removed view controller", function()
    local _, _, root = window_with_root()
    collectgarbage()
    local before = ui.stats().environments
    local function make()
      local child = ui.ViewController {}
      root:addChild(child)
      root.view:addSubview(child.view)
      child.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() return child end)
    end
    make()
    ui.update()
    assert.are.equal(before + 2, ui.stats().environments)
    root.children[1].view:removeFromSuperview()
    root.children[1]:removeFromParent()
    ui.update()
    collectgarbage()
    assert.are.equal(before, ui.stats().environments)
  end)
end)

describe("colors", function()
  it("construct, compare and print", function()
    assert.are.equal(ui.Color(1, 0, 0), ui.Color("#FF0000"))
    assert.are.equal("#FF000080", ui.Color(1, 0, 0, 128 / 255).hex)
    assert.matches("#00FF00", tostring(ui.Color("#00ff00")))
    assert.has_error(function() ui.Color("red") end)
    assert.has_error(function() ui.Color(2, 0, 0) end)
    assert.has_error(function() ui.Color(1, 0) end)
  end)

  it("resolve dynamically against a trait collection", function()
    local c = ui.Color.dynamic(function(tc)
      return tc.userInterfaceStyle == "dark" and ui.Color("#000000") or ui.Color("#FFFFFF")
    end)
    assert.are.equal("#000000", c:resolvedColor(traits.collection { userInterfaceStyle = "dark" }).hex)
    assert.are.equal("#FFFFFF", c:resolvedColor(traits.collection {}).hex)
    local bad = ui.Color.dynamic(function() return 5 end)
    assert.has_error(function() bad:resolvedColor(traits.collection {}) end)
  end)

  it("let a view whose dynamic color captures the view be collected, and keep the color while the view lives", function()
    collectgarbage()
    local before = ui.stats().environments
    local function make()
      local v = ui.View {}
      v.backgroundColor = ui.Color.dynamic(function(tc) local _ = v; return ui.Color("#123456") end)
    end
    make()
    collectgarbage()
    assert.are.equal(before, ui.stats().environments)

    local kept = ui.View {}
    kept.backgroundColor = ui.Color.dynamic(function() return ui.Color("#654321") end)
    collectgarbage()
    assert.are.equal("#654321", kept.backgroundColor:resolvedColor(traits.collection {}).hex)
    assert.are.equal(kept.backgroundColor, kept.backgroundColor)
  end)

  it("redraw a view when a color-appearance trait changes, and only then", function()
    local Theme = traits.define { name = "ColorTheme", default = "a", affectsColorAppearance = true }
    local Plain = traits.define { name = "PlainTrait", default = "a" }
    local scene, _, root = window_with_root()
    local drawn = 0
    local v = ui.View { draw = function() drawn = drawn + 1 end, backgroundColor = ui.Color("#336699") }
    root.view:addSubview(v)
    ui.update()
    assert.are.equal("#336699", v.backgroundColor.hex)
    drawn = 0
    scene.traitOverrides[Plain] = "b"
    ui.update()
    assert.are.equal(0, drawn)
    scene.traitOverrides[Theme] = "b"
    ui.update()
    assert.are.equal(1, drawn)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(2, drawn)
  end)
end)

describe("instruments", function()
  it("count updates, handlers, layouts and draws", function()
    local s0 = ui.stats()
    local scene, _, root = window_with_root()
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end)
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    local s1 = ui.stats()
    for _, k in ipairs { "environments", "traitUpdates", "handlersCalled", "layouts", "draws", "overridesSet",
      "collectionsCreated", "environmentsVisited" } do
      assert.is_number(s1[k], k)
    end
    -- One: joining the window matches the prediction (ui.Screen.main), so only the
    -- change to dark calls the handler.
    assert.are.equal(1, s1.handlersCalled - s0.handlersCalled)
    assert.is_true(s1.traitUpdates > s0.traitUpdates)
    assert.is_true(s1.layouts > s0.layouts)
  end)

  it("dump a subtree as a tree, JSON and Graphviz", function()
    local scene, _, root = window_with_root()
    local card = ui.View { name = "card" }
    root.view:addSubview(card)
    card.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    local tree = ui.dump(scene)
    assert.matches('View "card"%s+overrides { userInterfaceStyle = "dark" }', tree)
    local json = ui.dump(scene, "json")
    assert.matches('"name":"card"', json)
    assert.matches('"overrides":{"userInterfaceStyle":"dark"}', json)
    local dot = ui.dump(scene, "dot")
    assert.matches("^digraph", dot)
    assert.matches("%->", dot)
    assert.has_error(function() ui.dump(scene, "svg") end)
    assert.has_error(function() ui.dump(5) end)
  end)

  it("trace propagation and delivery to a function", function()
    local scene, _, root = window_with_root()
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end)
    ui.update()
    local events = {}
    ui.trace(function(e) events[#events + 1] = e end)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    ui.trace(false)
    local kinds = {}
    for _, e in ipairs(events) do kinds[e.kind] = (kinds[e.kind] or 0) + 1 end
    assert.is_true(kinds.override >= 1)
    assert.is_true(kinds.traitsChanged >= 1)
    assert.are.equal(1, kinds.handler)
    local n = #events
    scene.traitOverrides.userInterfaceStyle = "light"
    ui.update()
    assert.are.equal(n, #events)
  end)
end)

describe("deep trees", function()
  it("update and free a chain deeper than the thread's stack would allow recursively", function()
    collectgarbage()
    local before = ui.stats().environments
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    local function build(n)
      local cur = root.view
      for _ = 1, n do
        local v = ui.View {}
        cur:addSubview(v)
        cur = v
      end
      return cur
    end
    local leaf = build(3000)
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("dark", leaf.traitCollection.userInterfaceStyle)
    leaf = nil   -- luacheck: ignore 311 (drops the last reference to the chain)
    root.view.subviews[1]:removeFromSuperview()
    ui.update()
    collectgarbage()
    assert.are.equal(before + 4, ui.stats().environments)
  end)
end)

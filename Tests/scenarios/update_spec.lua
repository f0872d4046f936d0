-- The update cycle, lifecycle order and the settle guard (docs/guide.md, "The
-- update cycle").

local function window_with_root(root)
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  root = root or ui.ViewController { name = "root" }
  window.rootViewController = root
  return scene, window, root
end

describe("deferred updates", function()
  it("keep the previous collection until ui.update()", function()
    local scene, _, root = window_with_root()
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    assert.are.equal("light", root.view.traitCollection.userInterfaceStyle)
    ui.update()
    assert.are.equal("dark", root.view.traitCollection.userInterfaceStyle)
  end)

  it("never update environments outside a window", function()
    -- They keep their prediction (ui.Screen.main's traits): the override waits.
    local v = ui.View {}
    v.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("light", v.traitCollection.userInterfaceStyle)
    ui.Screen.main:setTraits { userInterfaceIdiom = "pad" }
    ui.update()
    local vc = ui.ViewController {}
    ui.update()
    assert.are.equal("pad", vc.traitCollection.userInterfaceIdiom)
    ui.Screen.main:setTraits { userInterfaceIdiom = "phone" }
    ui.update()
  end)

  it("apply screen changes at the next update", function()
    local screen = ui.Screen { userInterfaceStyle = "light" }
    local scene = ui.WindowScene { screen = screen }
    ui.update()
    screen:setTraits { userInterfaceStyle = "dark" }
    assert.are.equal("light", scene.traitCollection.userInterfaceStyle)
    ui.update()
    assert.are.equal("dark", scene.traitCollection.userInterfaceStyle)
    assert.are.equal("dark", screen.traitCollection.userInterfaceStyle)
  end)

  it("updateTraitsIfNeeded updates one node at once", function()
    local scene, _, root = window_with_root()
    local card = ui.View {}
    root.view:addSubview(card)
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    card:updateTraitsIfNeeded()
    assert.are.equal("dark", card.traitCollection.userInterfaceStyle)
  end)

  it("layoutIfNeeded updates traits and lays out at once", function()
    local laid = 0
    local scene, _, root = window_with_root()
    local card = ui.View { layoutSubviews = function(self) laid = laid + 1 end }
    root.view:addSubview(card)
    ui.update()
    laid = 0
    scene.traitOverrides.userInterfaceStyle = "dark"
    card:setNeedsLayout()
    card:layoutIfNeeded()
    assert.are.equal(1, laid)
    assert.are.equal("dark", card.traitCollection.userInterfaceStyle)
  end)

  it("shares the parent's collection when there are no overrides", function()
    local _, _, root = window_with_root()
    local card = ui.View {}
    root.view:addSubview(card)
    ui.update()
    assert.are.equal(root.view.traitCollection, card.traitCollection)
    assert.is_true(rawequal(root.view.traitCollection, card.traitCollection))
  end)
end)

describe("lifecycle", function()
  -- Apple, "Updating views automatically with observation tracking": "The
  -- updateProperties method runs before layout and is ideal for configuring
  -- properties like text, colors, and visibility", and its example sets a
  -- label's text there only: it runs when a view or controller enters the
  -- window, before its layout, and then only when needed.
  it("runs updateProperties when a view or controller enters the window, before layout", function()
    local log = {}
    local function note(s) return function() log[#log + 1] = s end end
    local root = ui.ViewController { updateProperties = note("vc.updateProperties"), viewWillLayoutSubviews = note("vc.willLayout") }
    local card = ui.View { updateProperties = note("card.updateProperties"), layoutSubviews = note("card.layout") }
    root.view:addSubview(card)
    local window = ui.Window { windowScene = ui.WindowScene {} }
    window.rootViewController = root
    ui.update()
    assert.are.same({ "vc.updateProperties", "vc.willLayout", "card.updateProperties", "card.layout" }, log)
    log = {}
    ui.update()
    assert.are.same({}, log)
    card:removeFromSuperview()
    ui.update()
    log = {}
    root.view:addSubview(card)   -- (the superview lays out again: its controller's willLayout)
    ui.update()
    assert.are.same({ "vc.willLayout", "card.updateProperties", "card.layout" }, log)
  end)

  -- Apple, viewIsAppearing(_:): "the system calls this method after it adds the view
  -- controller's view to the view hierarchy, and the superview lays out the view
  -- controller's view. By the time the system calls this method, both the view
  -- controller and its view have received updated trait collections"; viewWillAppear
  -- comes before that (stale traits: here the prediction, a phone).
  it("calls viewWillAppear with stale traits and viewIsAppearing with fresh ones", function()
    local log = {}
    local root = ui.ViewController {
      viewWillAppear = function(self) log[#log + 1] = "willAppear:" .. self.traitCollection.userInterfaceIdiom end,
      viewIsAppearing = function(self) log[#log + 1] = "isAppearing:" .. self.traitCollection.userInterfaceIdiom end,
      viewWillLayoutSubviews = function() log[#log + 1] = "willLayout" end,
      viewDidLayoutSubviews = function() log[#log + 1] = "didLayout" end,
      viewDidAppear = function() log[#log + 1] = "didAppear" end,
    }
    local scene = ui.WindowScene { screen = ui.Screen { userInterfaceIdiom = "pad" } }
    local window = ui.Window { windowScene = scene }
    window.rootViewController = root
    ui.update()
    assert.are.same({ "willAppear:phone", "isAppearing:pad", "willLayout", "didLayout", "didAppear" }, log)
  end)

  it("calls the disappearing pair when a view controller leaves the window", function()
    local log = {}
    local child = ui.ViewController {
      viewWillDisappear = function() log[#log + 1] = "willDisappear" end,
      viewDidDisappear = function() log[#log + 1] = "didDisappear" end,
    }
    local _, _, root = window_with_root()
    root:addChild(child)
    root.view:addSubview(child.view)
    ui.update()
    child.view:removeFromSuperview()
    child:removeFromParent()
    ui.update()
    assert.are.same({ "willDisappear", "didDisappear" }, log)
  end)

  it("runs updateProperties before layout, and draw for what needs display", function()
    local log = {}
    local _, _, root = window_with_root()
    local v = ui.View {
      updateProperties = function() log[#log + 1] = "properties" end,
      layoutSubviews = function() log[#log + 1] = "layout" end,
      draw = function() log[#log + 1] = "draw" end,
    }
    root.view:addSubview(v)
    ui.update()
    log = {}
    v:setNeedsDisplay()
    ui.update()
    assert.are.same({ "draw" }, log)
    log = {}
    v:setNeedsUpdateProperties()
    v:setNeedsLayout()
    ui.update()
    assert.are.same({ "properties", "layout" }, log)
  end)

  it("runs a view controller's own updateProperties when it asks for it", function()
    local calls = 0
    local vc = ui.ViewController { updateProperties = function(self)
      calls = calls + 1
      local _ = self.traitCollection.userInterfaceStyle
    end }
    local scene = window_with_root(vc)
    ui.update()
    calls = 0
    vc:setNeedsUpdateProperties()
    ui.update()
    assert.are.equal(1, calls)
    scene.traitOverrides.userInterfaceStyle = "dark"   -- read in updateProperties: tracked
    ui.update()
    assert.are.equal(2, calls)
  end)

  it("calls the deprecated traitCollectionDidChange with the previous collection", function()
    local seen
    local scene, _, root = window_with_root()
    root.view.traitCollectionDidChange = function(self, previous) seen = previous.userInterfaceStyle end
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("light", seen)
  end)
end)

describe("errors and the settle guard", function()
  it("stops an update that does not settle after 100 passes", function()
    local scene, _, root = window_with_root()
    ui.update()
    -- Each change flips the scene's override again: a runaway.
    local token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function(env)
      scene.traitOverrides.userInterfaceStyle = env.traitCollection.userInterfaceStyle == "dark" and "light" or "dark"
    end)
    scene.traitOverrides.userInterfaceStyle = "dark"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("did not settle after 100 passes", err)
    -- Once the runaway is gone, the next update settles on the last override.
    root.view:unregisterForTraitChanges(token)
    ui.update()
    assert.are.equal(scene.traitOverrides.userInterfaceStyle, root.view.traitCollection.userInterfaceStyle)
  end)

  it("propagates callback errors with a traceback, and the next update works", function()
    local scene, _, root = window_with_root()
    local card = ui.View {}
    root.view:addSubview(card)
    ui.update()
    local fail = true
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function()
      if fail then error("handler exploded") end
    end)
    scene.traitOverrides.userInterfaceStyle = "dark"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("handler exploded", err)
    assert.matches("traceback", err)
    fail = false
    ui.update()
    assert.are.equal("dark", card.traitCollection.userInterfaceStyle)
  end)

  -- Lua's own rule (manual §6.1, pcall: "returns false plus the error
  -- object"): an error value that is not a string reaches the caller as it was
  -- raised, as when the callback is called from Lua. busted relies on it: a
  -- luassert failure is a table, and one raised inside a callback must still
  -- count as a failure, not as an error (Tests/cli/test_runner_test.sh).
  it("keeps non-string error values as they were raised", function()
    local scene, _, root = window_with_root()
    local card = ui.View {}
    root.view:addSubview(card)
    ui.update()
    local E = { code = 42 }
    local O = setmetatable({}, { __tostring = function() return "MyError" end })
    root.view.layoutSubviews = function() error(E) end
    root.view:setNeedsLayout()
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.are.equal(E, err)
    root.view.layoutSubviews = function() error(42) end
    root.view:setNeedsLayout()
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.are.equal(42, err)
    assert.are.equal("integer", math.type(err))
    root.view.layoutSubviews = nil
    local token = card:registerForTraitChanges({ traits.UserInterfaceStyle }, function() error(O) end)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.are.equal(O, err)
    card:unregisterForTraitChanges(token)
    card.react = function() error(E) end
    card:registerForTraitChanges({ traits.UserInterfaceStyle }, { action = "react" })
    card.traitCollectionDidChange = nil
    scene.traitOverrides.userInterfaceStyle = "light"
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.are.equal(E, err)
    card.react = function() end
    card.traitCollectionDidChange = function() error(O) end
    scene.traitOverrides.userInterfaceStyle = "dark"
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.are.equal(O, err)
    card.traitCollectionDidChange = nil
    ok, err = pcall(traits.collection, function() error(E) end)
    assert.is_false(ok)
    assert.are.equal(E, err)
    -- A message still gets its traceback, and the next update works.
    card.traitCollectionDidChange = function() error("plain message") end
    scene.traitOverrides.userInterfaceStyle = "light"
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("plain message", err)
    assert.matches("stack traceback", err)
    card.traitCollectionDidChange = nil
    ui.update()
    assert.are.equal("light", card.traitCollection.userInterfaceStyle)
  end)

  it("raises each error value once, even when errors nest", function()
    local _, _, root = window_with_root()
    ui.update()
    local inner, outer = { "inner" }, { "outer" }
    root.view.layoutSubviews = function()
      local ok, e = pcall(traits.collection, function() error(inner) end)
      assert(ok == false and e == inner)
      error(outer)
    end
    root.view:setNeedsLayout()
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.are.equal(outer, err)
    root.view.layoutSubviews = nil
    ui.update()
  end)
end)

describe("registrations", function()
  it("call a closure only when one of its traits changed", function()
    local scene, _, root = window_with_root()
    ui.update()
    local calls, previous = 0, nil
    root.view:registerForTraitChanges({ traits.HorizontalSizeClass, traits.UserInterfaceStyle }, function(env, prev)
      calls = calls + 1
      previous = prev
      assert.are.equal(root.view, env)
    end)
    scene.traitOverrides.legibilityWeight = "bold"
    ui.update()
    assert.are.equal(0, calls)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, calls)
    assert.are.equal("light", previous.userInterfaceStyle)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, calls)
  end)

  it("see the new collection through self.traitCollection inside the handler", function()
    local scene, _, root = window_with_root()
    ui.update()
    local seen
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function(env, previous)
      seen = previous.userInterfaceStyle .. "->" .. env.traitCollection.userInterfaceStyle
    end)
    local _ = root.view.traitCollection.userInterfaceStyle   -- cache the old collection in Lua
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("light->dark", seen)
  end)

  it("supports target-action with 0, 1 or 2 declared parameters and built-in actions", function()
    local scene, _, root = window_with_root()
    ui.update()
    local got = {}
    local target = {
      zero = function(self) got.zero = true end,
      one = function(self, env) got.one = env end,
      two = function(self, env, prev) got.two = prev.userInterfaceStyle end,
    }
    for _, action in ipairs { "zero", "one", "two" } do
      root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = target, action = action })
    end
    local laid = 0
    root.view.layoutSubviews = function() laid = laid + 1 end
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { action = "setNeedsLayout" })
    ui.update()
    laid = 0
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.is_true(got.zero)
    assert.are.equal(root.view, got.one)
    assert.are.equal("light", got.two)
    assert.are.equal(1, laid)
  end)

  -- The action is looked up at delivery time as Lua code looks a method up
  -- (target[action], docs/guide.md, "Trait change registration"): an __index
  -- function runs, and an error it raises is the error, not "not found".
  it("looks the action up as Lua code would, __index functions included", function()
    local scene, _, root = window_with_root()
    ui.update()
    local calls = 0
    local proxy = setmetatable({}, { __index = function(self, key)
      if key == "react" then return function(target, env) calls = calls + 1; assert(target == self and env == root.view) end end
    end })
    local token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = proxy, action = "react" })
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, calls)
    root.view:unregisterForTraitChanges(token)
    local failing = setmetatable({}, { __index = function(_, key) error("lookup of " .. key .. " failed") end })
    token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = failing, action = "react" })
    scene.traitOverrides.userInterfaceStyle = "light"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("lookup of react failed", err)
    root.view:unregisterForTraitChanges(token)
    local notAFunction = { react = 5 }
    token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = notAFunction, action = "react" })
    scene.traitOverrides.userInterfaceStyle = "dark"
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("action 'react' is a number, not a function", err)
    root.view:unregisterForTraitChanges(token)
    token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = {}, action = "react" })
    scene.traitOverrides.userInterfaceStyle = "light"
    ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("action 'react' not found", err)
    root.view:unregisterForTraitChanges(token)
    ui.update()
  end)

  it("unregister, harmlessly twice", function()
    local scene, _, root = window_with_root()
    ui.update()
    local calls = 0
    local token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() calls = calls + 1 end)
    local other = ui.View {}
    root.view:addSubview(other)
    local ok, err = pcall(other.unregisterForTraitChanges, other, token)
    assert.is_false(ok)
    assert.matches("this registration was not made on View", err)
    root.view:unregisterForTraitChanges(token)
    root.view:unregisterForTraitChanges(token)
    other:unregisterForTraitChanges(token)   -- inactive now: harmless anywhere
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(0, calls)
  end)

  it("refuse bad input", function()
    local v = ui.View {}
    local ok, err = pcall(v.registerForTraitChanges, v, {}, function() end)
    assert.is_false(ok)
    assert.matches("one or more traits", err)
    assert.has_error(function() v:registerForTraitChanges({ 5 }, function() end) end)
    assert.has_error(function() v:registerForTraitChanges({ traits.UserInterfaceStyle }, 5) end)
    assert.has_error(function() v:registerForTraitChanges({ traits.UserInterfaceStyle }, { target = {} }) end)
  end)

  it("never keep their environment alive", function()
    collectgarbage()
    local before = ui.stats().environments
    local function make()
      local v = ui.View {}
      v:registerForTraitChanges({ traits.UserInterfaceStyle }, function() return v end)
      v.traitOverrides.userInterfaceStyle = "dark"
    end
    make()
    collectgarbage()
    collectgarbage()
    assert.are.equal(before, ui.stats().environments)
  end)

  it("keep a tree member and its fields alive without Lua references", function()
    local _, _, root = window_with_root()
    local function make()
      local v = ui.View { name = "kept", payload = { 1, 2, 3 } }
      root.view:addSubview(v)
    end
    make()
    collectgarbage()
    collectgarbage()
    assert.are.same({ 1, 2, 3 }, root.view.subviews[1].payload)
  end)
end)

-- The update cycle as UIKit runs it (docs/guide.md, "The update cycle"). UIKit: "each view
-- only updates its trait collection immediately before it performs layout"
-- (WWDC23, Unleash the UIKit trait system).
describe("one top-down traversal", function()
  -- WWDC23, Unleash the UIKit trait system: traits update immediately before
  -- layout, so "use traits during layout": an override a parent sets on a child
  -- in layoutSubviews is seen by the child in the same update, once.
  it("lets an override set in layoutSubviews reach the subview in the same update, laid out once", function()
    local _, _, root = window_with_root()
    local log = {}
    local child = ui.View { layoutSubviews = function(self)
      log[#log + 1] = "child layout:" .. self.traitCollection.userInterfaceStyle
    end }
    local parent = ui.View { layoutSubviews = function(self)
      log[#log + 1] = "parent layout"
      child.traitOverrides.userInterfaceStyle = "dark"
      child:setNeedsLayout()
    end }
    parent:addSubview(child)
    root.view:addSubview(parent)
    ui.update()
    assert.are.same({ "parent layout", "child layout:dark" }, log)
    assert.are.equal("dark", child.traitCollection.userInterfaceStyle)
  end)

  -- Same source: the subview's traits update after its superview laid out, so its
  -- handler runs after the superview's layoutSubviews (Apple forums 733301: "traits
  -- are updated top-down through the hierarchy").
  it("runs a subview's change handler after its superview's layoutSubviews", function()
    local scene, _, root = window_with_root()
    local log = {}
    local parent = ui.View { layoutSubviews = function() log[#log + 1] = "parent layout" end }
    local child = ui.View {}
    child:registerForTraitChanges({ traits.UserInterfaceStyle }, function() log[#log + 1] = "child handler" end)
    parent:addSubview(child)
    root.view:addSubview(parent)
    ui.update()
    log = {}
    scene.traitOverrides.userInterfaceStyle = "dark"
    parent:setNeedsLayout()
    ui.update()
    assert.are.same({ "parent layout", "child handler" }, log)
  end)

  -- Apple, layoutSubviews(): "You should not call this method directly. If you want
  -- to force a layout update, call the setNeedsLayout() method"; a trait change
  -- alone does not invalidate layout unless the trait was read there (automatic
  -- trait tracking).
  it("does not run layoutSubviews again for a trait change alone", function()
    local scene, _, root = window_with_root()
    local layouts = 0
    local v = ui.View { layoutSubviews = function() layouts = layouts + 1 end }
    root.view:addSubview(v)
    ui.update()
    layouts = 0
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("dark", v.traitCollection.userInterfaceStyle)
    assert.are.equal(0, layouts)
    v:setNeedsLayout()
    ui.update()
    assert.are.equal(1, layouts)
  end)

  -- Apple, setNeedsDisplay() / draw(_:): drawing happens in the next drawing cycle,
  -- after layout.
  it("draws after layout", function()
    local _, _, root = window_with_root()
    local log = {}
    local child = ui.View { draw = function() log[#log + 1] = "child draw" end,
      layoutSubviews = function() log[#log + 1] = "child layout" end }
    local parent = ui.View { draw = function() log[#log + 1] = "parent draw" end,
      layoutSubviews = function() log[#log + 1] = "parent layout" end }
    parent:addSubview(child)
    root.view:addSubview(parent)
    ui.update()
    assert.are.same({ "parent layout", "child layout", "parent draw", "child draw" }, log)
  end)
end)

describe("viewIsAppearing", function()
  -- Apple, viewIsAppearing(_:): called "after it adds the view controller's view to
  -- the view hierarchy, and the superview lays out the view controller's view. By
  -- the time the system calls this method, both the view controller and its view
  -- have received updated trait collections". viewWillAppear(_:) comes earlier.
  it("runs after the superview laid out the controller's view, with fresh traits on both", function()
    local _, _, root = window_with_root()
    ui.update()
    local log = {}
    local child = ui.ViewController {
      viewWillAppear = function(self) log[#log + 1] = "willAppear:" .. self.traitCollection.userInterfaceStyle end,
      viewIsAppearing = function(self)
        log[#log + 1] = "isAppearing:" .. self.traitCollection.userInterfaceStyle .. "/" .. self.view.traitCollection.userInterfaceStyle
      end,
      viewWillLayoutSubviews = function() log[#log + 1] = "willLayout" end,
    }
    local container = ui.View { layoutSubviews = function() log[#log + 1] = "container layout" end }
    container.traitOverrides.userInterfaceStyle = "dark"
    root.view:addSubview(container)
    root:addChild(child)
    container:addSubview(child.view)
    ui.update()
    -- (TraitLab calls viewWillAppear when the traversal reaches the controller,
    -- just before its traits update: after its superview's layout here.)
    assert.are.same({ "container layout", "willAppear:light", "isAppearing:dark/dark", "willLayout" }, log)
  end)
end)

describe("updateTraitsIfNeeded and layoutIfNeeded", function()
  -- Apple, UIView.updateTraitsIfNeeded(): "Forces an immediate trait update for this
  -- view (and its view controller, if applicable) and any subviews, including any
  -- view controllers or views in its subtree. Any trait change callbacks are sent
  -- synchronously."
  it("updateTraitsIfNeeded updates the node, what it inherits from and its whole subtree at once", function()
    local scene, _, root = window_with_root()
    local child = ui.ViewController {}
    local deep = ui.View {}
    local calls = 0
    deep:registerForTraitChanges({ traits.UserInterfaceStyle }, function() calls = calls + 1 end)
    root:addChild(child)
    root.view:addSubview(child.view)
    child.view:addSubview(deep)
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    root:updateTraitsIfNeeded()
    assert.are.equal("dark", root.traitCollection.userInterfaceStyle)
    assert.are.equal("dark", child.traitCollection.userInterfaceStyle)
    assert.are.equal("dark", deep.traitCollection.userInterfaceStyle)
    assert.are.equal(1, calls)
    ui.update()
    assert.are.equal(1, calls)
  end)

  -- Apple, layoutIfNeeded(): "Lays out the subviews immediately, if layout updates
  -- are pending"; with traits updated immediately before layout (WWDC23), that
  -- layout sees fresh traits.
  it("layoutIfNeeded runs the traversal for the subtree at once, with fresh traits", function()
    local scene, _, root = window_with_root()
    local seen = {}
    local child = ui.View { layoutSubviews = function(self) seen[#seen + 1] = self.traitCollection.userInterfaceStyle end }
    local parent = ui.View {}
    parent:addSubview(child)
    root.view:addSubview(parent)
    ui.update()
    seen = {}
    scene.traitOverrides.userInterfaceStyle = "dark"
    child:setNeedsLayout()
    parent:layoutIfNeeded()
    assert.are.same({ "dark" }, seen)
    ui.update()
    assert.are.same({ "dark" }, seen)
  end)
end)

describe("trait prediction", function()
  -- useyourloaf.com, "Predicting Size Classes in iOS 13" (and Apple's iOS 13 release
  -- notes): UIKit predicts a view's initial traits, so traitCollectionDidChange is not
  -- called when a view joins a hierarchy whose traits match.
  it("starts with ui.Screen.main's traits, seen by viewDidLoad, and joining a match calls nothing", function()
    local seen
    local vc = ui.ViewController { viewDidLoad = function(self) seen = self.traitCollection.userInterfaceIdiom end }
    local changes = 0
    vc.traitCollectionDidChange = function() changes = changes + 1 end
    local v = vc.view
    assert.are.equal("phone", seen)
    assert.are.equal(ui.Screen.main.traitCollection.displayScale, v.traitCollection.displayScale)
    v:registerForTraitChanges({ traits.UserInterfaceIdiom, traits.UserInterfaceStyle }, function() changes = changes + 1 end)
    window_with_root(vc)   -- a scene on ui.Screen.main: the prediction holds
    ui.update()
    assert.are.equal(0, changes)
  end)
end)

describe("automatic tracking in a view controller", function()
  -- Apple, Automatic trait tracking: supported in UIViewController's
  -- viewWillLayoutSubviews(), viewDidLayoutSubviews() and updateProperties(); a view
  -- controller's code reads traits through self.traitCollection or its view's.
  it("covers reads of self.traitCollection and self.view.traitCollection", function()
    local _, _, root = window_with_root()
    local willLayouts, didLayouts = 0, 0
    local vc = ui.ViewController {
      viewWillLayoutSubviews = function(self)
        willLayouts = willLayouts + 1
        local _ = self.traitCollection.userInterfaceStyle
      end,
      viewDidLayoutSubviews = function(self)
        didLayouts = didLayouts + 1
        local _ = self.view.traitCollection.horizontalSizeClass
      end,
    }
    root:addChild(vc)
    root.view:addSubview(vc.view)
    ui.update()
    willLayouts, didLayouts = 0, 0
    vc.view.traitOverrides.horizontalSizeClass = "regular"   -- read through self.view only
    ui.update()
    assert.are.equal(1, didLayouts)
    vc.traitOverrides.userInterfaceStyle = "dark"            -- read through self
    ui.update()
    assert.are.equal(2, didLayouts)
  end)

  -- Same page: tracking records what the method reads during that call; it does
  -- not depend on anything read before (a cached collection must not hide a read).
  it("tracks a read even after an untracked read of the same collection", function()
    local scene, _, root = window_with_root()
    local layouts = 0
    local v = ui.View { layoutSubviews = function(self)
      layouts = layouts + 1
      local _ = self.traitCollection.userInterfaceStyle
    end }
    root.view:addSubview(v)
    local _ = v.traitCollection.userInterfaceStyle   -- untracked, outside any callback
    ui.update()
    local _ = v.traitCollection.userInterfaceStyle   -- untracked again, after the update
    layouts = 0
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(1, layouts)
    local vc = ui.ViewController { viewWillLayoutSubviews = function(self) local _ = self.view.traitCollection.userInterfaceStyle end }
    local _ = vc.view.traitCollection.userInterfaceStyle
    local runs = 0
    vc.viewDidLayoutSubviews = function() runs = runs + 1 end
    root:addChild(vc)
    root.view:addSubview(vc.view)
    ui.update()
    runs = 0
    local _ = vc.view.traitCollection.userInterfaceStyle
    scene.traitOverrides.userInterfaceStyle = "light"
    ui.update()
    assert.are.equal(1, runs)
  end)
end)

describe("trait prediction on another screen", function()
  -- UIKit predicts a new environment's traits from the environment it will be in
  -- (since iOS 13). A window scene belongs to its screen from the start
  -- (UIWindowScene.screen), and UIWindow(windowScene:) makes a window in that
  -- scene: both read the screen's traits before any update. A controller keeps
  -- its prediction until the update reaches it (Apple, viewIsAppearing(_:): by
  -- then "both the view controller and its view have received updated trait
  -- collections"; viewWillAppear comes before).
  it("gives a window scene and its window their screen's traits at once", function()
    local ipad = ui.Screen { device = "iPad Pro 13-inch (M4)" }
    local scene = ui.WindowScene { screen = ipad }
    assert.are.equal("pad", scene.traitCollection.userInterfaceIdiom)
    assert.are.equal("regular", scene.traitCollection.horizontalSizeClass)
    local window = ui.Window { windowScene = scene }
    assert.are.equal("pad", window.traitCollection.userInterfaceIdiom)
    local vc = ui.ViewController {}
    window.rootViewController = vc
    assert.are.equal("phone", vc.traitCollection.userInterfaceIdiom)
    ui.update()
    assert.are.equal("pad", vc.traitCollection.userInterfaceIdiom)
  end)

  it("calls no change handler for a prediction that was right, and one for a wrong one", function()
    local ipad = ui.Screen { device = "iPad Pro 13-inch (M4)" }
    local scene = ui.WindowScene { screen = ipad }
    local calls = {}
    scene:registerForTraitChanges({ traits.UserInterfaceIdiom }, function() calls[#calls + 1] = "scene" end)
    local window = ui.Window { windowScene = scene }
    window:registerForTraitChanges({ traits.UserInterfaceIdiom }, function() calls[#calls + 1] = "window" end)
    local vc = ui.ViewController {}
    vc:registerForTraitChanges({ traits.UserInterfaceIdiom }, function() calls[#calls + 1] = "vc" end)
    window.rootViewController = vc
    ui.update()
    assert.are.same({ "vc" }, calls)
  end)
end)

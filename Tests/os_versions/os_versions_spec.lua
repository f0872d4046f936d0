-- What differs between the iOS versions TraitLab models (docs/devices.md, "OS
-- versions"). Run as a
-- matrix: `traitlab test --ios 16,17,18,26 Tests/os_versions` (Tests/cli/
-- matrix_test.sh); each test states what its version does, with the source.
local major = tonumber(ui.ios:match("^(%d+)"))

-- A window with a view controller and a view on the main screen, updated.
local function tree()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  local view = ui.View { name = "view" }
  root.view:addSubview(view)
  ui.update()
  return scene, root, view
end

describe("iOS " .. major, function()
  it("ui.ios and ui.available say which version runs", function()
    assert.equal(major .. ".0", ui.ios)
    assert.is_true(ui.available("16.0"))
    assert.equal(major >= 17, ui.available("17.0"))
    assert.equal(major >= 26, ui.available("26"))
  end)

  -- Every API of the iOS 17 trait system says "iOS 17.0+" on its page
  -- (UITraitDefinition, UITraitOverrides, registerForTraitChanges(_:handler:),
  -- updateTraitsIfNeeded(), UITraitBridgedEnvironmentKey); WWDC23 "Unleash the
  -- UIKit trait system" introduced them.
  it("the APIs introduced in iOS 17 exist from 17, and raise an error naming 17 before", function()
    local _, root, view = tree()
    local calls = {
      function() traits.define { name = "Flag" .. major, default = false } end,
      function() return view.traitOverrides end,
      function() view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end) end,
      function() view:updateTraitsIfNeeded() end,
      function() swiftui.bridge(swiftui.EnvironmentKey { name = "k" .. major, default = 1 },
                                { read = function() return 1 end, write = function() end }) end,
    }
    for i, call in ipairs(calls) do
      local ok, err = pcall(call)
      if major >= 17 then
        assert.is_true(ok, tostring(err))
      else
        assert.is_false(ok, "call " .. i)
        assert.matches("available from iOS 17", err, 1, true)
      end
    end
    assert.is_truthy(root)
  end)

  -- WWDC23 "Unleash the UIKit trait system": from iOS 17 a view controller
  -- inherits its traits from its view's superview; before, from its parent
  -- view controller (the legacy flow).
  it("the trait flow is the version's", function()
    assert.equal(major >= 17 and "ios17" or "legacy", ui.hierarchyMode)
    local ok, err = pcall(function() ui.hierarchyMode = "ios17" end)
    if major >= 17 then assert.is_true(ok, tostring(err)) else assert.matches("available from iOS 17", err, 1, true) end
    ui.hierarchyMode = major >= 17 and "ios17" or "legacy"
  end)

  -- WWDC24 "What's new in UIKit": iOS 18 tracks the traits layoutSubviews
  -- (and the other update methods) read and invalidates them automatically.
  it("a trait read in layoutSubviews is tracked from iOS 18", function()
    local screen = ui.Screen { name = "s", device = "iPad Pro 13-inch (M5)" }
    local scene = ui.WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    local view = ui.View {}
    window:addSubview(view)
    local layouts = 0
    function view:layoutSubviews()
      layouts = layouts + 1
      local _ = self.traitCollection.horizontalSizeClass
    end
    view:setNeedsLayout()
    ui.update()
    assert.equal(1, layouts)
    scene.size = "1/3"
    ui.update()
    assert.equal(major >= 18 and 2 or 1, layouts)
  end)

  -- UIView.updateProperties() and setNeedsUpdateProperties() say "iOS 26.0+"
  -- (WWDC25 "What's new in UIKit").
  it("updateProperties runs from iOS 26 only, and its calls raise an error naming 26 before", function()
    local _, _, view = tree()
    local runs = 0
    function view:updateProperties() runs = runs + 1 end
    local ok, err = pcall(view.setNeedsUpdateProperties, view)
    ui.update()
    if major >= 26 then
      assert.is_true(ok, tostring(err))
      assert.is_true(runs >= 1)
    else
      assert.is_false(ok)
      assert.matches("available from iOS 26", err, 1, true)
      assert.equal(0, runs)
    end
  end)

  -- updatePropertiesIfNeeded(): "iOS 26.0+" on UIView's page.
  -- setNeedsUpdateConstraints() (iOS 6), UITraitCollection.current and
  -- performAsCurrent(_:) (iOS 13) and overrideUserInterfaceStyle (iOS 13)
  -- exist on every version TraitLab models.
  it("updatePropertiesIfNeeded is iOS 26's; the older calls exist on every version", function()
    local _, root, view = tree()
    local ok, err = pcall(view.updatePropertiesIfNeeded, view)
    if major >= 26 then assert.is_true(ok, tostring(err)) else assert.matches("available from iOS 26", err, 1, true) end
    view:setNeedsUpdateConstraints()
    root.overrideUserInterfaceStyle = "dark"
    ui.update()
    assert.equal("dark", view.traitCollection.userInterfaceStyle)
    local seen
    traits.collection { userInterfaceStyle = "dark" }:performAsCurrent(function() seen = traits.current.userInterfaceStyle end)
    assert.equal("dark", seen)
  end)

  -- traitCollectionDidChange(_:) is deprecated in iOS 17 but still called;
  -- before 17 it is the only way to hear of a change.
  it("traitCollectionDidChange is called on every version", function()
    local screen = ui.Screen { userInterfaceStyle = "light" }
    local scene = ui.WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    local view = ui.View {}
    window:addSubview(view)
    ui.update()
    local seen
    function view:traitCollectionDidChange(previous) seen = previous.userInterfaceStyle end
    screen:setTraits { userInterfaceStyle = "dark" }
    ui.update()
    assert.equal("light", seen)
  end)
end)

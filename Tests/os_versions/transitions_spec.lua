-- Transitions: what a rotation or a scene resize tells view controllers and
-- presentation controllers before their traits change (docs/guide.md,
-- "Transitions"). Run as a matrix: `traitlab test --ios 16,17,18,26 Tests/os_versions`;
-- Apple documents no difference between these versions in these calls, so
-- every expectation holds on each.
--
-- Sources cited below:
--   [size]   UIContentContainer.viewWillTransition(to:with:): "UIKit calls this method
--            before changing the size of a presented view controller's view." ... "View
--            controllers forward the size change message to their views and child view
--            controllers. Presentation controllers forward the size change to their
--            presented view controller."
--            https://developer.apple.com/documentation/uikit/uicontentcontainer/viewwilltransition(to:with:)
--   [trait]  UIContentContainer.willTransition(to:with:): "UIKit calls this method before
--            changing the traits of the current object." ... "View controllers forward the
--            trait change message to their child view controllers. Presentation controllers
--            forward the trait change to their presented view controller."
--            https://developer.apple.com/documentation/uikit/uicontentcontainer/willtransition(to:with:)
--   [anim]   UIViewControllerTransitionCoordinator.animate(alongsideTransition:completion:):
--            the animations "run in the same animation context as the transition's
--            animations"; the completion is "the block of code to execute after the
--            animation finishes".
--            https://developer.apple.com/documentation/uikit/uiviewcontrollertransitioncoordinator/animate(alongsidetransition:completion:)
--   [wwdc14] WWDC14 session 214 "View Controller Advancements in iOS 8": the trait
--            transition (willTransitionToTraitCollection) comes before the size transition
--            (viewWillTransitionToSize), and traitCollectionDidChange after both.

local log = {}

-- Each test's scenes leave the world when it ends (one world runs the whole file).
local scenes = {}
local NewScene = ui.WindowScene
local function WindowScene(options)
  local scene = NewScene(options)
  scenes[#scenes + 1] = scene
  return scene
end
after_each(function()
  for _, scene in ipairs(scenes) do scene:disconnect() end
  scenes = {}
  ui.update()
  log = {}
end)

-- A class whose callbacks append what they see to `log`, each line prefixed by `name`.
local function logging(base, name)
  return base:subclass(name, {
    willTransition = function(self, newCollection, coordinator)
      log[#log + 1] = name .. " will " .. newCollection.horizontalSizeClass .. "/" .. newCollection.verticalSizeClass
        .. " (has " .. self.traitCollection.horizontalSizeClass .. "/" .. self.traitCollection.verticalSizeClass .. ")"
    end,
    viewWillTransition = function(self, size, coordinator)
      log[#log + 1] = name .. " size " .. size.width .. "x" .. size.height
        .. " (has " .. self.traitCollection.horizontalSizeClass .. "/" .. self.traitCollection.verticalSizeClass .. ")"
    end,
    traitCollectionDidChange = function(self) log[#log + 1] = name .. " didChange" end,
  })
end

local Root = logging(ui.ViewController, "root")
local Child = logging(ui.ViewController, "child")
local Grandchild = logging(ui.ViewController, "grandchild")
local Sheet = logging(ui.ViewController, "sheet")

-- root (with a child, which has a child) presenting a sheet, in a window of a scene on `screen`.
local function app(screen, size)
  local scene = WindowScene { screen = screen, size = size }
  local window = ui.Window { windowScene = scene }
  local root, child, grandchild = Root {}, Child {}, Grandchild {}
  window.rootViewController = root
  root:addChild(child)
  root.view:addSubview(child.view)
  child:addChild(grandchild)
  child.view:addSubview(grandchild.view)
  local sheet = Sheet {}
  root:present(sheet)
  ui.update()
  log = {}
  return { scene = scene, window = window, root = root, child = child, sheet = sheet }
end

describe("a rotation on iOS " .. ui.ios, function()
  it("tells each controller, parents first, before any trait changes [trait] [size] [wwdc14]", function()
    local screen = ui.Screen { device = "iPhone 15 Pro" }
    app(screen)
    screen.orientation = "landscapeLeft"
    assert.same({}, log)   -- nothing until the update, as any trait change
    ui.update()
    assert.same({
      "root will compact/compact (has compact/regular)",
      "child will compact/compact (has compact/regular)",
      "grandchild will compact/compact (has compact/regular)",
      "sheet will compact/compact (has compact/regular)",
      "root size 852x393 (has compact/regular)",
      "child size 852x393 (has compact/regular)",
      "grandchild size 852x393 (has compact/regular)",
      "sheet size 852x393 (has compact/regular)",
      "root didChange", "child didChange", "grandchild didChange", "sheet didChange",
    }, log)
  end)

  it("gives the size as screen.size reads after it", function()
    local screen = ui.Screen { device = "iPhone 15 Pro Max" }
    local sizes = {}
    local scene = WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    window.rootViewController = ui.ViewController { viewWillTransition = function(_, size) sizes[#sizes + 1] = size end }
    ui.update()
    screen.orientation = "landscapeRight"
    ui.update()
    assert.same({ screen.size }, sizes)
    assert.same({ width = 932, height = 430 }, sizes[1])
  end)

  it("gives no willTransition where the traits stay, only the size [trait]", function()
    local screen = ui.Screen { device = "iPad Pro 12.9-inch (6th generation)" }
    app(screen)
    screen.orientation = "landscapeLeft"   -- an iPad is regular/regular both ways
    ui.update()
    assert.same({
      "root size 1366x1024 (has regular/regular)", "child size 1366x1024 (has regular/regular)",
      "grandchild size 1366x1024 (has regular/regular)", "sheet size 1366x1024 (has regular/regular)",
    }, log)
  end)

  it("gives nothing when the size stays (landscape left to right) [size]", function()
    local screen = ui.Screen { device = "iPhone 15 Pro", orientation = "landscapeLeft" }
    app(screen)
    screen.orientation = "landscapeRight"
    ui.update()
    assert.same({}, log)
  end)

  it("makes one transition of several rotations before an update, from the first size", function()
    local screen = ui.Screen { device = "iPhone 15 Pro" }
    local sizes = {}
    local scene = WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    window.rootViewController = ui.ViewController {
      viewWillTransition = function(_, size, coordinator) sizes[#sizes + 1] = { size, coordinator.fromSize } end,
    }
    ui.update()
    screen.orientation = "landscapeLeft"
    screen.orientation = "portrait"
    ui.update()
    assert.same({}, sizes)   -- back where it was: no size change
    screen.orientation = "landscapeLeft"
    screen.orientation = "landscapeRight"
    ui.update()
    assert.same({ { { width = 852, height = 393 }, { width = 393, height = 852 } } }, sizes)
  end)
end)

describe("a scene resize on iOS " .. ui.ios, function()
  it("tells each controller, parents first, when Split View narrows it to compact [trait] [size]", function()
    local screen = ui.Screen { device = "iPad Pro 12.9-inch (6th generation)", orientation = "landscapeLeft" }
    local a = app(screen)
    a.scene.size = "1/3"
    ui.update()
    assert.equal("root will compact/regular (has regular/regular)", log[1])
    assert.equal("sheet will compact/regular (has regular/regular)", log[4])
    assert.matches("^root size %d+x1024 %(has regular/regular%)$", log[5])
    assert.same({ "root didChange", "child didChange", "grandchild didChange", "sheet didChange" },
      { log[9], log[10], log[11], log[12] })
    assert.equal(12, #log)
  end)

  it("gives only viewWillTransition when the size classes stay (full to 2/3) [size]", function()
    local screen = ui.Screen { device = "iPad Pro 12.9-inch (6th generation)", orientation = "landscapeLeft" }
    local a = app(screen)
    a.scene.size = "2/3"
    ui.update()
    assert.equal(4, #log)
    for _, line in ipairs(log) do assert.matches(" size %d+x1024 ", line) end
  end)

  it("reaches a presentation controller's own callbacks, before the controller it presents [size]", function()
    local screen = ui.Screen { device = "iPad Pro 12.9-inch (6th generation)", orientation = "landscapeLeft" }
    local a = app(screen)
    local pc = a.sheet.presentationController
    pc.viewWillTransition = function(_, size) log[#log + 1] = "pc size " .. size.width end
    pc.willTransition = function(_, tc) log[#log + 1] = "pc will " .. tc.horizontalSizeClass end
    a.scene.size = { width = 500, height = 1024 }
    ui.update()
    assert.equal("pc will compact", log[4])
    assert.equal("sheet will compact/regular (has regular/regular)", log[5])
    assert.equal("pc size 500", log[9])
    assert.equal("sheet size 500x1024 (has regular/regular)", log[10])
  end)
end)

describe("the transition coordinator on iOS " .. ui.ios, function()
  local function rotating(root)
    local screen = ui.Screen { device = "iPhone 15 Pro" }
    local scene = WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    window.rootViewController = root
    ui.update()
    screen.orientation = "landscapeLeft"
    return screen
  end

  it("runs alongside functions with the new traits in place, completions after the update [anim]", function()
    local seen = {}
    local root = ui.ViewController {
      viewWillTransition = function(self, _, coordinator)
        assert.is_true(coordinator:animate(function(c)
          seen[#seen + 1] = "alongside " .. self.traitCollection.verticalSizeClass .. " " .. c.toSize.width
        end, function()
          seen[#seen + 1] = "completion " .. self.traitCollection.verticalSizeClass
        end))
      end,
      traitCollectionDidChange = function() seen[#seen + 1] = "didChange" end,
    }
    rotating(root)
    seen = {}
    ui.update()
    assert.same({ "didChange", "alongside compact 852", "completion compact" }, seen)
  end)

  it("applies in the same update what alongside and completion functions change", function()
    local root = ui.ViewController {
      viewWillTransition = function(self, _, coordinator)
        coordinator:animate(function() self.view.traitOverrides.userInterfaceStyle = "dark" end,
          function() self.view.traitOverrides.legibilityWeight = "bold" end)
      end,
    }
    local layouts = 0
    root.viewDidLayoutSubviews = function() layouts = layouts + 1 end
    if not ui.available("17") then   -- (no traitOverrides before 17)
      root.viewWillTransition = function(self, _, coordinator)
        coordinator:animate(function() self.view:setNeedsLayout() end, function() self.view:setNeedsLayout() end)
      end
    end
    rotating(root)
    layouts = 0
    ui.update()
    if ui.available("17") then
      assert.equal("dark", root.view.traitCollection.userInterfaceStyle)
      assert.equal("bold", root.view.traitCollection.legibilityWeight)
    else
      assert.equal(2, layouts)   -- the alongside function's, then the completion's
    end
    ui.update()   -- nothing was left for another update
  end)

  it("queues nothing once its alongside functions ran [anim]", function()
    local kept
    local root = ui.ViewController { viewWillTransition = function(_, _, coordinator) kept = coordinator end }
    rotating(root)
    ui.update()
    assert.is_false(kept:animate(function() error("never") end))
    ui.update()
  end)

  it("refuses what is not a function", function()
    local root = ui.ViewController { viewWillTransition = function(_, _, coordinator) coordinator:animate(42) end }
    rotating(root)
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("a function or nil expected", err)
  end)
end)

describe("a transition callback that fails on iOS " .. ui.ios, function()
  it("stops the update with its error, naming it; the traits change at the next update", function()
    local screen = ui.Screen { device = "iPhone 15 Pro" }
    local scene = WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController { willTransition = function() error("boom") end }
    window.rootViewController = root
    ui.update()
    screen.orientation = "landscapeLeft"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("boom", err)
    assert.matches("in willTransition of", err)
    assert.equal("regular", root.traitCollection.verticalSizeClass)
    ui.update()
    assert.equal("compact", root.traitCollection.verticalSizeClass)
  end)

  it("rejects a callback that is no function", function()
    local screen = ui.Screen { device = "iPhone 15 Pro" }
    local scene = WindowScene { screen = screen }
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    ui.update()
    root.viewWillTransition = 7
    screen.orientation = "landscapeLeft"
    local ok, err = pcall(ui.update)
    assert.is_false(ok)
    assert.matches("callback 'viewWillTransition' of .* is a number, not a function", err)
  end)
end)

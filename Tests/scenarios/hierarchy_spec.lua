-- Environments, the tree, trait flow in both modes, overrides (docs/guide.md,
-- "The hierarchy and overrides").

local function window_with_root(screen)
  local scene = ui.WindowScene { screen = screen }
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  return scene, window, root
end

describe("environments", function()
  it("are the same Lua value for as long as they live", function()
    local scene, window, root = window_with_root()
    local card = ui.View { name = "card" }
    root.view:addSubview(card)
    assert.are.equal(card, root.view.subviews[1])
    assert.are.equal(root.view, card.superview)
    local seen = { [card] = "card" }
    assert.are.equal("card", seen[root.view.subviews[1]])
    assert.are.equal(window, card.window)
    assert.are.equal(scene, window.windowScene)
    assert.are.equal(window, scene.windows[1])
  end)

  it("have names, tostring and a read-only traitCollection", function()
    local v = ui.View { name = "card" }
    assert.are.equal("card", v.name)
    assert.matches("card", tostring(v))
    assert.matches("View", tostring(v))
    assert.has_error(function() v.traitCollection = traits.collection {} end)
    assert.has_error(function() v.superview = ui.View {} end)
  end)

  it("keep user fields and methods", function()
    local v = ui.View { name = "list", items = { 1, 2 } }
    v.count = function(self) return #self.items end
    assert.are.same({ 1, 2 }, v.items)
    assert.are.equal(2, v:count())
    assert.has_error(function() v.addSubview = 1 end)
    assert.has_error(function() v.__index = 1 end)
  end)

  it("create vc.view on first access and call viewDidLoad once", function()
    local loads = 0
    local vc = ui.ViewController { viewDidLoad = function(self) loads = loads + 1 end }
    assert.is_false(vc.isViewLoaded)
    local v = vc.view
    assert.are.equal(v, vc.view)
    assert.are.equal(1, loads)
  end)

  it("subclass into named classes", function()
    local laid = 0
    local CardView = ui.View:subclass("CardView", {
      layoutSubviews = function(self) laid = laid + 1 end,
      describe = function(self) return "card " .. self.name end,
    })
    local c = CardView { name = "c1" }
    assert.are.equal("card c1", c:describe())
    assert.matches("CardView", tostring(c))
    local _, _, root = window_with_root()
    root.view:addSubview(c)
    ui.update()
    assert.is_true(laid >= 1)
    local Sub = CardView:subclass("FancyCard", { describe = function() return "fancy" end })
    assert.are.equal("fancy", Sub { name = "f" }:describe())
  end)
end)

describe("coroutines", function()
  it("can build and query trees from inside a coroutine", function()
    local co = coroutine.wrap(function()
      local scene, _, root = window_with_root()
      local v = ui.View { name = "inside" }
      root.view:addSubview(v)
      coroutine.yield(v)
      scene.traitOverrides.userInterfaceStyle = "dark"
      ui.update()
      return v.traitCollection.userInterfaceStyle
    end)
    local v = co()
    assert.are.equal("inside", v.name)
    assert.are.equal("dark", co())
  end)
end)

describe("tree edits", function()
  it("move a view that already had a superview", function()
    local a, b, v = ui.View {}, ui.View {}, ui.View {}
    a:addSubview(v)
    b:addSubview(v)
    assert.are.equal(0, #a.subviews)
    assert.are.equal(b, v.superview)
    v:removeFromSuperview()
    assert.is_nil(v.superview)
    v:removeFromSuperview()
  end)

  it("refuse adding a node below itself and leave the tree unchanged", function()
    local a, b = ui.View { name = "a" }, ui.View { name = "b" }
    a:addSubview(b)
    assert.has_error(function() b:addSubview(a) end)
    assert.has_error(function() a:addSubview(a) end)
    assert.are.equal(a, b.superview)
    assert.is_nil(a.superview)
    local p, c = ui.ViewController {}, ui.ViewController {}
    p:addChild(c)
    assert.has_error(function() c:addChild(p) end)
    assert.are.equal(p, c.parent)
    assert.is_nil(p.parent)
  end)

  it("refuse giving a view controller to two parents or windows", function()
    local _, w1, root = window_with_root()
    local scene2 = ui.WindowScene {}
    local w2 = ui.Window { windowScene = scene2 }
    assert.has_error(function() w2.rootViewController = root end)
    assert.is_nil(w2.rootViewController)
    local p1, p2, c = ui.ViewController {}, ui.ViewController {}, ui.ViewController {}
    p1:addChild(c)
    assert.has_error(function() p2:addChild(c) end)
    assert.are.equal(p1, c.parent)
    assert.has_error(function() p2:addChild(root) end)
    assert.are.equal(root, w1.rootViewController)
  end)

  it("refuse wrong types and wrong self", function()
    local v = ui.View {}
    assert.has_error(function() v:addSubview(5) end)
    assert.has_error(function() v.addSubview(5, v) end)
    assert.has_error(function() ui.View.addSubview({}, v) end)
    assert.has_error(function() ui.ViewController {}:addChild(v) end)
    assert.has_error(function() ui.Window {}.rootViewController = v end)
  end)

  it("presents and dismisses", function()
    local _, window, root = window_with_root()
    local other = ui.ViewController { name = "sheet" }
    root:present(other)
    assert.are.equal(other, root.presentedViewController)
    assert.are.equal(root, other.presentingViewController)
    assert.is_not_nil(other.presentationController)
    assert.are.equal(window, other.view.window)
    assert.has_error(function() root:present(ui.ViewController {}) end)
    root:dismiss()
    assert.is_nil(root.presentedViewController)
  end)
end)

describe("trait flow (ios17)", function()
  it("flows screen -> scene -> window -> root vc -> view -> subviews", function()
    local screen = ui.Screen { userInterfaceIdiom = "pad", displayScale = 2 }
    local scene, window, root = window_with_root(screen)
    local card = ui.View {}
    root.view:addSubview(card)
    ui.update()
    for _, env in ipairs { scene, window, root, root.view, card } do
      assert.are.equal("pad", env.traitCollection.userInterfaceIdiom)
      assert.are.equal(2, env.traitCollection.displayScale)
    end
  end)

  it("uses ui.Screen.main by default", function()
    local scene = ui.WindowScene {}
    assert.are.equal(ui.Screen.main, scene.screen)
    ui.update()
    assert.are.equal("phone", scene.traitCollection.userInterfaceIdiom)
  end)

  it("lets a child view controller inherit from its view's superview", function()
    local _, _, root = window_with_root()
    local container = ui.View { name = "container" }
    root.view:addSubview(container)
    container.traitOverrides.horizontalSizeClass = "regular"
    local child = ui.ViewController { name = "child" }
    root:addChild(child)
    container:addSubview(child.view)
    ui.update()
    assert.are.equal("regular", child.traitCollection.horizontalSizeClass)
    assert.are.equal("regular", child.view.traitCollection.horizontalSizeClass)
  end)

  it("flows presenting vc -> presentation controller -> presented vc", function()
    local _, _, root = window_with_root()
    root.traitOverrides.userInterfaceLevel = "elevated"
    local sheet = ui.ViewController {}
    root:present(sheet)
    ui.update()
    assert.are.equal("elevated", sheet.presentationController.traitCollection.userInterfaceLevel)
    assert.are.equal("elevated", sheet.traitCollection.userInterfaceLevel)
    assert.are.equal("elevated", sheet.view.traitCollection.userInterfaceLevel)
  end)
end)

describe("trait flow (legacy)", function()
  after_each(function() ui.hierarchyMode = "ios17" end)

  it("lets a child view controller inherit from its parent view controller", function()
    local _, _, root = window_with_root()
    local container = ui.View {}
    root.view:addSubview(container)
    container.traitOverrides.horizontalSizeClass = "regular"
    local child = ui.ViewController {}
    root:addChild(child)
    container:addSubview(child.view)
    ui.update()
    assert.are.equal("regular", child.traitCollection.horizontalSizeClass)
    ui.hierarchyMode = "legacy"
    assert.are.equal("legacy", ui.hierarchyMode)
    ui.update()
    assert.are.equal("compact", child.traitCollection.horizontalSizeClass)
    assert.are.equal("compact", child.view.traitCollection.horizontalSizeClass)
    ui.hierarchyMode = "ios17"
    ui.update()
    assert.are.equal("regular", child.traitCollection.horizontalSizeClass)
  end)

  it("refuses unknown modes", function()
    assert.has_error(function() ui.hierarchyMode = "ios16" end)
    assert.are.equal("ios17", ui.hierarchyMode)
  end)
end)

describe("trait overrides", function()
  local Theme = traits.enum("OvTheme", { "standard", "pastel", "monochrome" })
  local T = traits.define { name = "OvThemeTrait", default = Theme.standard, property = "myAppTheme" }

  it("apply to the environment and everything below it", function()
    local scene, _, root = window_with_root()
    local card = ui.View {}
    root.view:addSubview(card)
    scene.traitOverrides.myAppTheme = "pastel"
    ui.update()
    assert.are.equal("pastel", card.traitCollection.myAppTheme)
    card.traitOverrides[T] = "monochrome"
    ui.update()
    assert.are.equal("monochrome", card.traitCollection[T])
    assert.are.equal("pastel", root.view.traitCollection.myAppTheme)
  end)

  it("toggle with contains and remove", function()
    local v = ui.View {}
    assert.is_false(v.traitOverrides:contains(T))
    v.traitOverrides.myAppTheme = "pastel"
    assert.is_true(v.traitOverrides:contains(T))
    assert.are.equal("pastel", v.traitOverrides.myAppTheme)
    v.traitOverrides:remove(T)
    assert.is_false(v.traitOverrides:contains(T))
    v.traitOverrides:remove(T)
  end)

  it("count an override to the default value as an override", function()
    local v = ui.View {}
    v.traitOverrides[T] = "standard"
    assert.is_true(v.traitOverrides:contains(T))
  end)

  it("error when reading a missing override, naming the trait", function()
    local v = ui.View {}
    local ok, err = pcall(function() return v.traitOverrides.myAppTheme end)
    assert.is_false(ok)
    assert.matches("OvThemeTrait", err)
  end)

  it("refuse wrong values and change nothing", function()
    local v = ui.View {}
    v.traitOverrides.myAppTheme = "pastel"
    local ok, err = pcall(function() v.traitOverrides.myAppTheme = "neon" end)
    assert.is_false(ok)
    assert.matches("standard, pastel, monochrome", err)
    assert.are.equal("pastel", v.traitOverrides.myAppTheme)
    assert.has_error(function() v.traitOverrides.noSuchTrait = 1 end)
  end)

  it("are not allowed on screens", function()
    assert.has_error(function() return ui.Screen.main.traitOverrides end)
  end)
end)

-- ui.find(name) is the one environment with that name in a connected
-- scene (nil when none, an error naming the matches when ambiguous);
-- ui.findAll(name) all of them.
describe("finding nodes by name", function()
  local function scene()
    local s = ui.WindowScene { name = "main scene" }
    local w = ui.Window { windowScene = s, name = "window" }
    local root = ui.ViewController { name = "find root" }
    w.rootViewController = root
    return s, root
  end

  it("ui.find returns the one environment of that name", function()
    local _, root = scene()
    local card = ui.View { name = "find card" }
    root.view:addSubview(card)
    assert.equal(card, ui.find("find card"))
    assert.equal(root, ui.find("find root"))
    assert.is_nil(ui.find("nothing"))
  end)

  it("ui.find refuses an ambiguous name, naming the matches", function()
    local _, root = scene()
    root.view:addSubview(ui.View { name = "find cell" })
    root.view:addSubview(ui.View { name = "find cell" })
    local ok, err = pcall(ui.find, "find cell")
    assert.is_false(ok)
    assert.matches('2 environments are named "find cell"', err, 1, true)
    assert.equal(2, #ui.findAll("find cell"))
  end)

  it("finds only what is in a connected scene", function()
    local s, root = scene()
    local loose = ui.View { name = "find loose" }
    assert.is_nil(ui.find("find loose"))
    root.view:addSubview(loose)
    assert.equal(loose, ui.find("find loose"))
    s:disconnect()
    assert.is_nil(ui.find("find loose"))
    assert.same({}, ui.findAll("find loose"))
  end)

  it("finds presented controllers and screens", function()
    local _, root = scene()
    local sheet = ui.ViewController { name = "find sheet" }
    root:present(sheet)
    assert.equal(sheet, ui.find("find sheet"))
    assert.equal(ui.Screen.main, ui.find("main"))
  end)
end)

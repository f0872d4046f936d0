-- UITraitCollection's other API: combining, comparing, and the current
-- collection (docs/guide.md, "Traits and trait collections"). Each `it` quotes the Apple page it follows.

local function stage()
  local screen = ui.Screen { userInterfaceIdiom = "phone", userInterfaceStyle = "light", horizontalSizeClass = "compact" }
  local window = ui.Window { windowScene = ui.WindowScene { screen = screen } }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  return screen, window, root
end

describe("trait collections", function()
  -- https://developer.apple.com/documentation/uikit/uitraitcollection/init(traitsfrom:)
  -- "the last trait collection in the array that specifies a trait wins"
  it("combines collections so that the last one specifying a trait wins", function()
    local a = traits.collection { userInterfaceStyle = "dark", horizontalSizeClass = "compact" }
    local b = traits.collection { userInterfaceStyle = "light", legibilityWeight = "bold" }
    local both = traits.collection { a, b }
    assert.equal("light", both.userInterfaceStyle)
    assert.equal("compact", both.horizontalSizeClass)
    assert.equal("bold", both.legibilityWeight)
    assert.equal("dark", traits.collection { b, a }.userInterfaceStyle)
  end)

  it("refuses a list that holds something other than collections", function()
    local ok, err = pcall(traits.collection, { traits.collection {}, 42 })
    assert.is_false(ok)
    assert.matches("only collections", tostring(err))
  end)

  -- https://developer.apple.com/documentation/uikit/uitraitcollection/containstraits(in:)
  -- "Returns a Boolean value indicating whether the trait collection contains all of the specified traits"
  it("contains another collection when every trait it specifies has the same value", function()
    local tc = traits.collection { userInterfaceStyle = "dark", horizontalSizeClass = "compact" }
    assert.is_true(tc:containsTraits(traits.collection { userInterfaceStyle = "dark" }))
    assert.is_true(tc:containsTraits(traits.collection {}))
    assert.is_false(tc:containsTraits(traits.collection { userInterfaceStyle = "light" }))
    assert.is_false(tc:containsTraits(traits.collection { legibilityWeight = "bold" }))
  end)

  -- https://developer.apple.com/documentation/uikit/uitraitcollection/hasdifferentcolorappearance(comparedto:)
  -- "Returns a Boolean value indicating whether changing between the specified
  -- and current trait collections would affect color values."
  it("has a different colour appearance for a style change, not for a size-class change", function()
    local light = traits.collection { userInterfaceStyle = "light", horizontalSizeClass = "compact" }
    assert.is_true(light:hasDifferentColorAppearance(light:modifyingTraits(function(t) t.userInterfaceStyle = "dark" end)))
    assert.is_true(light:hasDifferentColorAppearance(light:modifyingTraits(function(t) t.userInterfaceLevel = "elevated" end)))
    assert.is_false(light:hasDifferentColorAppearance(light:modifyingTraits(function(t) t.horizontalSizeClass = "regular" end)))
  end)

  it("counts a custom trait that affects colour appearance", function()
    local Tint = traits.define { name = "CollectionsTint", default = "blue", affectsColorAppearance = true }
    local Size = traits.define { name = "CollectionsSize", default = 1 }
    local tc = traits.collection {}
    assert.is_true(tc:hasDifferentColorAppearance(traits.collection { [Tint] = "red" }))
    assert.is_false(tc:hasDifferentColorAppearance(traits.collection { [Size] = 2 }))
  end)
end)

describe("the current trait collection", function()
  -- https://developer.apple.com/documentation/uikit/uitraitcollection/performascurrent(_:)
  -- "Makes the trait collection the current trait collection and executes the specified code."
  it("is the given collection for the call only, and nests", function()
    local outside = traits.current
    local dark = traits.collection { userInterfaceStyle = "dark" }
    local bold = traits.collection { legibilityWeight = "bold" }
    local seen = {}
    dark:performAsCurrent(function()
      seen[#seen + 1] = traits.current
      bold:performAsCurrent(function() seen[#seen + 1] = traits.current end)
      seen[#seen + 1] = traits.current
    end)
    assert.equal(dark, seen[1])
    assert.equal(bold, seen[2])
    assert.equal(dark, seen[3])
    assert.equal(outside, traits.current)
  end)

  it("is restored when the call raises an error", function()
    local outside = traits.current
    local ok, err = pcall(function()
      traits.collection { userInterfaceStyle = "dark" }:performAsCurrent(function() error("boom") end)
    end)
    assert.is_false(ok)
    assert.matches("boom", tostring(err))
    assert.equal(outside, traits.current)
  end)

  it("returns what the call returns", function()
    local style = traits.collection { userInterfaceStyle = "dark" }:performAsCurrent(function()
      return traits.current.userInterfaceStyle
    end)
    assert.equal("dark", style)
  end)

  it("is read-only", function()
    assert.has_error(function() traits.current = traits.collection {} end)  -- luacheck: ignore 122
  end)

  -- https://developer.apple.com/documentation/uikit/uitraitcollection/current
  -- "UIKit updates the value of this property before calling the following
  -- methods of UIView, UIViewController, and UIPresentationController":
  -- draw, layoutSubviews, updateConstraints, traitCollectionDidChange;
  -- viewWillLayoutSubviews, viewDidLayoutSubviews, updateViewConstraints.
  it("is the environment's collection inside the callbacks Apple lists", function()
    local _, _, root = stage()
    root.overrideUserInterfaceStyle = "dark"
    local seen = {}
    local card = ui.View {
      layoutSubviews = function(self) seen.layoutSubviews = traits.current.userInterfaceStyle end,
      draw = function(self) seen.draw = traits.current.userInterfaceStyle end,
      updateConstraints = function(self) seen.updateConstraints = traits.current.userInterfaceStyle end,
      traitCollectionDidChange = function(self) seen.traitCollectionDidChange = traits.current.userInterfaceStyle end,
    }
    root.viewWillLayoutSubviews = function(self) seen.viewWillLayoutSubviews = traits.current.userInterfaceStyle end
    root.updateViewConstraints = function(self) seen.updateViewConstraints = traits.current.userInterfaceStyle end
    root.view:addSubview(card)
    ui.update()
    for _, name in ipairs { "layoutSubviews", "draw", "updateConstraints", "traitCollectionDidChange",
                            "viewWillLayoutSubviews", "updateViewConstraints" } do
      assert.equal("dark", seen[name], name)
    end
    assert.equal(ui.Screen.main.traitCollection, traits.current, "outside a callback: ui.Screen.main's")
  end)

  it("is the environment's collection in a registration handler", function()
    local screen, _, root = stage()
    local seen
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function(view)
      seen = traits.current.userInterfaceStyle
    end)
    ui.update()
    screen:setTraits { userInterfaceStyle = "dark" }
    ui.update()
    assert.equal("dark", seen)
  end)

  -- https://developer.apple.com/documentation/uikit/uicolor/resolvedcolor(with:)
  -- and UITraitCollection.current: "get a trait collection from the
  -- currently updating trait environment when your code doesn't have direct
  -- access to the trait environment".
  it("is what color:resolvedColor() resolves against when given no collection", function()
    local black, white = ui.Color("#000000"), ui.Color("#FFFFFF")
    local label = ui.Color.dynamic(function(tc) return tc.userInterfaceStyle == "dark" and white or black end)
    local resolved = traits.collection { userInterfaceStyle = "dark" }:performAsCurrent(function()
      return label:resolvedColor()
    end)
    assert.equal("#FFFFFF", resolved.hex)
    assert.equal("#000000", traits.collection { userInterfaceStyle = "light" }:performAsCurrent(function()
      return label:resolvedColor().hex
    end))
  end)

  it("is the collection a dynamic colour's provider resolves against", function()
    local inside
    local color = ui.Color.dynamic(function(tc) inside = traits.current; return ui.Color("#123456") end)
    local dark = traits.collection { userInterfaceStyle = "dark" }
    color:resolvedColor(dark)
    assert.equal(dark, inside)
  end)
end)

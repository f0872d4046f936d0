-- The older override APIs beside traitOverrides (docs/guide.md, "The older override APIs").

local function stage()
  local screen = ui.Screen { userInterfaceIdiom = "pad", userInterfaceStyle = "light", horizontalSizeClass = "regular" }
  local window = ui.Window { windowScene = ui.WindowScene { screen = screen } }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  local child = ui.ViewController { name = "child" }
  root:addChild(child); root.view:addSubview(child.view)
  ui.update()
  return window, root, child
end

describe("overrideUserInterfaceStyle", function()
  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/overrideuserinterfacestyle
  -- "the new style applies to the view controller, its entire view hierarchy,
  -- and any embedded child view controllers."
  it("on a view controller reaches its views and its children", function()
    local _, root, child = stage()
    root.overrideUserInterfaceStyle = "dark"
    assert.equal("dark", root.overrideUserInterfaceStyle)
    ui.update()
    assert.equal("dark", root.view.traitCollection.userInterfaceStyle)
    assert.equal("dark", child.view.traitCollection.userInterfaceStyle)
    root.overrideUserInterfaceStyle = "unspecified"
    ui.update()
    assert.equal("light", child.view.traitCollection.userInterfaceStyle)
  end)

  -- https://developer.apple.com/documentation/uikit/uiview/overrideuserinterfacestyle
  -- "the new style applies to the view and all of the subviews owned by the same view controller"
  it("on a view reaches its subviews", function()
    local _, root = stage()
    local card, label = ui.View {}, ui.View {}
    root.view:addSubview(card); card:addSubview(label)
    card.overrideUserInterfaceStyle = "dark"
    ui.update()
    assert.equal("dark", label.traitCollection.userInterfaceStyle)
    assert.equal("light", root.view.traitCollection.userInterfaceStyle)
  end)

  -- Apple is silent on a style override and traitOverrides together:
  -- TraitLab lets the environment's own traitOverrides win.
  it("gives way to the same environment's traitOverrides", function()
    local _, root = stage()
    root.overrideUserInterfaceStyle = "dark"
    root.traitOverrides.userInterfaceStyle = "light"
    ui.update()
    assert.equal("light", root.view.traitCollection.userInterfaceStyle)
    assert.is_true(root.traitOverrides:contains(traits.UserInterfaceStyle))
    root.traitOverrides:remove(traits.UserInterfaceStyle)
    ui.update()
    assert.equal("dark", root.view.traitCollection.userInterfaceStyle, "it is not a trait override")
  end)

  it("refuses a value that is not a style", function()
    local _, root = stage()
    assert.has_error(function() root.overrideUserInterfaceStyle = "purple" end)
    assert.equal("unspecified", root.overrideUserInterfaceStyle)
  end)
end)

describe("setOverrideTraitCollection", function()
  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/setoverridetraitcollection(_:forchild:)
  -- "When implementing a custom container view controller, you can use this
  -- method to change the traits of any embedded child view controllers".
  it("changes the traits of a child view controller", function()
    local _, root, child = stage()
    local compact = traits.collection { horizontalSizeClass = "compact" }
    root:setOverrideTraitCollection(compact, child)
    ui.update()
    assert.equal("compact", child.view.traitCollection.horizontalSizeClass)
    assert.equal("regular", root.view.traitCollection.horizontalSizeClass)
    -- overrideTraitCollection(forChild:): "Retrieves the trait collection for a child view controller."
    assert.equal(compact, root:overrideTraitCollection(child))
    root:setOverrideTraitCollection(nil, child)
    ui.update()
    assert.is_nil(root:overrideTraitCollection(child))
    assert.equal("regular", child.view.traitCollection.horizontalSizeClass)
  end)

  it("gives way to the child's own traitOverrides", function()
    local _, root, child = stage()
    root:setOverrideTraitCollection(traits.collection { horizontalSizeClass = "compact" }, child)
    child.traitOverrides.horizontalSizeClass = "regular"
    ui.update()
    assert.equal("regular", child.traitCollection.horizontalSizeClass)
  end)

  it("works only on a child", function()
    local _, root = stage()
    assert.has_error(function() root:setOverrideTraitCollection(traits.collection {}, ui.ViewController {}) end)
  end)

  it("ends when the child leaves its parent", function()
    local _, root, child = stage()
    root:setOverrideTraitCollection(traits.collection { horizontalSizeClass = "compact" }, child)
    child:removeFromParent()
    assert.is_nil(root:overrideTraitCollection(child))
  end)
end)

-- Each deferred kind of work has UIKit's pair of calls (docs/guide.md, "The update cycle").

local function stage()
  local screen = ui.Screen { userInterfaceIdiom = "phone", userInterfaceStyle = "light" }
  local window = ui.Window { windowScene = ui.WindowScene { screen = screen } }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  ui.update()
  return screen, root
end

describe("constraints", function()
  -- https://developer.apple.com/documentation/uikit/uiview/setneedsupdateconstraints()
  -- "the system calls updateConstraints() as part of its normal layout pass"
  it("runs updateConstraints at the next update, before layout", function()
    local _, root = stage()
    local log = {}
    local card = ui.View {
      updateConstraints = function() log[#log + 1] = "updateConstraints" end,
      layoutSubviews = function() log[#log + 1] = "layoutSubviews" end,
    }
    root.view:addSubview(card)
    ui.update()
    assert.same({ "updateConstraints", "layoutSubviews" }, log)
    card:setNeedsUpdateConstraints()
    assert.equal(2, #log, "deferred")
    ui.update()
    assert.equal("updateConstraints", log[3])
  end)

  -- https://developer.apple.com/documentation/uikit/uiview/updateconstraintsifneeded()
  -- "Updates the constraints for the receiving view and its subviews."
  it("runs pending updateConstraints now with updateConstraintsIfNeeded, subviews included", function()
    local _, root = stage()
    local ran = {}
    local card = ui.View { updateConstraints = function() ran.card = true end }
    local label = ui.View { updateConstraints = function() ran.label = true end }
    root.view:addSubview(card); card:addSubview(label)
    ui.update()
    ran.card, ran.label = nil, nil
    card:setNeedsUpdateConstraints(); label:setNeedsUpdateConstraints()
    card:updateConstraintsIfNeeded()
    assert.is_true(ran.card)
    assert.is_true(ran.label)
  end)

  -- https://developer.apple.com/documentation/uikit/uiviewcontroller/updateviewconstraints()
  -- "Called when the view controller's view needs to update its constraints."
  it("runs a controller's updateViewConstraints when its view needs it", function()
    local _, root = stage()
    local n = 0
    root.updateViewConstraints = function() n = n + 1 end
    root.view:setNeedsUpdateConstraints()
    ui.update()
    assert.equal(1, n)
  end)

  -- https://developer.apple.com/documentation/uikit/uiview/updateconstraints()
  -- "In iOS 18 and later, UIKit supports automatic trait tracking inside this method".
  it("tracks the traits updateConstraints reads", function()
    local screen, root = stage()
    local n = 0
    local card = ui.View { updateConstraints = function(self) n = n + 1; local _ = self.traitCollection.userInterfaceStyle end }
    root.view:addSubview(card)
    ui.update()
    screen:setTraits { legibilityWeight = "bold" }
    ui.update()
    assert.equal(1, n, "a trait it did not read")
    screen:setTraits { userInterfaceStyle = "dark" }
    ui.update()
    assert.equal(2, n)
  end)
end)

describe("properties", function()
  -- https://developer.apple.com/documentation/uikit/uiview/updatepropertiesifneeded()
  -- (iOS 26) forces pending updateProperties to run now, subviews included.
  it("runs pending updateProperties now with updatePropertiesIfNeeded, subviews included", function()
    local _, root = stage()
    local ran = {}
    local card = ui.View { updateProperties = function() ran.card = true end }
    local label = ui.View { updateProperties = function() ran.label = true end }
    root.view:addSubview(card); card:addSubview(label)
    ui.update()
    ran.card, ran.label = nil, nil
    label:setNeedsUpdateProperties()
    card:updatePropertiesIfNeeded()
    assert.is_nil(ran.card)
    assert.is_true(ran.label)
  end)

  it("runs an ancestor's pending updateProperties first", function()
    local _, root = stage()
    local log = {}
    local card = ui.View { updateProperties = function() log[#log + 1] = "card" end }
    local label = ui.View { updateProperties = function() log[#log + 1] = "label" end }
    root.view:addSubview(card); card:addSubview(label)
    ui.update()
    log = {}
    card:setNeedsUpdateProperties(); label:setNeedsUpdateProperties()
    label:updatePropertiesIfNeeded()
    assert.same({ "card", "label" }, log)
  end)
end)

describe("layout", function()
  -- Core Animation, CALayer.layoutIfNeeded(): "the layer's super layers are
  -- traversed until a ancestor layer is found that does not require layout.
  -- Then layout is performed on the entire layer-tree beneath that ancestor."
  it("lays out an ancestor that needs layout before the view", function()
    local _, root = stage()
    local log = {}
    local card = ui.View { layoutSubviews = function() log[#log + 1] = "card" end }
    local label = ui.View { layoutSubviews = function() log[#log + 1] = "label" end }
    root.view:addSubview(card); card:addSubview(label)
    ui.update()
    log = {}
    card:setNeedsLayout(); label:setNeedsLayout()
    label:layoutIfNeeded()
    assert.same({ "card", "label" }, log)
  end)

  it("leaves an ancestor that does not need layout alone", function()
    local _, root = stage()
    local log = {}
    local card = ui.View { layoutSubviews = function() log[#log + 1] = "card" end }
    local label = ui.View { layoutSubviews = function() log[#log + 1] = "label" end }
    root.view:addSubview(card); card:addSubview(label)
    ui.update()
    log = {}
    label:setNeedsLayout()
    label:layoutIfNeeded()
    assert.same({ "label" }, log)
  end)
end)

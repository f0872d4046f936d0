-- A constructor's fields are properties, callbacks or fields of the script's
-- own (docs/guide.md, "The hierarchy and overrides": your own fields,
-- callbacks and classes). A field that is a near miss of a property or a
-- callback is an error naming what was meant; it would otherwise become a
-- field of the script's own silently, and the object would lack the
-- property (a window in no scene, whose views read defaults).
describe("constructor fields", function()
  it("a near miss of a property names the property", function()
    local scene = ui.WindowScene {}
    assert.has_error(function() ui.Window { scene = scene } end,
      "unknown field 'scene' for Window (did you mean 'windowScene'?)")
    assert.has_error(function() ui.View { nmae = "card" } end,
      "unknown field 'nmae' for View (did you mean 'name'?)")
    assert.has_error(function() ui.ViewController { modalPresentatonStyle = "popover" } end,
      "unknown field 'modalPresentatonStyle' for ViewController (did you mean 'modalPresentationStyle'?)")
  end)

  it("a near miss of a callback names the callback", function()
    assert.has_error(function() ui.View { layoutSubviwes = function() end } end,
      "unknown field 'layoutSubviwes' for View (did you mean 'layoutSubviews'?)")
  end)

  it("a subclass's instances are named by their class", function()
    local Card = ui.View:subclass("CardView")
    assert.has_error(function() Card { nmae = "x" } end, "unknown field 'nmae' for CardView (did you mean 'name'?)")
  end)

  it("other fields stay the script's own", function()
    local v = ui.View { title = "t", views = 2, color = 3, items = {} , model = "m" }
    assert.are.equal("t", v.title)
    assert.are.equal(2, v.views)
    assert.are.equal(3, v.color)
    assert.are.equal("m", v.model)
    local w = ui.Window { windowScene = ui.WindowScene {}, name = "w" }
    assert.is_not_nil(w.windowScene)
  end)
end)

-- Resolving a named colour again against the same collection object stays in
-- Lua (docs/guide.md, "Colours and images"): what it gives must be what
-- resolving afresh gives, for the colour it was called on, and a tracked
-- resolution must still be recorded. UIKit's words beside each rule.

local function window_with_root()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController {}
  window.rootViewController = root
  return scene, window, root
end

describe("named colours resolved again", function()
  local dark = traits.collection { userInterfaceStyle = "dark" }
  local light = traits.collection { userInterfaceStyle = "light" }

  -- UIColor.resolvedColor(with:): "Returns the version of the current color
  -- that results from the specified traits." The same traits, the same colour.
  it("gives the colour resolving afresh gives, each time, for each collection", function()
    local c = ui.Color.systemBackground
    for _ = 1, 3 do
      assert.are.equal("#000000", tostring(c:resolvedColor(dark)))
      assert.are.equal("#FFFFFF", tostring(c:resolvedColor(light)))
    end
    -- a fresh object of the same colour agrees with the one that kept answers
    assert.are.equal(tostring(ui.Color.systemBackground:resolvedColor(dark)), tostring(c:resolvedColor(dark)))
    -- an equal collection that is another object resolves the same
    assert.are.equal("#000000", tostring(c:resolvedColor(traits.collection { userInterfaceStyle = "dark" })))
  end)

  it("answers for the colour it is called on, not the one whose method it is", function()
    local bg, label = ui.Color.systemBackground, ui.Color.label
    assert.are.equal("#000000", tostring(bg:resolvedColor(dark)))
    assert.are.equal("#FFFFFF", tostring(label:resolvedColor(dark)))
    local method = bg.resolvedColor
    assert.are.equal("#FFFFFF", tostring(method(label, dark)))
    assert.are.equal("#000000", tostring(method(bg, dark)))
  end)

  it("keeps its fields and errors after it kept an answer", function()
    local c = ui.Color.systemRed
    c:resolvedColor(dark)
    assert.are.equal("systemRed", c.name)
    assert.is_true(c.isDynamic)
    assert.are.equal("Color(systemRed)", tostring(c))
    assert.are.equal("Color", getmetatable(c))
    assert.has_error(function() return c.red end,
      "a dynamic color has no 'red'; resolve it first with color:resolvedColor(traitCollection)")
    assert.has_error(function() c.name = "x" end, "colors are immutable")  -- luacheck: ignore 122 (the write must fail)
    assert.is_true(c == ui.Color.systemRed)
    -- a bad collection is still refused
    assert.has_error(function() c:resolvedColor({}) end)
  end)

  it("resolves a dynamic colour's provider every time", function()
    local calls = 0
    local d = ui.Color.dynamic(function(tc) calls = calls + 1; return ui.Color("#123456") end)
    d:resolvedColor(dark); d:resolvedColor(dark)
    assert.are.equal(2, calls)
  end)

  it("lets colours that kept answers be collected (a cycle inside Lua)", function()
    local weak = setmetatable({}, { __mode = "k" })
    for _ = 1, 50 do
      local c = ui.Color.systemBlue
      c:resolvedColor(dark)
      weak[c] = true
    end
    collectgarbage(); collectgarbage()
    assert.are.equal(nil, next(weak))
  end)

  -- WWDC23 "Unleash the UIKit trait system": inside layoutSubviews "UIKit
  -- records which traits you access"; a colour resolved against the view's
  -- traitCollection there depends on the traits the colour reads.
  it("records a tracked resolution every time, kept answers or not", function()
    local scene, _, root = window_with_root()
    local laid, seen = 0, nil
    local c = ui.Color.systemBackground
    local v = ui.View {
      layoutSubviews = function(self)
        laid = laid + 1
        seen = tostring(c:resolvedColor(self.traitCollection))
      end,
    }
    root.view:addSubview(v)
    ui.update()
    assert.are.equal(1, laid)
    c:resolvedColor(v.traitCollection)   -- kept outside tracking
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(2, laid)
    assert.are.equal("#000000", seen)
    scene.traitOverrides.legibilityWeight = "bold"   -- not a trait the colour reads
    ui.update()
    assert.are.equal(2, laid)
  end)
end)

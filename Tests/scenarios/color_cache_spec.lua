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

-- The two ways to resolve a colour for a collection.
local function by_method(c, tc) return c:resolvedColor(tc) end
local function by_index(c, tc) return tc[c] end

-- WWDC23 "Unleash the UIKit trait system": inside layoutSubviews "UIKit
-- records which traits you access"; a colour resolved against the view's
-- traitCollection there depends on the traits the colour reads, whether or
-- not an answer was kept for that collection outside tracking.
local function check_tracked_resolution(resolve)
  local scene, _, root = window_with_root()
  local laid, seen = 0, nil
  local c = ui.Color.systemBackground
  local v = ui.View {
    layoutSubviews = function(self)
      laid = laid + 1
      seen = tostring(resolve(c, self.traitCollection))
    end,
  }
  root.view:addSubview(v)
  ui.update()
  assert.are.equal(1, laid)
  resolve(c, v.traitCollection)   -- kept outside tracking
  scene.traitOverrides.userInterfaceStyle = "dark"
  ui.update()
  assert.are.equal(2, laid)
  assert.are.equal("#000000", seen)
  scene.traitOverrides.legibilityWeight = "bold"   -- not a trait the colour reads
  ui.update()
  assert.are.equal(2, laid)
end

-- Colours that kept answers are collected (the cycles are inside Lua).
local function check_colours_collected(resolve)
  local weak = setmetatable({}, { __mode = "k" })
  for _ = 1, 50 do
    local c = ui.Color.systemBlue
    resolve(c, traits.collection { userInterfaceStyle = "dark" })
    weak[c] = true
  end
  collectgarbage(); collectgarbage()
  assert.are.equal(nil, next(weak))
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
    check_colours_collected(by_method)
  end)

  it("records a tracked resolution every time, kept answers or not", function()
    check_tracked_resolution(by_method)
  end)
end)

-- `tc[color]` is `color:resolvedColor(tc)` written from the collection's side
-- (docs/guide.md, "Colours and images"): the same answers, kept per collection object
-- the same way, never kept where UIKit records the read or runs a provider.
describe("a collection indexed by a colour", function()
  local dark = traits.collection { userInterfaceStyle = "dark" }
  local light = traits.collection { userInterfaceStyle = "light" }
  local elevated = traits.collection { userInterfaceStyle = "dark", userInterfaceLevel = "elevated" }

  -- UIColor.resolvedColor(with:): "Returns the version of the current color
  -- that results from the specified traits."
  it("gives what resolvedColor gives, each time, for each colour and collection", function()
    for _, name in ipairs { "systemBackground", "label", "systemRed", "secondarySystemGroupedBackground" } do
      local c = ui.Color[name]
      for _ = 1, 3 do
        for _, tc in ipairs { dark, light, elevated } do
          assert.are.equal(tostring(c:resolvedColor(tc)), tostring(tc[c]))
        end
      end
    end
    assert.are.equal("#000000", tostring(dark[ui.Color.systemBackground]))
    assert.are.equal("#1C1C1E", tostring(elevated[ui.Color.systemBackground]))
  end)

  it("resolves a fixed colour to itself and a dynamic colour's provider every time", function()
    assert.are.equal("#123456", tostring(dark[ui.Color("#123456")]))
    local calls = 0
    local d = ui.Color.dynamic(function(tc)
      calls = calls + 1
      return tc.userInterfaceStyle == "dark" and ui.Color("#000001") or ui.Color("#FFFFFE")
    end)
    assert.are.equal("#000001", tostring(dark[d]))
    assert.are.equal("#000001", tostring(dark[d]))
    assert.are.equal("#FFFFFE", tostring(light[d]))
    assert.are.equal(3, calls)
  end)

  it("keeps trait reads and methods as they were", function()
    local tc = traits.collection { userInterfaceStyle = "dark" }
    local _ = tc[ui.Color.label]
    assert.are.equal("dark", tc.userInterfaceStyle)
    assert.are.equal("dark", tc[traits.UserInterfaceStyle])
    assert.is_true(tc:containsTraits(traits.collection { userInterfaceStyle = "dark" }))
    assert.are.equal("#FFFFFF", tostring(tc[ui.Color.label]))
  end)

  -- Asset Catalog Format Reference: a colour set's "appearances" choose its
  -- variant; the index form reads the same catalogue colour.
  it("resolves a catalogue colour", function()
    local cat = ui.AssetCatalog("examples/Resources.xcassets")
    for _, name in ipairs(cat.colors) do
      local c = ui.Color.named(name, cat)
      assert.are.equal(tostring(c:resolvedColor(dark)), tostring(dark[c]))
      assert.are.equal(tostring(c:resolvedColor(light)), tostring(light[c]))
    end
  end)

  it("follows a view's collection as it changes", function()
    local scene, _, root = window_with_root()
    ui.update()
    local c = ui.Color.systemBackground
    assert.are.equal("#FFFFFF", tostring(root.view.traitCollection[c]))
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.are.equal("#000000", tostring(root.view.traitCollection[c]))
  end)

  it("records the traits a colour reads inside a tracked callback", function()
    check_tracked_resolution(by_index)
  end)

  it("refuses what is neither a trait nor a colour, as before", function()
    assert.has_error(function() return dark[ui.Font.preferred("body")] end)
    assert.has_error(function() return dark[{}] end)
  end)

  it("lets colours kept by a collection be collected with it", function()
    check_colours_collected(by_index)
  end)
end)

-- UIKit's dynamic system colours, resolved over the whole palette x style x
-- contrast x level. Sources beside each table: the HIG's "Color" page,
-- "Specifications" (iOS, iPadOS system colors), before and after its June
-- 2025 update; colours the HIG lists without values resolve to what UIKit's
-- resolvedColor(with:) returns (the engine's table, SystemColors.swift, names
-- the measurement per row).

local function tc(style, contrast, level)
  return traits.collection { userInterfaceStyle = style, accessibilityContrast = contrast, userInterfaceLevel = level }
end

-- Each row: light, dark, increased-contrast light, increased-contrast dark
-- (HIG), and for the backgrounds dark elevated and dark elevated with
-- increased contrast: the HIG's "Dark Mode" page describes the lighter
-- backgrounds of elevated content (popovers, sheets) in dark appearance;
-- UIUserInterfaceLevel's page calls elevated the level of content above the
-- window's. Their values are the HIG's greys.
local hig26 = {   -- iOS 26 (the HIG after June 2025)
  systemRed = { "#FF383C", "#FF4245", "#E9152D", "#FF6165" },
  systemOrange = { "#FF8D28", "#FF9230", "#C55300", "#FFA056" },
  systemYellow = { "#FFCC00", "#FFD600", "#A16A00", "#FEDF43" },
  systemGreen = { "#34C759", "#30D158", "#008932", "#4AD968" },
  systemMint = { "#00C8B3", "#00DAC3", "#008575", "#54DFCB" },
  systemTeal = { "#00C3D0", "#00D2E0", "#008198", "#3BDDEC" },
  systemCyan = { "#00C0E8", "#3CD3FE", "#0075A4", "#6DD9FF" },
  systemBlue = { "#0088FF", "#0091FF", "#1E6EF4", "#5CB8FF" },
  systemIndigo = { "#6155F5", "#6D7CFF", "#564ADE", "#A7AAFF" },
  systemPurple = { "#CB30E0", "#DB34F2", "#B02FC2", "#EA8DFF" },
  systemPink = { "#FF2D55", "#FF375F", "#E71266", "#FF8AC4" },
  systemBrown = { "#AC7F5E", "#B78A66", "#956D51", "#DBA679" },
}
local hig18 = {   -- iOS 13 to 18 (the HIG before June 2025)
  systemRed = { "#FF3B30", "#FF453A", "#D70015", "#FF6961" },
  systemBlue = { "#007AFF", "#0A84FF", "#0040DD", "#409CFF" },
  systemIndigo = { "#5856D6", "#5E5CE6", "#3634A3", "#7D7AFF" },
  systemBrown = { "#A2845E", "#AC8E68", "#7F6545", "#B59469" },
}
local common = {
  systemGray = { "#8E8E93", "#8E8E93", "#6C6C70", "#AEAEB2" },
  systemGray2 = { "#AEAEB2", "#636366", "#8E8E93", "#7C7C80" },
  systemGray3 = { "#C7C7CC", "#48484A", "#AEAEB2", "#545456" },
  systemGray4 = { "#D1D1D6", "#3A3A3C", "#BCBCC0", "#444446" },
  systemGray5 = { "#E5E5EA", "#2C2C2E", "#D8D8DC", "#363638" },
  systemGray6 = { "#F2F2F7", "#1C1C1E", "#EBEBF0", "#242426" },
  -- Increased contrast: UIKit's values on the iOS 17 simulator as recalled
  -- (SystemColors.swift, uikitHigh; Apple publishes none for these).
  label = { "#000000", "#FFFFFF", "#000000", "#FFFFFF" },
  secondaryLabel = { "#3C3C4399", "#EBEBF599", "#3C3C43AD", "#EBEBF5AD" },
  tertiaryLabel = { "#3C3C434D", "#EBEBF54D", "#3C3C4366", "#EBEBF566" },
  quaternaryLabel = { "#3C3C432E", "#EBEBF529", "#3C3C4342", "#EBEBF53D" },
  placeholderText = { "#3C3C434D", "#EBEBF54D", "#3C3C4366", "#EBEBF566" },
  systemFill = { "#78788033", "#7878805C", "#78788047", "#78788070" },
  secondarySystemFill = { "#78788029", "#78788052", "#7878803D", "#78788066" },
  tertiarySystemFill = { "#7676801F", "#7676803D", "#76768033", "#76768052" },
  quaternarySystemFill = { "#74748014", "#7676802E", "#74748029", "#76768047" },
  separator = { "#3C3C434A", "#54545899", "#3C3C435E", "#545458B3" },
  opaqueSeparator = { "#C6C6C8", "#38383A", "#A0A0A5", "#48484A" },
  link = { "#007AFF", "#0984FF", "#0040DD", "#409CFF" },
  systemBackground = { "#FFFFFF", "#000000", "#FFFFFF", "#000000", "#1C1C1E", "#242426" },
  secondarySystemBackground = { "#F2F2F7", "#1C1C1E", "#EBEBF0", "#242426", "#2C2C2E", "#363638" },
  tertiarySystemBackground = { "#FFFFFF", "#2C2C2E", "#FFFFFF", "#363638", "#3A3A3C", "#444446" },
  systemGroupedBackground = { "#F2F2F7", "#000000", "#EBEBF0", "#000000", "#1C1C1E", "#242426" },
  secondarySystemGroupedBackground = { "#FFFFFF", "#1C1C1E", "#FFFFFF", "#242426", "#2C2C2E", "#363638" },
  tertiarySystemGroupedBackground = { "#F2F2F7", "#2C2C2E", "#EBEBF0", "#363638", "#3A3A3C", "#444446" },
}

-- What a row gives for one cell: elevated only in dark and only for the
-- backgrounds; an unspecified style is light, an unspecified level base.
local function expected(row, style, contrast, level)
  local dark, high = style == "dark", contrast == "high"
  local elevated = dark and level == "elevated" and row[5] ~= nil
  if elevated then return high and row[6] or row[5] end
  if high and row[3] then return dark and row[4] or row[3] end
  return dark and row[2] or row[1]
end

local function check(palette)
  local n = 0
  for name, row in pairs(palette) do
    for _, style in ipairs { "unspecified", "light", "dark" } do
      for _, contrast in ipairs { "unspecified", "normal", "high" } do
        for _, level in ipairs { "unspecified", "base", "elevated" } do
          local got = tostring(ui.Color[name]:resolvedColor(tc(style, contrast, level)))
          local want = expected(row, style, contrast, level)
          assert.are.equal(want, got, ("%s (%s, %s, %s)"):format(name, style, contrast, level))
          n = n + 1
        end
      end
    end
  end
  return n
end

describe("system colours", function()
  it("cover the set UIKit documents: tints, greys, labels, fills, separators, link, backgrounds", function()
    local names = {}
    for _, n in ipairs(ui.Color.names()) do names[n] = true end
    for n in pairs(hig26) do assert.is_true(names[n], n) end
    for n in pairs(common) do assert.is_true(names[n], n) end
    assert.are.equal(36, #ui.Color.names())
  end)

  it("resolve the whole palette by style, contrast and level (iOS 26's values)", function()
    if ui.ios ~= "26.0" then return end
    assert.are.equal(12 * 27, check(hig26))
    check(common)
  end)

  it("resolve the earlier values before iOS 26 (HIG before June 2025)", function()
    if ui.ios == "26.0" then return end
    check(hig18)
    check(common)
  end)

  it("tostring of a resolved colour is sRGB hex, #RRGGBBAA below full opacity", function()
    assert.are.equal("#1C1C1E", tostring(ui.Color.systemBackground:resolvedColor(tc("dark", "normal", "elevated"))))
    assert.are.equal("#3C3C4399", tostring(ui.Color.secondaryLabel:resolvedColor(tc("light"))))
    assert.are.equal("Color(systemBackground)", tostring(ui.Color.systemBackground))
    assert.are.equal("systemBackground", ui.Color.systemBackground.name)
    assert.is_true(ui.Color.systemBackground.isDynamic)
  end)

  it("an unknown system colour is an error naming it", function()
    local ok, err = pcall(function() return ui.Color.systemGrey end)
    assert.is_false(ok)
    assert.matches("no system colour 'systemGrey'", err)
  end)

  -- UITraitCollection.systemTraitsAffectingColorAppearance: the system
  -- traits that affect colour appearance. The colours TraitLab resolves read
  -- style, contrast and level (system colours) and idiom and gamut too
  -- (asset catalogue colours); Apple's list also names activeAppearance,
  -- which the inactive-window colours of Mac Catalyst read and no iOS
  -- system colour or colour set does.
  it("systemTraitsAffectingColorAppearance is the traits these colours read", function()
    local set = {}
    for _, d in ipairs(traits.systemTraitsAffectingColorAppearance) do set[d.property] = true end
    for _, p in ipairs { "userInterfaceStyle", "accessibilityContrast", "userInterfaceLevel", "userInterfaceIdiom", "displayGamut" } do
      assert.is_true(set[p], p)
    end
    set.activeAppearance = nil
    local n = 0
    for _ in pairs(set) do n = n + 1 end
    assert.are.equal(5, n)
  end)

  it("a view's background re-resolves at the update where its traits change, elevated when presented", function()
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController { name = "root" }
    window.rootViewController = root
    root.view.backgroundColor = ui.Color.systemBackground
    local sheet = ui.ViewController { name = "sheet" }
    root:present(sheet)
    sheet.view.backgroundColor = ui.Color.systemBackground
    ui.update()
    assert.are.equal("#FFFFFF", tostring(root.view.resolvedBackgroundColor))
    scene.screen:setTraits { userInterfaceStyle = "dark" }
    -- Nothing changes until the update.
    assert.are.equal("#FFFFFF", tostring(root.view.resolvedBackgroundColor))
    ui.update()
    assert.are.equal("#000000", tostring(root.view.resolvedBackgroundColor))
    assert.are.equal("#1C1C1E", tostring(sheet.view.resolvedBackgroundColor))
    assert.matches("backgroundColor systemBackground → #1C1C1E %(dark, elevated%)", ui.dump(sheet.view))
  end)

  -- UIView.tintColor (Apple's page): "The first nondefault tint color value
  -- in the view's hierarchy, ascending from and starting with the view
  -- itself"; with none, the system's default tint, blue.
  it("tintColor is inherited down the hierarchy, systemBlue by default", function()
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local root = ui.ViewController {}
    window.rootViewController = root
    local card, button = ui.View { name = "card" }, ui.View { name = "button" }
    card:addSubview(button)
    root.view:addSubview(card)
    ui.update()
    assert.are.equal(tostring(ui.Color.systemBlue:resolvedColor(button.traitCollection)), tostring(button.resolvedTintColor))
    card.tintColor = ui.Color.systemPink
    assert.are.equal(tostring(ui.Color.systemPink:resolvedColor(button.traitCollection)), tostring(button.resolvedTintColor))
    assert.is_nil(button.tintColor)
    button.overrideUserInterfaceStyle = "dark"
    ui.update()
    assert.are.equal(tostring(ui.Color.systemPink:resolvedColor(tc("dark"))), tostring(button.resolvedTintColor))
  end)
end)

-- Dynamic Type (docs/guide.md, "Dynamic Type"): text styles at every content
-- size category, UIFontMetrics, the ordering of categories, labels that
-- re-scale, and the limits a view puts on the category below it. Each rule
-- names its source beside it.

local CATEGORIES = {
  "extraSmall", "small", "medium", "large", "extraLarge", "extraExtraLarge", "extraExtraExtraLarge",
  "accessibilityMedium", "accessibilityLarge", "accessibilityExtraLarge", "accessibilityExtraExtraLarge",
  "accessibilityExtraExtraExtraLarge",
}

-- The HIG's Dynamic Type tables (Typography > Specifications > "iOS, iPadOS
-- Dynamic Type sizes" and "iOS, iPadOS larger accessibility type sizes"),
-- https://developer.apple.com/design/human-interface-guidelines/typography:
-- point size / leading per category, in CATEGORIES' order, written out here
-- apart from the engine's table so that each is checked against the other.
local HIG = {
  largeTitle  = { "regular", { 31, 38 }, { 32, 39 }, { 33, 40 }, { 34, 41 }, { 36, 43 }, { 38, 46 }, { 40, 48 }, { 44, 52 }, { 48, 57 }, { 52, 61 }, { 56, 66 }, { 60, 70 } },
  title1      = { "regular", { 25, 31 }, { 26, 32 }, { 27, 33 }, { 28, 34 }, { 30, 37 }, { 32, 39 }, { 34, 41 }, { 38, 46 }, { 43, 51 }, { 48, 57 }, { 53, 62 }, { 58, 69 } },
  title2      = { "regular", { 19, 24 }, { 20, 25 }, { 21, 26 }, { 22, 28 }, { 24, 30 }, { 26, 32 }, { 28, 34 }, { 34, 41 }, { 39, 47 }, { 44, 52 }, { 50, 59 }, { 56, 66 } },
  title3      = { "regular", { 17, 22 }, { 18, 23 }, { 19, 24 }, { 20, 25 }, { 22, 28 }, { 24, 30 }, { 26, 32 }, { 31, 38 }, { 37, 44 }, { 43, 51 }, { 49, 58 }, { 55, 65 } },
  headline    = { "semibold", { 14, 19 }, { 15, 20 }, { 16, 21 }, { 17, 22 }, { 19, 24 }, { 21, 26 }, { 23, 29 }, { 28, 34 }, { 33, 40 }, { 40, 48 }, { 47, 56 }, { 53, 62 } },
  body        = { "regular", { 14, 19 }, { 15, 20 }, { 16, 21 }, { 17, 22 }, { 19, 24 }, { 21, 26 }, { 23, 29 }, { 28, 34 }, { 33, 40 }, { 40, 48 }, { 47, 56 }, { 53, 62 } },
  callout     = { "regular", { 13, 18 }, { 14, 19 }, { 15, 20 }, { 16, 21 }, { 18, 23 }, { 20, 25 }, { 22, 28 }, { 26, 32 }, { 32, 39 }, { 38, 46 }, { 44, 52 }, { 51, 60 } },
  subheadline = { "regular", { 12, 16 }, { 13, 18 }, { 14, 19 }, { 15, 20 }, { 17, 22 }, { 19, 24 }, { 21, 28 }, { 25, 31 }, { 30, 37 }, { 36, 43 }, { 42, 50 }, { 49, 58 } },
  footnote    = { "regular", { 12, 16 }, { 12, 16 }, { 12, 16 }, { 13, 18 }, { 15, 20 }, { 17, 22 }, { 19, 24 }, { 23, 29 }, { 27, 33 }, { 33, 40 }, { 38, 46 }, { 44, 52 } },
  caption1    = { "regular", { 11, 13 }, { 11, 13 }, { 11, 13 }, { 12, 16 }, { 14, 19 }, { 16, 21 }, { 18, 23 }, { 22, 28 }, { 26, 32 }, { 32, 39 }, { 37, 44 }, { 43, 51 } },
  caption2    = { "regular", { 11, 13 }, { 11, 13 }, { 11, 13 }, { 11, 13 }, { 13, 18 }, { 15, 20 }, { 17, 22 }, { 20, 25 }, { 24, 30 }, { 29, 35 }, { 34, 41 }, { 40, 48 } },
}

-- Each test starts from the default text size on the main screen (one world per file).
before_each(function()
  ui.Screen.main:setTraits { preferredContentSizeCategory = "large" }
  ui.update()
end)

local function at(category)
  return traits.collection { preferredContentSizeCategory = category }
end

-- A window on the main screen holding `views` in its root view, updated.
local function window(...)
  local scene = ui.WindowScene {}
  local w = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  w.rootViewController = root
  for _, v in ipairs { ... } do root.view:addSubview(v) end
  ui.update()
  return root
end

describe("ui.Font.preferred (UIFont.preferredFont(forTextStyle:compatibleWith:))", function()
  for style, row in pairs(HIG) do
    it(style .. " has the HIG's size, leading and weight at every category", function()
      for i, category in ipairs(CATEGORIES) do
        local font = ui.Font.preferred(style, at(category))
        assert.are.same({ row[i + 1][1], row[i + 1][2], row[1], style },
          { font.pointSize, font.leading, font.weight, font.textStyle }, style .. " at " .. category)
      end
    end)
  end

  it("body at large is 17 pt, the HIG's default size (Large is marked as the default)", function()
    assert.equal(17, ui.Font.preferred("body").pointSize)
    assert.equal("Font(body 17 pt)", tostring(ui.Font.preferred("body", at("large"))))
  end)

  it("an unspecified category reads as traits.current's (TraitLab's choice: Apple is silent)", function()
    assert.equal(17, ui.Font.preferred("body", at("unspecified")).pointSize)
  end)

  it("refuses unknown styles, naming the styles", function()
    assert.has_error(function() ui.Font.preferred("huge") end)
    local ok, err = pcall(ui.Font.preferred, "huge")
    assert.is_false(ok)
    assert.matches("largeTitle", err)
  end)

  -- UIFont.TextStyle.extraLargeTitle and extraLargeTitle2: iOS 17.0+. The HIG gives
  -- their sizes only in its visionOS table; at the default category UIKit on iOS 17
  -- returns 36 pt and 28 pt bold (measured, published at iosfontsizes.com); other
  -- categories scale as largeTitle and title1 do (docs/guide.md: TraitLab's decision).
  it("gives the iOS 17 extra large titles their measured default sizes, scaled like largeTitle and title1", function()
    local xl, xl2 = ui.Font.preferred("extraLargeTitle", at("large")), ui.Font.preferred("extraLargeTitle2", at("large"))
    assert.are.equal(36, xl.pointSize)
    assert.are.equal("bold", xl.weight)
    assert.are.equal(28, xl2.pointSize)
    assert.are.equal("bold", xl2.weight)
    -- largeTitle is 34 at Large and 60 at AX5: 36 x 60/34 = 63.5, rounded to 64
    assert.are.equal(64, ui.Font.preferred("extraLargeTitle", at("accessibilityExtraExtraExtraLarge")).pointSize)
    -- title1 is 28 at Large and 25 at xSmall: extraLargeTitle2 follows it exactly
    assert.are.equal(25, ui.Font.preferred("extraLargeTitle2", at("extraSmall")).pointSize)
    assert.are.equal(ui.Font.preferred("title1", at("accessibilityMedium")).pointSize,
      ui.Font.preferred("extraLargeTitle2", at("accessibilityMedium")).pointSize)
  end)
end)

describe("ui.FontMetrics (UIFontMetrics)", function()
  it("scaledValue scales as the style's point size does (TraitLab's formula: Apple publishes none)", function()
    local m = ui.FontMetrics("body")
    assert.equal(24, m:scaledValue(24, at("large")))
    assert.equal(24 * 53 / 17, m:scaledValue(24, at("accessibilityExtraExtraExtraLarge")))
    assert.equal(24 * 14 / 17, m:scaledValue(24, at("extraSmall")))
  end)

  it("scaledFont scales a custom font and stops at maximumPointSize", function()
    local m = ui.FontMetrics("title1")
    local f = m:scaledFont(ui.Font.system(28, "bold"), nil, at("accessibilityExtraExtraExtraLarge"))
    assert.equal(58, f.pointSize)
    assert.equal("bold", f.weight)
    assert.equal(40, m:scaledFont(ui.Font.system(28, "bold"), 40, at("accessibilityExtraExtraExtraLarge")).pointSize)
  end)
end)

describe("ui.ContentSizeCategory", function()
  -- UIContentSizeCategory is Comparable: "<" compares sizes, not the strings
  -- (https://developer.apple.com/documentation/uikit/uicontentsizecategory).
  it("compare orders categories as UIKit does, where strings compare by letters", function()
    assert.is_false("large" < "accessibilityMedium")
    assert.equal(-1, ui.ContentSizeCategory.compare("large", "accessibilityMedium"))
    assert.equal(0, ui.ContentSizeCategory.compare("large", "large"))
    assert.equal(1, ui.ContentSizeCategory.compare("extraExtraExtraLarge", "extraSmall"))
    for i = 1, #CATEGORIES - 1 do
      assert.equal(-1, ui.ContentSizeCategory.compare(CATEGORIES[i], CATEGORIES[i + 1]))
    end
  end)

  it("all lists the twelve categories in UIKit's order", function()
    assert.are.same(CATEGORIES, ui.ContentSizeCategory.all)
  end)

  -- isAccessibilityCategory: "associated with accessibility": the five larger sizes.
  it("isAccessibilityCategory is true for the five accessibility sizes only", function()
    for i, c in ipairs(CATEGORIES) do
      assert.equal(i >= 8, ui.ContentSizeCategory.isAccessibilityCategory(c), c)
    end
  end)

  it("is read-only and refuses unknown names", function()
    -- (The write luacheck refuses is the point: the run-time refusal.)
    assert.has_error(function() ui.ContentSizeCategory.large = "x" end) -- luacheck: ignore 122
    assert.has_error(function() return ui.ContentSizeCategory.compare("large", "huge") end)
    assert.equal("large", ui.ContentSizeCategory.large)
  end)
end)

describe("ui.Label", function()
  -- adjustsFontForContentSizeCategory: the label updates its font "when the
  -- device's content size category changes" (UIContentSizeCategoryAdjusting).
  it("re-scales at the update where the category changes, not before", function()
    local label = ui.Label { font = ui.Font.preferred("body"), adjustsFontForContentSizeCategory = true }
    window(label)
    assert.equal(17, label.font.pointSize)
    ui.Screen.main:setTraits { preferredContentSizeCategory = "accessibilityExtraExtraExtraLarge" }
    assert.equal(17, label.font.pointSize)
    ui.update()
    assert.equal(53, label.font.pointSize)
    assert.equal("Font(body 53 pt)", tostring(label.font))
  end)

  it("keeps its font's size without adjustsFontForContentSizeCategory (UIKit's default: false)", function()
    local label = ui.Label { font = ui.Font.preferred("body") }
    window(label)
    ui.Screen.main:setTraits { preferredContentSizeCategory = "extraExtraExtraLarge" }
    ui.update()
    assert.equal(17, label.font.pointSize)
    assert.is_false(label.adjustsFontForContentSizeCategory)
  end)

  it("resolves its text colour against its own traits", function()
    local color = ui.Color.dynamic(function(tc)
      return tc.userInterfaceStyle == "dark" and ui.Color("#FFFFFF") or ui.Color("#000000")
    end)
    local label = ui.Label { textColor = color, text = "Hello" }
    window(label)
    assert.equal("#000000", label.resolvedTextColor.hex)
    label.overrideUserInterfaceStyle = "dark"
    ui.update()
    assert.equal("#FFFFFF", label.resolvedTextColor.hex)
    assert.equal(color, label.textColor)
  end)

  it("refuses fonts that are not ui.Font values", function()
    assert.has_error(function() ui.Label { font = 17 } end)
    assert.has_error(function() ui.View {}.font = ui.Font.preferred("body") end)
  end)
end)

describe("minimumContentSizeCategory and maximumContentSizeCategory (UIView, iOS 15)", function()
  -- "limits the content size category of the view's trait collection and
  -- those of its descendants" (UIView.minimumContentSizeCategory).
  it("clamp the category of the view and everything below it", function()
    local card = ui.View { name = "card", maximumContentSizeCategory = "extraExtraLarge" }
    local label = ui.Label { font = ui.Font.preferred("body"), adjustsFontForContentSizeCategory = true }
    card:addSubview(label)
    local root = window(card)
    ui.Screen.main:setTraits { preferredContentSizeCategory = "accessibilityExtraExtraExtraLarge" }
    ui.update()
    assert.has_trait(root.view, "preferredContentSizeCategory", "accessibilityExtraExtraExtraLarge")
    assert.has_trait(card, "preferredContentSizeCategory", "extraExtraLarge")
    assert.has_trait(label, "preferredContentSizeCategory", "extraExtraLarge")
    assert.equal(21, label.font.pointSize)
  end)

  it("raise a small category to the minimum", function()
    local card = ui.View { minimumContentSizeCategory = "large" }
    window(card)
    ui.Screen.main:setTraits { preferredContentSizeCategory = "extraSmall" }
    ui.update()
    assert.has_trait(card, "preferredContentSizeCategory", "large")
  end)

  it("apply after the view's own override and to a descendant's (TraitLab's reading: a limit nothing escapes)", function()
    local card = ui.View { maximumContentSizeCategory = "large" }
    local inner = ui.View {}
    card:addSubview(inner)
    window(card)
    card.traitOverrides.preferredContentSizeCategory = "accessibilityLarge"
    inner.traitOverrides.preferredContentSizeCategory = "accessibilityMedium"
    ui.update()
    assert.has_trait(card, "preferredContentSizeCategory", "large")
    assert.has_trait(inner, "preferredContentSizeCategory", "large")
  end)

  it("lifted, let the category through at the next update", function()
    local card = ui.View { maximumContentSizeCategory = "large" }
    window(card)
    ui.Screen.main:setTraits { preferredContentSizeCategory = "accessibilityLarge" }
    ui.update()
    card.maximumContentSizeCategory = nil
    assert.has_trait(card, "preferredContentSizeCategory", "large")
    ui.update()
    assert.has_trait(card, "preferredContentSizeCategory", "accessibilityLarge")
  end)

  it("refuse a value that is no category", function()
    assert.has_error(function() ui.View { minimumContentSizeCategory = "huge" } end)
  end)
end)

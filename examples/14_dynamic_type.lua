-- Dynamic Type: a card with a title and a body label, walked through every
-- content size category, then clamped so the card stays readable in a
-- small space. Sizes are the HIG's Dynamic Type tables; the clamp is
-- UIView.maximumContentSizeCategory (iOS 15).
--
--   traitlab examples/14_dynamic_type.lua

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root

local card = ui.View { name = "card" }
local title = ui.Label { name = "title", text = "Inbox",
  font = ui.Font.preferred("title1"), adjustsFontForContentSizeCategory = true }
local body = ui.Label { name = "body", text = "3 unread messages",
  font = ui.Font.preferred("body"), adjustsFontForContentSizeCategory = true }
card:addSubview(title)
card:addSubview(body)
root.view:addSubview(card)
ui.update()

local function walk(heading)
  print(heading)
  for _, category in ipairs(ui.ContentSizeCategory.all) do
    ui.Screen.main:setTraits { preferredContentSizeCategory = category }
    ui.update()   -- the labels re-scale at this update
    print(string.format("  %-34s title %2d pt  body %2d pt%s", category, title.font.pointSize, body.font.pointSize,
      ui.ContentSizeCategory.isAccessibilityCategory(category) and "  (accessibility size)" or ""))
  end
end

walk("unclamped:")

-- The card allows no more than extraExtraLarge: the labels below it follow.
card.maximumContentSizeCategory = "extraExtraLarge"
card.minimumContentSizeCategory = "small"
walk("clamped to small ... extraExtraLarge:")

print("compare large with accessibilityMedium: " .. ui.ContentSizeCategory.compare("large", "accessibilityMedium")
  .. " (the strings compare " .. tostring("large" < "accessibilityMedium") .. ")")
print("a 24 pt spacing scaled as title1 at AX5: "
  .. string.format("%.1f", ui.FontMetrics("title1"):scaledValue(24, traits.collection { preferredContentSizeCategory = "accessibilityExtraExtraExtraLarge" })))
print(ui.dump(card))

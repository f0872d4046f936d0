-- "Use traits during layout" (WWDC23, Unleash the UIKit trait system): a view
-- updates its traits immediately before it lays out, so a parent can configure
-- a child in its own layoutSubviews, and the child sees that in the same update.
--
-- Here a card picks its badge's theme from the size class it was laid out with.
-- The badge's handler runs after card.layoutSubviews (the badge is visited after
-- its superview), and the badge lays out once, already with the new theme.
-- Run: traitlab examples/10_layout_configures_child.lua

local BadgeTheme = traits.enum("BadgeTheme", { "standard", "bold" })
local Theme = traits.define { name = "BadgeTheme", default = BadgeTheme.standard, type = BadgeTheme }

local screen = ui.Screen { horizontalSizeClass = "compact" }
local scene = ui.WindowScene { screen = screen }
local window = ui.Window { windowScene = scene }
local root = ui.ViewController {}
window.rootViewController = root

local cardLayouts, badgeLayouts = 0, 0
local card = ui.View { name = "card" }
local badge = ui.View { name = "badge" }
card:addSubview(badge)
root.view:addSubview(card)

card.layoutSubviews = function(self)
  cardLayouts = cardLayouts + 1
  -- Read during layout: tracked, so a size-class change lays the card out again.
  local regular = self.traitCollection.horizontalSizeClass == "regular"
  print("card layoutSubviews: horizontalSizeClass = " .. self.traitCollection.horizontalSizeClass)
  badge.traitOverrides[Theme] = regular and BadgeTheme.bold or BadgeTheme.standard
end
badge.layoutSubviews = function(self)
  badgeLayouts = badgeLayouts + 1
  print("badge layoutSubviews: theme = " .. self.traitCollection[Theme])
end
badge:registerForTraitChanges({ Theme }, function(self, previous)
  print(("badge handler: %s -> %s, after card.layoutSubviews"):format(previous[Theme], self.traitCollection[Theme]))
end)

ui.update()
print("-- the device rotates: regular width")
cardLayouts, badgeLayouts = 0, 0
screen:setTraits { horizontalSizeClass = "regular" }
ui.update()
print(("card layoutSubviews ran %d time, badge layoutSubviews ran %d time"):format(cardLayouts, badgeLayouts))

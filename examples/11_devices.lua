-- Devices, orientations and scene sizes: an iPad scene goes from full screen
-- to Split View, Slide Over and back, then the iPad turns, and a view prints
-- what it sees at each step (docs/devices.md). The size classes come from Apple's
-- tables (docs/devices.md): the layout guidelines' device size classes, their
-- multitasking table for Split View, and Slide Over's compact width.
-- Run: traitlab examples/11_devices.lua   (with -i, then `:tree mail`, `:why list horizontalSizeClass`)
--      traitlab --ios 17 examples/11_devices.lua    (the same on iOS 17)
--      traitlab --device "iPad Pro 13-inch (M5)" examples/11_devices.lua   (another iPad)

-- The iPad: the main screen when --device chose an iPad, else a 12.9-inch iPad Pro.
local ipad = ui.Screen.main
if ipad.traitCollection.userInterfaceIdiom == "pad" then
  ipad.orientation = "landscapeLeft"
else
  ipad = ui.Screen { name = "ipad", device = "iPad Pro 12.9-inch (6th generation)", orientation = "landscapeLeft" }
end
local scene = ui.WindowScene { name = "mail", screen = ipad }
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "inbox" }
window.rootViewController = root
local list = ui.View { name = "list" }
root.view:addSubview(list)

-- The list lays itself out as a sidebar or as a single column, from the
-- horizontal size class it reads in layoutSubviews (tracked automatically
-- from iOS 18; on earlier versions a registration asks for the layout).
function list:layoutSubviews()
  self.style = self.traitCollection.horizontalSizeClass == "regular" and "sidebar" or "single column"
end
if not ui.available("18.0") then
  list:registerForTraitChanges({ traits.HorizontalSizeClass }, { action = "setNeedsLayout" })
end
list:setNeedsLayout()

local function show(step)
  ui.update()
  local tc = list.traitCollection
  local bounds = scene.bounds
  local size = type(scene.size) == "table" and "window" or scene.size
  print(("%-32s %-9s %4dx%-4d  %-7s width, %-7s height  -> %s"):format(step, size,
    bounds.width, bounds.height, tc.horizontalSizeClass, tc.verticalSizeClass, list.style))
end

print(("%s, iOS %s"):format(ipad.device, ui.ios))
show("full screen, landscape")
scene.size = "2/3"
show("Split View, two thirds")
scene.size = "1/2"
show("Split View, half")
scene.size = "1/3"
show("Split View, one third")
scene.size = "slideOver"
show("Slide Over")
scene.size = { width = 700, height = 900 }
show("Stage Manager window")
scene.size = "full"
show("full screen again")
ipad.orientation = "portrait"
show("turned to portrait")
scene.size = "2/3"
show("portrait, two thirds")
print()
print(ui.dump(ipad))

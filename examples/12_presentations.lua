-- Presents a sheet and a popover on an iPad and on an iPhone, and prints what
-- each sees and why. Presented content inherits through the window that shows
-- it, not from the presenting controller (Apple, UIView.overrideUserInterfaceStyle:
-- a window's style reaches "all presentation controllers that display content
-- in that window"); styles adapt to the window's size classes.

local function show(deviceName, screenTraits)
  local screen = ui.Screen(screenTraits)
  local window = ui.Window { name = deviceName .. " window", windowScene = ui.WindowScene { screen = screen } }
  local root = ui.ViewController { name = deviceName .. " root" }
  window.rootViewController = root
  root.overrideUserInterfaceStyle = "dark"          -- reaches root's views, not what it presents

  local sheet = ui.ViewController { name = deviceName .. " sheet", modalPresentationStyle = "formSheet" }
  root:present(sheet)
  ui.update()
  local function report(vc)
    local pc = vc.presentationController
    local tc = vc.view.traitCollection
    print(("%-8s %-10s asked %-9s shown %-10s style=%-5s level=%s"):format(deviceName, vc.name:match("%S+$"),
      pc.presentationStyle, pc.adaptivePresentationStyle, tc.userInterfaceStyle, tc.userInterfaceLevel))
  end
  report(sheet)
  sheet:dismiss()

  local popover = ui.ViewController { name = deviceName .. " popover", modalPresentationStyle = "popover" }
  root:present(popover)
  ui.update()
  report(popover)
  print(("%-8s root's own view: style=%s"):format(deviceName, root.view.traitCollection.userInterfaceStyle))
  return popover
end

local ipad = show("iPad", { device = "iPad Pro 13-inch (M5)", userInterfaceStyle = "light" })
show("iPhone", { device = "iPhone 15 Pro", userInterfaceStyle = "light" })

-- Why: the chain each value came from (what `:why` shows in the REPL).
print("why the iPad popover's level:")
local e = ipad.view
while e do
  local own = e.traitParent and e.traitCollection.userInterfaceLevel ~= e.traitParent.traitCollection.userInterfaceLevel
  print(("  %-40s userInterfaceLevel=%s%s"):format(tostring(e), e.traitCollection.userInterfaceLevel,
    own and "  <- set here (a popover's content is elevated)" or ""))
  e = e.traitParent
end

-- The talk's first bridging example: a trait override on the window scene,
-- read by SwiftUI cell views hosted in collection-view cells
-- (UIHostingConfiguration), through a bridged environment key.
-- Run: traitlab examples/swiftui_cell.lua

local Theme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
traits.define { name = "MyAppTheme", default = Theme.standard, property = "myAppTheme" }

-- EnvironmentValues.myAppTheme, bridged to the trait (UITraitBridgedEnvironmentKey).
local ThemeKey = swiftui.EnvironmentKey { name = "myAppTheme", default = Theme.standard }
swiftui.bridge(ThemeKey, {
  read = function(traitCollection) return traitCollection.myAppTheme end,
  write = function(mutableTraits, value) mutableTraits.myAppTheme = value end,
})

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local list = ui.ViewController { name = "list" }
window.rootViewController = list
local collectionView = ui.View { name = "collectionView" }
list.view:addSubview(collectionView)

-- Three cells, each hosting its own CellView.
local cells, cellViews = {}, {}
for i = 1, 3 do
  cellViews[i] = swiftui.View { name = "CellView " .. i,
    body = function(env) return env.myAppTheme == "monochrome" and "gray" or "blue" end }
  cells[i] = ui.View { name = "cell " .. i }
  cells[i].contentConfiguration = swiftui.HostingConfiguration(cellViews[i])
  collectionView:addSubview(cells[i])
end

local function show(i)
  local v = cellViews[i]
  return ("%s rendered %s (body ran %d time%s)"):format(v.name, tostring(v.rendered), v.bodyCount, v.bodyCount == 1 and "" or "s")
end

print("before ui.update(): " .. show(1))
ui.update()
print("first update:       " .. show(1))

scene.traitOverrides.myAppTheme = "monochrome"
ui.update()
print("scene.traitOverrides.myAppTheme = \"monochrome\"")
print("  UIKit:   window scene -> window -> list -> collectionView -> cell 1: myAppTheme = "
  .. cells[1].traitCollection.myAppTheme)
print("  bridge:  read(cell 1 traits) -> CellView 1 environment.myAppTheme = " .. cellViews[1].environment.myAppTheme)
print("  SwiftUI: " .. show(1))

cells[2].traitOverrides.myAppTheme = "pastel"
ui.update()
print("cell 2 override myAppTheme = \"pastel\": " .. show(2) .. "; " .. show(1))

scene.traitOverrides.userInterfaceStyle = "dark"
ui.update()
print("dark mode: CellView 1 sees colorScheme = " .. cellViews[1].environment.colorScheme
  .. ", but its body never read it: " .. show(1))

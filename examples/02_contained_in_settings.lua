-- A custom Boolean trait with property syntax: ContainedInSettingsTrait.
-- Run: traitlab examples/02_contained_in_settings.lua

local ContainedInSettings = traits.define {
  name = "ContainedInSettings",
  default = false,
  property = "isContainedInSettings",   -- traitCollection.isContainedInSettings
}
print("defined " .. tostring(ContainedInSettings) .. " (default " .. tostring(ContainedInSettings.default) .. ")")

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local settings = ui.ViewController { name = "settings" }
window.rootViewController = settings
local row = ui.View { name = "row" }
settings.view:addSubview(row)

-- The settings screen marks everything below it.
settings.traitOverrides.isContainedInSettings = true
ui.update()

print("row.traitCollection.isContainedInSettings = " .. tostring(row.traitCollection.isContainedInSettings))
print("same through the definition:                " .. tostring(row.traitCollection[ContainedInSettings]))
print("window (above the override):                " .. tostring(window.traitCollection.isContainedInSettings))

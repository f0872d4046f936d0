-- The talk's second bridging example: a SwiftUI `.environment(\.myAppTheme, .standard)`
-- read by a UIKit settings view controller inside a UIViewControllerRepresentable.
-- Run: traitlab examples/swiftui_settings.lua

local Theme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
traits.define { name = "MyAppTheme", default = Theme.standard, property = "myAppTheme" }

local ThemeKey = swiftui.EnvironmentKey { name = "myAppTheme", default = Theme.standard }
swiftui.bridge(ThemeKey, {
  read = function(traitCollection) return traitCollection.myAppTheme end,
  write = function(mutableTraits, value)
    print("  bridge:  write(" .. value .. ") into the settings controller's traits")
    mutableTraits.myAppTheme = value
  end,
})
-- A key that stays on the SwiftUI side.
swiftui.EnvironmentKey { name = "accent", default = "blue" }

-- The UIKit screen: it only knows traits.
local settingsVC = ui.ViewController { name = "SettingsViewController",
  viewIsAppearing = function(self)
    print("  UIKit:   SettingsViewController.viewIsAppearing sees myAppTheme = " .. self.traitCollection.myAppTheme)
  end,
  traitCollectionDidChange = function(self, previous)
    if previous.myAppTheme ~= self.traitCollection.myAppTheme then
      print(("  UIKit:   SettingsViewController theme changed %s -> %s"):format(previous.myAppTheme, self.traitCollection.myAppTheme))
    end
  end,
}

local SettingsRepresentable = swiftui.ViewControllerRepresentable {
  name = "SettingsRepresentable",
  makeViewController = function(context)
    print("  SwiftUI: makeViewController, context.environment.myAppTheme = " .. context.environment.myAppTheme)
    return settingsVC
  end,
  updateViewController = function(vc, context)
    print("  SwiftUI: updateViewController, context.environment.myAppTheme = " .. context.environment.myAppTheme)
  end,
}
local settings = swiftui.View { name = "Settings", content = { SettingsRepresentable } }
settings:environment("myAppTheme", "standard")       -- .environment(\.myAppTheme, .standard)
settings:environment("accent", "red")

-- The app is themed pastel; its settings screen is always standard.
local scene = ui.WindowScene {}
scene.traitOverrides.myAppTheme = "pastel"
local window = ui.Window { windowScene = scene }
local host = ui.HostingController { name = "host", rootView = settings }
window.rootViewController = host

print("ui.update():")
ui.update()
print("window scene myAppTheme = " .. scene.traitCollection.myAppTheme
  .. ", hosting controller myAppTheme = " .. host.traitCollection.myAppTheme)
print("Settings environment myAppTheme = " .. settings.environment.myAppTheme .. " (the .environment modifier wins)")
print("SettingsViewController.traitCollection.myAppTheme = " .. settingsVC.traitCollection.myAppTheme)
print("SettingsViewController overrides: " .. tostring(settingsVC.traitOverrides))
print("unbridged key accent: Settings sees " .. settings.environment.accent
  .. "; it stays on the SwiftUI side (no trait carries it to SettingsViewController)")

print("settings:environment(\"myAppTheme\", \"bold\"); ui.update():")
settings:environment("myAppTheme", "bold")
ui.update()
print("SettingsViewController.traitCollection.myAppTheme = " .. settingsVC.traitCollection.myAppTheme)

print("settings:environment(\"colorScheme\", \"dark\"); ui.update():")
settings:environment("colorScheme", "dark")
ui.update()
print("built-in key maps back: SettingsViewController.traitCollection.userInterfaceStyle = "
  .. settingsVC.traitCollection.userInterfaceStyle .. " (window: " .. window.traitCollection.userInterfaceStyle .. ")")

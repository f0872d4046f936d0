-- Handling changes: closure and target-action registrations, a semantic set,
-- and manual unregistration (WWDC23 "Unleash the UIKit trait system").
-- Run: traitlab examples/07_registration.lua

local MyAppTheme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
local ThemeTrait = traits.define { name = "Theme", default = MyAppTheme.standard, property = "myAppTheme",
                                   affectsColorAppearance = true }

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local header = ui.View { name = "header" }
local label = ui.View { name = "label" }
root.view:addSubview(header)
header:addSubview(label)
ui.update()

-- 1. A closure on self, for two traits.
header:registerForTraitChanges({ traits.HorizontalSizeClass, ThemeTrait }, function(self, previous)
  print(("closure on %s: sizeClass %s -> %s, theme %s -> %s"):format(self.name,
    previous.horizontalSizeClass, self.traitCollection.horizontalSizeClass,
    previous.myAppTheme, self.traitCollection.myAppTheme))
end)

-- 2. A closure registered on another view: the header reacts to its label.
label:registerForTraitChanges({ ThemeTrait }, function(changed)
  print("header sees " .. changed.name .. " change theme to " .. changed.traitCollection.myAppTheme)
end)

-- 3. Target-action: the method is looked up when the change is delivered.
local controller = {
  updateColors = function(self, view, previous)
    print(("target-action updateColors on %s (style was %s)"):format(view.name, previous.userInterfaceStyle))
  end,
}
label:registerForTraitChanges(traits.systemTraitsAffectingColorAppearance, { target = controller, action = "updateColors" })

-- 4. A built-in action with the view itself as target.
local redraws = 0
label.draw = function() redraws = redraws + 1 end
label:registerForTraitChanges({ traits.LegibilityWeight }, { action = "setNeedsDisplay" })

print("-- theme changes at the scene")
scene.traitOverrides.myAppTheme = "bold"
ui.update()

print("-- size class changes at the window (only the header's closure cares)")
window.traitOverrides.horizontalSizeClass = "regular"
ui.update()

print("-- dark mode: a color-appearance trait")
scene.traitOverrides.userInterfaceStyle = "dark"
ui.update()

print("-- bold text: setNeedsDisplay as the action")
local before = redraws
scene.traitOverrides.legibilityWeight = "bold"
ui.update()
print("label redrawn: " .. tostring(redraws > before))

-- 5. Manual unregistration with the token.
print("-- elevated level: the header unregistered, the label's color-appearance set still fires")
local token = header:registerForTraitChanges({ traits.UserInterfaceLevel }, function() print("should not print") end)
header:unregisterForTraitChanges(token)
scene.traitOverrides.userInterfaceLevel = "elevated"
ui.update()
print("after unregistering: no call for userInterfaceLevel")
print(("handlers called in total: %d"):format(ui.stats().handlersCalled))

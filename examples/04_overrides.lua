-- Trait overrides on the window scene and on a deeper view, and the
-- contains/remove toggle from the talk.
-- Run: traitlab examples/04_overrides.lua

local MyAppTheme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
local MyAppThemeTrait = traits.define { name = "Theme", default = MyAppTheme.standard, property = "myAppTheme" }

local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local card = ui.View { name = "card" }
local label = ui.View { name = "label" }
root.view:addSubview(card)
card:addSubview(label)

-- The whole scene gets the pastel theme.
scene.traitOverrides.myAppTheme = MyAppTheme.pastel
ui.update()
print("after scene override: root.view=" .. root.view.traitCollection.myAppTheme .. " label=" .. label.traitCollection.myAppTheme)

-- One subtree is monochrome.
card.traitOverrides[MyAppThemeTrait] = MyAppTheme.monochrome
ui.update()
print("after card override:  root.view=" .. root.view.traitCollection.myAppTheme .. " label=" .. label.traitCollection.myAppTheme)

-- The toggle: remove the override if there is one, else set it.
local function toggle(view)
  if view.traitOverrides:contains(MyAppThemeTrait) then
    view.traitOverrides:remove(MyAppThemeTrait)
  else
    view.traitOverrides.myAppTheme = MyAppTheme.monochrome
  end
end
toggle(card); ui.update()
print("toggled off:          label=" .. label.traitCollection.myAppTheme .. " (contains=" .. tostring(card.traitOverrides:contains(MyAppThemeTrait)) .. ")")
toggle(card); ui.update()
print("toggled on:           label=" .. label.traitCollection.myAppTheme .. " (contains=" .. tostring(card.traitOverrides:contains(MyAppThemeTrait)) .. ")")
print()
print(ui.dump(scene))

-- A tour of TraitLab: the WWDC23 "Unleash the UIKit trait system" examples in
-- one script. `scripts/run.sh` runs it; every step prints what it shows.

local function step(title) print(("\n== %s"):format(title)) end

step("1. Trait collections are immutable values")
local tc = traits.collection(function(t)
  t.userInterfaceIdiom = "phone"
  t.horizontalSizeClass = "regular"
end)
local compact = tc:modifyingTraits(function(t) t.horizontalSizeClass = "compact" end)
print(tc)
print(compact)

step("2. A custom trait with property syntax")
local MyAppTheme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
local ThemeTrait = traits.define {
  name = "Theme", default = MyAppTheme.standard, type = MyAppTheme,
  identifier = "com.myapp.theme", affectsColorAppearance = true, property = "myAppTheme",
}
print(ThemeTrait, "default:", ThemeTrait.default, "identifier:", ThemeTrait.identifier)

step("3. A hierarchy: screen -> scene -> window -> view controller -> views")
local scene = ui.WindowScene {}            -- on ui.Screen.main
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local card = ui.View { name = "card" }
root.view:addSubview(card)
ui.update()
print("card idiom from the screen: " .. card.traitCollection.userInterfaceIdiom)

step("4. Overrides flow down at the next update")
scene.traitOverrides.myAppTheme = "pastel"
print("before ui.update(): " .. card.traitCollection.myAppTheme)
ui.update()
print("after  ui.update(): " .. card.traitCollection.myAppTheme)

step("5. Register for exactly the traits you use")
local calls = 0
card:registerForTraitChanges({ ThemeTrait }, function(view, previous)
  calls = calls + 1
  print(("  %s: theme %s -> %s"):format(view.name, previous.myAppTheme, view.traitCollection.myAppTheme))
end)
scene.traitOverrides.horizontalSizeClass = "regular"   -- not registered: no call
ui.update()
card.traitOverrides.myAppTheme = "monochrome"
ui.update()
print("handler calls: " .. calls)

step("6. The hierarchy: each node's overrides, and (was ...) where the last update changed a value")
io.write(ui.dump(scene))

-- `traitlab examples/tour.lua docs/tour.svg` draws the same hierarchy with
-- Graphviz, colouring how the theme's values flow (the README's picture).
if arg and arg[1] then
  step("7. The hierarchy as a picture")
  print("wrote " .. ui.picture(scene, arg[1], { trait = ThemeTrait }))
end

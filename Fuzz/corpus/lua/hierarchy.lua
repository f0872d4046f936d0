local Theme = traits.enum("Theme", { "standard", "pastel", "bold" })
local ThemeTrait = traits.define { name = "Theme", default = Theme.standard, affectsColorAppearance = true }
local screen = ui.Screen { userInterfaceIdiom = "phone", displayScale = 3 }
local scene = ui.WindowScene { screen = screen }
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local card = ui.View { name = "card" }
root.view:addSubview(card)
local child = ui.ViewController { name = "child" }
root:addChild(child)
card:addSubview(child.view)
scene.traitOverrides.theme = "pastel"
card.traitOverrides[ThemeTrait] = "bold"
ui.update()
assert(child.view.traitCollection.theme == "bold")
screen:setTraits { userInterfaceStyle = "dark" }
ui.hierarchyMode = "legacy"
ui.update()
child:removeFromParent()
card:removeFromSuperview()
ui.hierarchyMode = "ios17"
ui.update()

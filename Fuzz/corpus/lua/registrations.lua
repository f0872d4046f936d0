local screen = ui.Screen { userInterfaceStyle = "light" }
local window = ui.Window { windowScene = ui.WindowScene { screen = screen } }
local root = ui.ViewController {}
window.rootViewController = root
local calls = 0
local token = root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function(env, previous)
  calls = calls + 1
  env.traitOverrides.horizontalSizeClass = "regular"
end)
root.view:registerForTraitChanges(traits.systemTraitsAffectingColorAppearance, { action = "setNeedsLayout" })
root.view.layoutSubviews = function(self) local _ = self.traitCollection.userInterfaceStyle end
screen:setTraits { userInterfaceStyle = "dark" }
ui.update()
root.view:unregisterForTraitChanges(token)
root.view:unregisterForTraitChanges(token)
print(calls, ui.stats().handlersCalled)

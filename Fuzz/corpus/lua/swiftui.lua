local ThemeKey = swiftui.EnvironmentKey { name = "fuzzTheme", default = "standard" }
traits.define { name = "FuzzTheme", default = "standard" }
swiftui.bridge(ThemeKey, {
  read = function(tc) return tc.fuzzTheme end,
  write = function(m, v) m.fuzzTheme = v end,
})
local cell = swiftui.View { name = "Cell", body = function(env) return env.fuzzTheme end }
local window = ui.Window { windowScene = ui.WindowScene {} }
local host = ui.HostingController { rootView = cell }
window.rootViewController = host
window.traitOverrides.fuzzTheme = "bold"
ui.update()
print(cell.rendered, cell.bodyCount)

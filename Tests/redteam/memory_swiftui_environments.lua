-- A hosted SwiftUI view with an environment modifier gets environment values
-- of its own: its parent's and its modifier, merged. 1,000 keys set at the
-- root and one modifier on each of 5,000 views made 5,000 values of 1,000
-- entries inside one update (395 MB under a 16 MB cap with 2,000 keys).
-- Each is now asked for before it is made: "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
local keys = {}
for i = 1, 1000 do keys[i] = swiftui.EnvironmentKey { name = "k" .. i, default = 0 } end
local content = {}
for i = 1, 5000 do
  local v = swiftui.View { body = function(env) local _ = env[keys[1]] end }
  v:environment(keys[(i % 1000) + 1], i)
  content[i] = v
end
local root = swiftui.View { content = content }
local values = root.environment
for i = 1, 1000 do values(root, keys[i], i) end
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
window.rootViewController = ui.HostingController { rootView = root }
print("built")
ui.update()
print("ESCAPED: the update never stopped")

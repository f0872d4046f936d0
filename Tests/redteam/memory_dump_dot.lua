-- ui.dump(node, "dot") labels each environment with the traits the last
-- update changed there: 2,000 traits changed at a window, shown again on
-- each of its 5,000 views. The graph asks the cap for its text as it grows,
-- and stops early with "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController {}
window.rootViewController = root
for i = 1, 5000 do root.view:addSubview(ui.View {}) end
ui.update()
for i = 1, 2000 do
  local d = traits.define { name = "T" .. i, default = 0 }
  window.traitOverrides[d] = i
end
ui.update()
print("built")
local text = ui.dump(window, "dot")
print("ESCAPED: a graph of " .. #text .. " bytes under a 16 MB cap")

-- ui.dump(node, "full") lists every trait of every environment: 2,000 traits
-- set at a window, each shown again for each of its 5,000 views, made a text
-- far bigger than anything the script holds. The dump asks the cap for its
-- text as it grows, and stops early with "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
for i = 1, 2000 do
  local d = traits.define { name = "T" .. i, default = 0 }
  window.traitOverrides[d] = i
end
local root = ui.ViewController {}
window.rootViewController = root
for i = 1, 5000 do root.view:addSubview(ui.View {}) end
ui.update()
print("built")
local text = ui.dump(window, "full", 200)
print("ESCAPED: a dump of " .. #text .. " bytes under a 16 MB cap")

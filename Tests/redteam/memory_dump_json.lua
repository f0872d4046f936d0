-- ui.dump(node, "json") writes every value in full: one table value of
-- 20,000 numbers, held once by the engine and inherited by 2,000 views,
-- was written 2,000 times (200 MB) under a 16 MB cap. The dump asks the cap
-- for each value before it adds it, and stops early with "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
local Big = traits.define { name = "Big", type = "table", default = {} }
local t = {}
for i = 1, 20000 do t[i] = i end
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
window.traitOverrides[Big] = t
t = nil
local root = ui.ViewController {}
window.rootViewController = root
for i = 1, 2000 do root.view:addSubview(ui.View {}) end
ui.update()
print("built")
local text = ui.dump(window, "json")
print("ESCAPED: a dump of " .. #text .. " bytes under a 16 MB cap")

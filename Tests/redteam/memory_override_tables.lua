-- --memory-limit saw only Lua's heap: one table trait value, copied into
-- each view's overrides, grew the engine far past the cap while Lua's heap
-- stayed small. The engine's copies now count: the loop ends with "not
-- enough memory" and peak RSS stays within 3x the cap plus the empty process.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- rss-mb: 61
local Big = traits.define { name = "Big", type = "table", default = {} }
local t = {}
for i = 1, 2000 do t[i] = i end
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController {}
window.rootViewController = root
for i = 1, 1e6 do
  local v = ui.View {}
  v.traitOverrides[Big] = t
  root.view:addSubview(v)
end
print("ESCAPED: the cap never stopped the loop")

-- An update makes a collection for each environment with overrides: its
-- parent's entries and its own. 2,000 traits set at a window and one
-- override on each of many views made collections of 2,000 entries per
-- view inside one ui.update(). The update asks the cap for each collection
-- before it makes it, and stops with "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local first
for i = 1, 2000 do
  local d = traits.define { name = "T" .. i, default = 0 }
  first = first or d
  window.traitOverrides[d] = i
end
local root = ui.ViewController {}
window.rootViewController = root
for i = 1, 5000 do
  local v = ui.View {}
  v.traitOverrides[first] = -i
  root.view:addSubview(v)
end
print("built")
ui.update()
print("ESCAPED: the update never stopped")

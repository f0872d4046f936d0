-- A registration copies its list of traits: one Lua array of 2,000 traits
-- registered again and again grew the engine while Lua held only the
-- registrations. Each list is now asked for first.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local list = {}
for i = 1, 2000 do list[i] = traits.define { name = "T" .. i, default = 0 } end
local v = ui.View {}
local function handler() end
for i = 1, 1e6 do v:registerForTraitChanges(list, handler) end
print("ESCAPED: the cap never stopped the loop")

-- Trait collections made from table values and kept alive by Lua.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- rss-mb: 61
local Big = traits.define { name = "Big", type = "table", default = {} }
local t = {}
for i = 1, 4000 do t[i] = ("x"):rep(20) .. i end
local keep = {}
for i = 1, 1e6 do keep[i] = traits.collection { [Big] = t } end
print("ESCAPED: the cap never stopped the loop")

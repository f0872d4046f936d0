-- tc:modifyingTraits makes a new collection holding every entry of tc: one
-- collection of 2,000 traits, modified again and again, made collections of
-- 2,000 entries each while Lua held only their objects.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local values = {}
local first
for i = 1, 2000 do
  local d = traits.define { name = "T" .. i, default = 0 }
  first = first or d
  values[d] = i
end
local tc = traits.collection(values)
local keep = {}
for i = 1, 1e6 do
  keep[i] = tc:modifyingTraits(function(m) m[first] = -i end)
end
print("ESCAPED: the cap never stopped the loop")

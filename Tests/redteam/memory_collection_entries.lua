-- traits.collection copies one entry per trait: one Lua table setting 2,000
-- traits made collection after collection, each holding 2,000 entries while
-- Lua held only the collection object. The entries are now asked for first.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local values = {}
for i = 1, 2000 do values[traits.define { name = "T" .. i, default = 0 }] = i end
local keep = {}
for i = 1, 1e6 do keep[i] = traits.collection(values) end
print("ESCAPED: the cap never stopped the loop")

-- traits.enum with long case names: each enum copies them.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local long = ("c"):rep(100000)
local cases = { long .. "a", long .. "b", long .. "c" }
local keep = {}
for i = 1, 100000 do keep[i] = traits.enum("E" .. i, cases) end
print("ESCAPED: the cap never stopped the loop")

-- traits.enum copies its cases into the engine: one Lua table of 100,000
-- cases made enum after enum, each holding its own list and set of cases
-- while Lua held only the enum object. The cases are now asked for first.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- seconds: 60
local cases = {}
for i = 1, 100000 do cases[i] = "c" .. i end
local keep = {}
for i = 1, 100000 do keep[i] = traits.enum("E" .. i, cases) end
print("ESCAPED: the cap never stopped the loop")

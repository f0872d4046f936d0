-- traits.decode built the whole JSON tree, uncounted, before it looked at
-- it: a 7 MB document reached 138 MB under a 16 MB cap. The parser now asks
-- the cap for each value before it makes it, and stops early with "not
-- enough memory" (the document here is one a bigger cap would decode).
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
traits.define { name = "Items", type = "table", default = {}, identifier = "app.items" }
local parts = {}
for i = 1, 150000 do parts[i] = '{"a":[1,2,3],"b":"xx"}' end
local doc = '{"app.items":[' .. table.concat(parts, ",") .. ']}'
parts = nil
collectgarbage()
print("built")
local tc = traits.decode(doc)
print("ESCAPED: decoded " .. #tc.items .. " items under a 16 MB cap")

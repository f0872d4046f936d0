-- traits.decode of a big document with no cap, under an address-space
-- limit: the parsed tree took what the system had, and Swift stopped the
-- process on a small allocation ("failed to allocate 128 bytes", SIGABRT).
-- The parser asks for each value first: a clean "not enough memory", and
-- the script goes on.
-- ulimit-v: 250000
-- rss-mb: 300
-- stdout: ^after.true$
traits.define { name = "Items", type = "table", default = {}, identifier = "app.items" }
local parts = {}
for i = 1, 700000 do parts[i] = '{"a":[1,2,3],"b":"xx"}' end
local doc = '{"app.items":[' .. table.concat(parts, ",") .. ']}'
parts = nil
collectgarbage()
local ok, err = pcall(traits.decode, doc)
assert(not ok and err == "not enough memory", tostring(err))
doc = nil
collectgarbage()
print("after", traits.decode('{"app.items":[1]}') ~= nil)

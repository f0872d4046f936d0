-- Environments made until the system refuses memory (address space capped
-- with ulimit -v, no --memory-limit). Each one is a Lua object and engine
-- objects; the engine's allocations cannot fail (Swift stops the process),
-- so Lua's must fail first. With Lua's pages mapped apart from the heap, a
-- page taken when little address space was left made the engine's next
-- allocation fail: "Fatal error: failed to allocate", signal 11.
-- ulimit-v: 600000
-- rss-mb: 700
-- stdout: ^after.true$
local t = {}
local ok, err = pcall(function()
  for i = 1, 1e9 do t[i] = ui.View { name = "v" .. i } end
end)
assert(not ok and err == "not enough memory", tostring(err))
assert(#t > 1000)
t = nil
collectgarbage()
collectgarbage()
print("after", ui.View { name = "again" } ~= nil)

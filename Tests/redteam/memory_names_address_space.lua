-- The names of memory_names.lua with no cap, under an address-space limit:
-- the engine's copy of a name was the allocation the system refused, and
-- Swift stopped the process ("Fatal error: failed to allocate", SIGABRT).
-- Work the engine does for a script is now refused first, while the address
-- space still has room: a clean "not enough memory", and the script goes on
-- once its views are collected.
-- ulimit-v: 600000
-- rss-mb: 700
-- stdout: ^after.true$
local name = ("n"):rep(100000)
local keep = {}
local ok, err = pcall(function()
  for i = 1, 1e6 do
    local v = ui.View {}
    v.name = name
    keep[i] = v
  end
end)
assert(not ok and err == "not enough memory", tostring(err))
assert(#keep > 1000)
keep = nil
collectgarbage()
collectgarbage()
print("after", ui.View { name = name } ~= nil)

-- tc:encode() of a 30 MB value again and again, with no cap, under an
-- address-space limit: the JSON the engine writes was the allocation the
-- system refused ("failed to allocate 33554448 bytes", SIGABRT). It is now
-- asked for first, as is Lua's copy of what Swift pushes: a clean "not
-- enough memory", and the script goes on.
-- ulimit-v: 250000
-- rss-mb: 300
-- stdout: ^after.30000008$
local S = traits.define { name = "S", default = "", identifier = "s" }
local tc = traits.collection { [S] = ("x"):rep(30e6) }
collectgarbage()
local keep = {}
local ok, err = pcall(function() for i = 1, 10 do keep[i] = tc:encode() end end)
assert(not ok and err == "not enough memory", tostring(err))
keep = nil
collectgarbage()
print("after", #tc:encode())

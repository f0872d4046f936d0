-- A view's name is copied into the engine: one 100 KB Lua string given as the
-- name of view after view grew the engine to 315 MB under a 16 MB cap (names
-- were not counted, and the engine was measured only every 16,384 calls).
-- Each name is now asked for before it is copied.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local name = ("n"):rep(100000)
local keep = {}
for i = 1, 100000 do
  local v = ui.View {}
  v.name = name
  keep[i] = v
end
print("ESCAPED: the cap never stopped the loop")

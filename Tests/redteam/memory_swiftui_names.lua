-- A SwiftUI view's name is copied into the engine: one 100 KB Lua string as
-- the name of view after view was not counted. Each name is now asked for
-- before it is copied.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local name = ("n"):rep(100000)
local keep = {}
for i = 1, 100000 do keep[i] = swiftui.View { name = name } end
print("ESCAPED: the cap never stopped the loop")

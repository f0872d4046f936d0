-- swiftui.EnvironmentKey copies its name into the engine's registry of keys,
-- which keeps every key: names made and dropped by Lua stay in the engine.
-- Each name is now asked for before it is copied.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local name = ("k"):rep(100000)
for i = 1, 100000 do swiftui.EnvironmentKey { name = name .. i, default = 0 } end
print("ESCAPED: the cap never stopped the loop")

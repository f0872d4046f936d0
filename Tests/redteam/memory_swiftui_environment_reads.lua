-- Reading view.environment of a view not hosted yet makes its values then:
-- 1,500 modifiers set with view:environment(key, value), each call reading
-- view.environment first, left 1,500 values of up to 1,500 entries for the
-- collector, which saw only their small Lua objects (77 MB with 2,000 keys
-- under a 16 MB cap). They are now counted, and the engine memory of dead
-- objects is collected when the cap is reached: the loop finishes, within
-- the cap's promise.
-- args: --memory-limit 4M
-- stdout: ^done$
local keys = {}
for i = 1, 1500 do keys[i] = swiftui.EnvironmentKey { name = "k" .. i, default = 0 } end
local root = swiftui.View {}
for i = 1, 1500 do root:environment(keys[i], i) end
assert(root.environment[keys[1500]] == 1500)
print("done")

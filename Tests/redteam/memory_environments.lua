-- Environments kept by the tree (the engine holds them, not only Lua):
-- a million views under a 16 MB cap end with "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- rss-mb: 61
local root = ui.View {}
for i = 1, 1e7 do root:addSubview(ui.View {}) end
print("ESCAPED: the cap never stopped the loop")

-- The same through the name field of existing SwiftUI views (view.name = ...).
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
local name = ("n"):rep(100000)
local keep = {}
for i = 1, 100000 do
  local v = swiftui.View {}
  v.name = name
  keep[i] = v
end
print("ESCAPED: the cap never stopped the loop")

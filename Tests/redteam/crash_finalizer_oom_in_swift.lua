-- A finalizer that runs during an allocation made by Swift code, and itself
-- fails to allocate, reached abort(). Its failure is now its own: Lua turns
-- it into a warning ("error in __gc") and the script goes on.
-- args: --memory-limit 24M
-- stdout: ^survived$
local mt = { __gc = function() local s = string.rep("x", 64 * 1024 * 1024) end }
for i = 1, 20000 do
  setmetatable({}, mt)
  local v = ui.View {}
  v.name = "v" .. i
end
print("survived")

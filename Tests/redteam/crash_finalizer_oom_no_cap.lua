-- The same without --memory-limit: the system refuses the finalizer's
-- gigabyte (address space capped with ulimit -v), which used to abort() when
-- the finalizer ran inside an allocation Swift made.
-- ulimit-v: 800000
-- stdout: ^survived$
local mt = { __gc = function() local s = string.rep("x", 1024 * 1024 * 1024) end }
for i = 1, 20000 do
  setmetatable({}, mt)
  local v = ui.View {}
  v.name = "v" .. i
end
print("survived")

-- args: --timeout 1
-- exit: 1
-- stderr: timed out after 1 second
-- --timeout stops a finalizer (Lua runs finalizers with hooks off) by refusing
-- its allocations once the deadline passed (Sources/CLuaShim/interrupts.c, tl_interrupting_alloc).
-- Here finalizers loop making engine objects, and engine objects are
-- finalized (Swift code) among them: the engine's own allocations, and those
-- Swift makes inside a finalizer, must never be refused. The run must end as
-- a clean timeout, not an abort or a signal.
local mt = { __gc = function()
  local n = 0
  while true do
    n = n + 1
    if n % 100 == 0 then local v = ui.View {}; v.name = "f" .. n; v.traitOverrides.displayScale = n % 3 + 1 end
  end
end }
for i = 1, 1e9 do
  setmetatable({}, mt)
  local v = ui.View {}
  v.name = "v" .. i
end

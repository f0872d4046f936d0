-- A class given a field with a nil or NaN key: lua_rawset raised "table index
-- is NaN" from inside Swift, and the error jumped over Swift frames. The host
-- was left believing Swift still ran (no memory limit any more) and pointing
-- at a collected coroutine's stack (a crash at the next handler call).
-- args: --sandbox --memory-limit 64M
-- stdout: ^done$
local C = ui.View:subclass("NanKeyView", {})
local function poison()
  local co = coroutine.create(function()
    local ok, err = pcall(function() C[0 / 0] = 1 end)
    assert(not ok and err:find("table index is NaN"), err)
    ok, err = pcall(function() C[nil] = 1 end)
    assert(not ok and err:find("table index is nil"), err)
  end)
  assert(coroutine.resume(co))
end
poison()
collectgarbage(); collectgarbage()
local junk = {}
for i = 1, 2000 do junk[i] = ("A"):rep(100 + i % 300) end
local scene = ui.WindowScene {}
local w = ui.Window { windowScene = scene }
w.rootViewController = ui.ViewController {}
ui.update()
local calls = 0
w.rootViewController.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() calls = calls + 1 end)
scene.traitOverrides.userInterfaceStyle = "dark"
ui.update()
assert(calls == 1)
-- The memory limit still holds.
local ok, err = pcall(function() local t = {} for i = 1, 1e7 do t[i] = {} end end)
assert(not ok and tostring(err):find("not enough memory"), tostring(err))
print("done")

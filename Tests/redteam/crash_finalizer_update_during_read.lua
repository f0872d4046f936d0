-- args: --sandbox
-- stdout: ^ok	6000	true	0
-- A collection object made in C on the first read of view.traitCollection:
-- its allocation may run finalizers, and these run updates that replace the
-- view's collection (and free the old one). The object must be the view's
-- collection as of after the allocation, and nothing freed may be used.
collectgarbage("incremental", 10, 400)
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
window.rootViewController = ui.ViewController {}
local root = window.rootViewController.view
local views = {}
for i = 1, 300 do local v = ui.View {}; v.traitOverrides.displayScale = i; root:addSubview(v); views[i] = v end
ui.update()
local flips, errors = 0, 0
local function arm()
  for i = 1, 50 do
    setmetatable({}, { __gc = function()
      flips = flips + 1
      scene.traitOverrides.userInterfaceStyle = flips % 2 == 0 and "dark" or "light"
      local ok = pcall(ui.update)
      if not ok then errors = errors + 1 end
    end })
  end
end
local seen = 0
for round = 1, 20 do
  arm()
  for i = 1, #views do
    local tc = views[i].traitCollection
    assert(tc.displayScale == i, "wrong collection")
    local s = tc.userInterfaceStyle
    assert(s == "dark" or s == "light" or s == nil)
    seen = seen + 1
  end
end
collectgarbage()
print("ok", seen, flips > 0, errors)

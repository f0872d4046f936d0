-- A 50,000-deep chain of views builds (top-down and bottom-up), updates and
-- dumps in seconds: addSubview's checks do not walk every ancestor of a new
-- view, and dumps elide indentation past a limit.
-- args: --sandbox --memory-limit 256M
-- stdout: ^built 50000 dumped$
-- seconds: 40
local N = 50000
local scene = ui.WindowScene {}
local w = ui.Window { windowScene = scene }
local vc = ui.ViewController {}
w.rootViewController = vc
local v = vc.view
for _ = 1, N do local c = ui.View {}; v:addSubview(c); v = c end
ui.update()
local top = ui.View {}
for _ = 1, N do local p = ui.View {}; p:addSubview(top); top = p end
local d = ui.dump(scene)
assert(#d < 128 * N, "dump of " .. #d .. " bytes")
print("built " .. N .. " dumped")

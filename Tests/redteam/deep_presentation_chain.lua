-- A 50,000-deep chain of presentations builds, updates, changes a trait at
-- its top and dismisses in seconds, as a chain of views does: presenting a
-- new controller walks no chain, and each presentation keeps the window
-- that shows it until the hierarchy changes (the window was found by a walk
-- of the whole chain, at every presentation and every update: 3,000 deep
-- took over 30 s).
-- args: --sandbox --memory-limit 512M
-- stdout: ^presented 50000 dark dismissed$
-- seconds: 60
local N = 50000
local scene = ui.WindowScene {}
local w = ui.Window { windowScene = scene }
local root = ui.ViewController {}
w.rootViewController = root
ui.update()
local top = root
for _ = 1, N do
  local vc = ui.ViewController {}
  top:present(vc)
  top = vc
end
ui.update()
scene.traitOverrides.userInterfaceStyle = 'dark'
ui.update()
local style = top.traitCollection.userInterfaceStyle
root:dismiss()
ui.update()
print("presented " .. N .. " " .. style .. " dismissed")

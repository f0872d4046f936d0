-- Representables whose hosting controllers host more representables grew
-- forever inside one ui.update(); a nesting limit stops them with a clear error.
-- args: --memory-limit 64M
-- exit: 1
-- stdout: ^false	SwiftUI hosting is nested more than 64 levels deep
-- stderr: nested more than 64 levels deep
-- rss-mb: 300
-- seconds: 30
local scene = ui.WindowScene {}
local w = ui.Window { windowScene = scene }
local function make()
  local rep = swiftui.ViewControllerRepresentable { makeViewController = function()
    return ui.HostingController { rootView = make() }
  end }
  return swiftui.View { name = "Nested", content = { rep } }
end
w.rootViewController = ui.HostingController { rootView = make() }
local ok, err = pcall(ui.update)
print(ok, err)

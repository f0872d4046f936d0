-- Representables whose hosting controllers host more representables grew
-- forever inside one ui.update(); a nesting limit stops them with a clear error,
-- once: like a make... that failed, the content that went too deep is not made
-- again until it is hosted anew, so the next updates (and the one that ends
-- the script) go through.
-- args: --memory-limit 64M
-- stdout: ^false	SwiftUI hosting is nested more than 64 levels deep
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
assert(pcall(ui.update))
assert(pcall(ui.update))

-- Run by Tests/cli/forged_registry_test.sh: replaces registry slot arg[1]
-- with a value of kind arg[2] (what debug.getregistry() lets a script do
-- outside the sandbox), then uses every part of the host. Errors are fine;
-- the process must end by itself with status 0 or 1, never by a signal.
local slot, kind = tonumber(arg[1]), arg[2]
local reg = debug.getregistry()
local forged = ({ zero = 0, str = "x", tbl = {}, fn = print, ud = io.stdout })[kind]
local T = traits.define { name = "ForgeT", default = "a", property = "forgeT", identifier = "com.forge.t" }
local scene = ui.WindowScene {}
local w = ui.Window { windowScene = scene }
w.rootViewController = ui.ViewController {}
ui.update()
reg[slot] = forged
local function try(f) local ok, e = pcall(f) end
try(function()
  local C = ui.View:subclass("ForgeView" .. slot, { layoutSubviews = function(self) local _ = self.traitCollection.forgeT end })
  for i = 1, 20 do
    local v = (i % 2 == 0) and C {} or ui.View {}
    w.rootViewController.view:addSubview(v)
    v:registerForTraitChanges({ T }, function(env, prev) local _ = prev.forgeT end)
    v:registerForTraitChanges({ T }, { action = "setNeedsLayout" })
  end
end)
try(function() scene.traitOverrides.forgeT = "b"; ui.update() end)
try(function() local tc = traits.collection { forgeT = "c" }; local _ = tc.forgeT, tostring(tc), tc:encode(), tc == tc end)
try(function() local c = ui.Color.dynamic(function() return ui.Color(1, 0, 0) end); w.rootViewController.view.backgroundColor = c; ui.update() end)
try(function() local k = swiftui.EnvironmentKey { name = "fk" .. slot, default = 1 }; local v = swiftui.View { body = function(env) return env["fk" .. slot] end }; local h = ui.View {}; w.rootViewController.view:addSubview(h); h.contentConfiguration = swiftui.HostingConfiguration(v); ui.update() end)
try(function() print(ui.dump(scene):sub(1, 1)) end)
try(function() for _, v in ipairs(w.rootViewController.view.subviews) do v:removeFromSuperview() end end)
collectgarbage(); collectgarbage()
try(function() scene.traitOverrides.forgeT = "d"; ui.update() end)
print("ok")

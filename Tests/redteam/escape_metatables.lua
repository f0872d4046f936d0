-- No host object gives its raw metatable: getmetatable returns a protected
-- placeholder for every kind of object, so no __index table or function of the
-- binding is reachable and none can be replaced.
-- args: --sandbox
-- stdout: ^done$
local K = swiftui.EnvironmentKey { name = "rtKey", default = "x" }
local sv = swiftui.View { name = "V", body = function() return "b" end }
local v = ui.View {}
local token = v:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end)
local objects = {
  collection = v.traitCollection, definition = traits.UserInterfaceStyle,
  enum = traits.enum("RtE", { "a", "b" }), overrides = v.traitOverrides, token = token,
  color = ui.Color(1, 0, 0), dynamic = ui.Color.dynamic(function() return ui.Color(0, 0, 0) end),
  key = K, swiftuiView = sv, configuration = swiftui.HostingConfiguration(sv),
  representable = swiftui.ViewControllerRepresentable { makeViewController = function() return ui.ViewController() end },
  ui = ui, color_class = ui.Color, view_class = ui.View, base = getmetatable(ui.Screen),
}
for what, o in pairs(objects) do
  local mt = getmetatable(o)
  if type(mt) == "table" and mt ~= ui.View and mt ~= ui.ViewController then
    -- Only classes may answer with a class table (their parent, a public object).
    for k, val in pairs(mt) do
      if type(k) == "string" and k:sub(1, 2) == "__" then print("ESCAPED: metatable of " .. what .. " has " .. k) end
      local _ = val
    end
  end
  if type(o) ~= "table" then
    assert(not pcall(setmetatable, o, {}), what)
  else
    assert(not pcall(setmetatable, o, {}), "setmetatable on " .. what)
  end
end
-- ui's own metatable is protected too, and its __newindex checks its table.
assert(getmetatable(ui) == "ui")
print("done")

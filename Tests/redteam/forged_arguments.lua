-- Every function the host exposes, called with hostile arguments in its
-- first three positions (numbers that look like addresses, math.mininteger,
-- NaN, foreign userdata, threads, the wrong TraitLab objects...). Each call
-- ends as a Lua error or a result; none reaches a trap.
-- args: --sandbox
-- stdout: ^done [0-9]+$
-- seconds: 120
local v = ui.View {}
local forged = {
  false, 0x4141414141414141, math.mininteger, math.maxinteger, 0 / 0, -1, 1e308, "", ("x"):rep(300),
  {}, { __index = 1 }, print, coroutine.create(print), v, v.traitCollection, v.traitOverrides,
  traits.UserInterfaceStyle, ui.Color(0, 0, 0), ui.View, swiftui.View {},
}
local skip = { ["ui.update"] = false }
local calls = 0
local function try(name, f)
  if skip[name] then return end
  for i = 0, #forged do
    local a = forged[i]
    for j = 0, #forged, 3 do
      local b = forged[j]
      for k = 0, #forged, 5 do
        pcall(f, a, b, forged[k])
        calls = calls + 1
      end
    end
  end
end
local seen = {}
local function walk(prefix, t, depth)
  if seen[t] or depth > 2 then return end
  seen[t] = true
  local keys = {}
  for k in pairs(t) do if type(k) == "string" then keys[#keys + 1] = k end end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local val = rawget(t, k)
    if type(val) == "function" then try(prefix .. k, val)
    elseif type(val) == "table" then walk(prefix .. k .. ".", val, depth + 1) end
  end
end
for _, lib in ipairs { "traits", "ui", "swiftui", "plugins" } do walk(lib .. ".", _G[lib], 0) end
-- Methods reached through objects' indexers rather than library tables.
local objects = { v, v.traitCollection, v.traitOverrides, ui.Color(0, 0, 0), swiftui.View {},
                  ui.ViewController {}, ui.Screen {}, ui.WindowScene {} }
local methods = { "changedTraits", "modifyingTraits", "encode", "contains", "remove", "resolvedColor",
                  "environment", "setTraits", "disconnect", "addChild", "present", "insertSubview",
                  "registerForTraitChanges", "unregisterForTraitChanges", "subclass" }
for _, o in ipairs(objects) do
  for _, m in ipairs(methods) do
    local ok, f = pcall(function() return o[m] end)
    if ok and type(f) == "function" then try(tostring(o) .. ":" .. m, f) end
  end
end
collectgarbage()
ui.update()
print("done " .. calls)

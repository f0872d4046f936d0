-- Outside the sandbox the debug library reaches the binding's metamethods;
-- each one checks what it is given (tl_env_index assumed a table and crashed
-- on getmetatable(view.__index).__index(0x4141414141414141, "traitCollection")).
-- exit: 0
-- stdout: ^done$
local v = ui.View {}
local forged = { 0x4141414141414141, 0, "x", {}, io.stdout, coroutine.create(print), print, true }
local objects = { v, v.traitCollection, v.traitOverrides, traits.UserInterfaceStyle, ui.Color(0, 0, 0),
                  traits.enum("FsE", { "a" }), swiftui.View {}, swiftui.EnvironmentKey { name = "fsk", default = 1 },
                  v:registerForTraitChanges({ traits.UserInterfaceStyle }, print), ui, ui.Color, ui.View }
local n = 0
for _, o in ipairs(objects) do
  local mt = debug.getmetatable(o)
  for _, event in ipairs { "__index", "__newindex", "__tostring", "__eq", "__len", "__pairs", "__call", "__gc" } do
    local f = mt and rawget(mt, event)
    if type(f) == "function" then
      for _, a in ipairs(forged) do
        for _, key in ipairs { "traitCollection", "name", "red", "x", 1 } do
          pcall(f, a, key, a)
          n = n + 1
        end
      end
    end
  end
end
-- Forged user values and upvalues: the host checks the type of what it reads back.
debug.setuservalue(v, 0x4141414141414141)
pcall(function() return v.traitCollection end)
pcall(function() v.items = 1 end)
pcall(function() v:registerForTraitChanges({ traits.UserInterfaceStyle }, print) end)
local add = ui.View.addSubview
for i = 1, 3 do
  local name = debug.getupvalue(add, i)
  if name then debug.setupvalue(add, i, 0x7fffffff) end
end
assert(not pcall(add, v, ui.View {}))
local index = debug.getmetatable(ui.Color(0, 0, 0)).__index
debug.setupvalue(index, 2, 42)
assert(not pcall(function() return ui.Color(0, 0, 0).red end))
assert(n > 100)
-- A collection object whose finalizer a script calls (twice) is dead: using
-- it is an error, and the engine's collection lives on; the view's next
-- collection comes as a fresh object.
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
window.rootViewController = ui.ViewController {}
local w = window.rootViewController.view
ui.update()
local tc = w.traitCollection
local gc = debug.getmetatable(tc).__gc
gc(tc); gc(tc)
assert(not pcall(function() return tc.userInterfaceStyle end))
assert(not pcall(function() return tc:modifyingTraits(print) end))
pcall(tostring, tc); pcall(pairs, tc); pcall(function() return tc == tc end)
w.traitOverrides.userInterfaceStyle = "dark"
ui.update()
assert(w.traitCollection.userInterfaceStyle == "dark")
collectgarbage()
print("done")

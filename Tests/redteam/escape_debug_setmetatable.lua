-- The sandbox's debug library is traceback and a getmetatable that reaches
-- only metatables the script set itself (docs/sandbox.md, "`--sandbox`: code written by others"). The
-- interruptible debug.setmetatable that traitlab installs for finalizers was
-- once added to it, and with it a script replaced the metatable of host
-- objects (forging reads) and of whole types, and kept views from being
-- finalized (the engine held every one).
-- args: --sandbox
-- stdout: ^done$
local names = {}
for k in pairs(debug) do names[#names + 1] = k end
table.sort(names)
if table.concat(names, ",") ~= "getmetatable,traceback" then print("ESCAPED: debug has " .. table.concat(names, ", ")) end
if rawget(debug, "setmetatable") ~= nil then print("ESCAPED: debug.setmetatable") end
if require("debug") ~= debug then print("ESCAPED: require('debug') is another table") end
local tc = traits.collection {}
if pcall(setmetatable, tc, {}) then print("ESCAPED: setmetatable on a collection") end
if type(getmetatable(tc)) == "table" then print("ESCAPED: a collection's metatable") end
for _, v in ipairs { tc, ui.View {}, ui.Color(0, 0, 0), ui.View, traits, traits.HorizontalSizeClass } do
  if type(debug.getmetatable(v)) == "table" and debug.getmetatable(v) ~= getmetatable(v) then
    print("ESCAPED: debug.getmetatable reached a protected metatable of " .. tostring(v))
  end
end
-- What the script protects itself, debug.getmetatable reads (as lua5.4 does).
local mt = { __metatable = "hidden" }
local mine = setmetatable({}, mt)
if getmetatable(mine) ~= "hidden" or debug.getmetatable(mine) ~= mt then print("ESCAPED? own metatable not read back") end
print("done")

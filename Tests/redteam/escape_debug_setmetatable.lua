-- The sandbox's debug library is traceback alone (README, "--sandbox"). The
-- interruptible debug.setmetatable that traitlab installs for finalizers was
-- once added to it, and with it a script replaced the metatable of host
-- objects (forging reads) and of whole types, and kept views from being
-- finalized (the engine held every one).
-- args: --sandbox
-- stdout: ^done$
local names = {}
for k in pairs(debug) do names[#names + 1] = k end
if #names ~= 1 or names[1] ~= "traceback" then print("ESCAPED: debug has " .. table.concat(names, ", ")) end
if rawget(debug, "setmetatable") ~= nil or rawget(debug, "getmetatable") ~= nil then print("ESCAPED: debug metatable functions") end
if require("debug") ~= debug then print("ESCAPED: require('debug') is another table") end
local tc = traits.collection {}
if pcall(setmetatable, tc, {}) then print("ESCAPED: setmetatable on a collection") end
if type(getmetatable(tc)) == "table" then print("ESCAPED: a collection's metatable") end
print("done")

-- plugins.load and plugins.addPath read no file from the sandbox, by path or
-- by name, directly or through require("traitlab") (docs/sandbox.md).
-- args: --sandbox
-- stdout: ^done$
local function refused(what, f, ...)
  local ok, err = pcall(f, ...)
  if ok then print("ESCAPED: " .. what) end
  if tostring(err):find("hunter2") then print("ESCAPED: quoted " .. what) end
end
refused("load by path", plugins.load, "./secret.env")
refused("load by lua path", plugins.load, "secret.lua")
refused("load by name", plugins.load, "evil")
refused("addPath", plugins.addPath, "/")
refused("addPath .", plugins.addPath, ".")
refused("reload", plugins.reload, "evil")
refused("module load", require("traitlab").plugins.load, "./secret.env")
if #plugins.path() ~= 0 then print("ESCAPED: plugin path leaks folders") end
if SECRET then print("ESCAPED: a plugin ran") end
print("done")

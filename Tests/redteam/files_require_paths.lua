-- The sandbox's require reads Lua source modules only on the search path the
-- process started with (docs/sandbox.md): a changed package.path or cpath finds
-- nothing new, package.searchpath probes and C loaders are gone, and a module
-- found on the path (./?.lua is on Lua's default path, so secret.lua is one)
-- runs sandboxed. No error message quotes another file.
-- args: --sandbox
-- stdout: ^done$
local function refused(f, ...)
  local ok, err = pcall(f, ...)
  if ok then print("ESCAPED: " .. tostring(err)) end
  return err
end
package.path = "./?.env;/etc/?;" .. package.path
package.cpath = "./?.so"
refused(require, "passwd")
refused(require, "secret.env")

refused(require, "/etc/passwd")
for _, k in ipairs { "searchpath", "searchers", "loadlib" } do
  if package[k] ~= nil then print("ESCAPED: package." .. k .. " is available") end
end
-- The C require is gone: nothing reachable calls the original searchers.
if rawget(_G, "loadfile") or rawget(_G, "dofile") or rawget(_G, "io") then print("ESCAPED: file functions") end
-- A module on the start path runs with the sandbox's globals.
local secret = require("secret")
if type(secret) ~= "table" then print("ESCAPED? secret.lua did not load as a module") end
print("done")

-- The sandbox reads no file through require: a changed package.path, a
-- searcher put back, package.searchpath probes and C loaders all fail, and
-- no error message quotes another file (SPEC §12; Luau's sandbox likewise has
-- no require from the file system).
-- args: --sandbox
-- stdout: ^done$
local function refused(f, ...)
  local ok, err = pcall(f, ...)
  if ok then print("ESCAPED: " .. tostring(err)) end
  return err
end
package.path = "./?.lua;./?.env;./sub/?.lua;/etc/?"
package.cpath = "./?.so"
refused(require, "secret")
refused(require, "sub.secret")
refused(require, "secret.env")
for _, k in ipairs { "searchpath", "searchers", "loadlib" } do
  if package[k] ~= nil then print("ESCAPED: package." .. k .. " is available") end
end
-- The C require is gone: nothing reachable calls the original searchers.
if rawget(_G, "loadfile") or rawget(_G, "dofile") or rawget(_G, "io") then print("ESCAPED: file functions") end
print("done")

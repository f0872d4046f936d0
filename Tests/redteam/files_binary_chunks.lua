-- No binary chunk by any route: load with mode "b"/"bt", a reader function
-- that yields bytecode, string.dump, and require's searchers (Luau and Redis
-- both refuse bytecode: malformed bytecode can crash the VM).
-- args: --sandbox
-- stdout: ^done$
local bytecode = "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64"
for _, mode in ipairs { "b", "bt" } do
  local ok = pcall(load, bytecode, "x", mode)
  if ok then print("ESCAPED: load mode " .. mode) end
end
local f = load(bytecode)
if f then print("ESCAPED: default mode loads bytecode") end
local parts, i = { bytecode:sub(1, 4), bytecode:sub(5) }, 0
local g = load(function() i = i + 1; return parts[i] end)
if g then print("ESCAPED: reader loads bytecode") end
if string.dump then print("ESCAPED: string.dump") end
if ("").dump then print("ESCAPED: string.dump through the string metatable") end
print("done")

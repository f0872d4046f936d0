-- (run from sub/: ./out.lua links to ../secret.lua)
local ok, err = pcall(require, 'out')
print(ok and ('out loaded ' .. tostring(err)) or 'leak refused, out refused')

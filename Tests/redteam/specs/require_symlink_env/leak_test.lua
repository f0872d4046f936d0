local ok, err = pcall(require, 'leak')
print(ok and ('loaded ' .. tostring(err)) or ('refused: ' .. err:match("no file './leak.lua'[^\n]*")))

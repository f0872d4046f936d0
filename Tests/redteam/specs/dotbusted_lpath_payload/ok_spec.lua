describe('x', function() it('runs', function() end) end)

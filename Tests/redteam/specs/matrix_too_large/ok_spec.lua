describe('x', function() it('ok', function() end) end)

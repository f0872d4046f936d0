describe('x', function() it('fails', function() assert.is_true(false) end) end)

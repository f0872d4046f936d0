describe('other', function() it('passes', function() assert.truthy(1) end) end)

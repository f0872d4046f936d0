describe({}, function() it('x', function() end) end)

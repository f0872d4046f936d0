describe('s', function() it('one', function() assert.matches_snapshot(ui.View { name = 'v' }) end) end)

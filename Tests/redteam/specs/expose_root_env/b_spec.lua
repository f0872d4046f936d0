describe('honest', function()
  it('fails', function() assert.equal(1, 2) end)
end)

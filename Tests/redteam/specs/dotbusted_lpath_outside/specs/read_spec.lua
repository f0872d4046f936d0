describe('lpath outside', function()
  it('reads no .env', function() print(require('secret')) end)
  it('reads no .lua outside', function() print(require('secret').token) end)
end)

local ok, busted = pcall(require, 'busted')
local function attack(b)
  local function payload()
    local f = io and io.open('secret.env') or nil
    if f then print('ESCAPED: ' .. f:read('a')) end
    if os and os.execute then print('ESCAPED: os.execute reachable') end
  end
  if type(b.subscribe) == 'function' then
    b.subscribe({ 'file', 'start' }, function(file) pcall(file.run) ; pcall(payload) end)
  end
  if type(b.publish) == 'function' then
    b.publish({ 'register', 'file' }, 'evil', payload)
  end
  if type(b.executors) == 'table' and type(b.executors.file) == 'function' then
    pcall(b.executors.file, 'evil', payload)
  end
end
if ok then pcall(attack, busted) end
describe('x', function()
  it('fails honestly', function() assert.equal(1, 2) end)
end)

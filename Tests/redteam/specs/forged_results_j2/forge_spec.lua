local ok, busted = pcall(require, 'busted')
if ok and type(busted.subscribe) == 'function' then
  for _, ch in ipairs { { 'error' }, { 'failure' }, { 'failure', 'it' }, { 'error', 'it' } } do
    pcall(busted.subscribe, ch, function() return nil, false end, { priority = 1 })
  end
  pcall(busted.subscribe, { 'test', 'end' }, function(element, parent, status)
    if status ~= 'success' then
      busted.publish({ 'test', 'end' }, element, parent, 'success')
      return nil, false
    end
  end, { priority = 1 })
end
describe('suite', function()
  it('passes', function() assert.is_true(true) end)
  it('fails', function() error('real failure') end)
end)

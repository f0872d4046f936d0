local b = require 'busted'
for _, k in ipairs { 'publish', 'subscribe', 'unsubscribe', 'bindfenv', 'parent', 'children',
                     'executors', 'outputHandler', 'modules', 'api', 'safe', 'register',
                     'export', 'exportApi', 'hide', 'status', 'execute', 'wrap', 'getTrace' } do
  local ok, v = pcall(function() return b[k] end)
  if ok and v ~= nil then print('ESCAPED: busted.' .. k) end
end
-- busted's modules found on the path load as fresh copies inside the
-- sandbox (sandboxed code, not the running busted); its C companions do not.
for _, m in ipairs { 'system', 'term.core', 'lfs', 'posix' } do
  if pcall(require, m) then print('ESCAPED: require ' .. m) end
end
describe('internals', function()
  it('are out of reach', function()
    assert.is_function(describe)
    assert.is_function(b.describe)
    assert.is_function(b.it)
    assert.is_table(b.assert or assert)
    assert.is_nil(debug.getinfo)
    assert.is_nil(debug.getupvalue)
    assert.is_nil(debug.getlocal)
  end)
end)

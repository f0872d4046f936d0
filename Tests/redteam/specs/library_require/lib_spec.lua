local mylib = require 'mylib'
describe('mylib', function()
  it('works', function() assert.equal(4, mylib.double(2)) end)
  it('is sandboxed', function() assert.is_false(mylib.has_io) end)
  it('is cached and has its submodule', function()
    assert.equal(mylib, require('mylib'))
    assert.equal('sub', mylib.sub.name)
    local ok = pcall(require, 'secret')   -- secret.lua is on ./?.lua too: loaded sandboxed, harmless
    package.path = '/etc/?;' .. (package.path or '')
    assert.is_false(pcall(require, 'passwd'))
  end)
  -- ll_require (loadlib.c): a false entry in package.loaded is no module;
  -- require loads it again (say's own specs do this to test their sources).
  it('is loaded again once package.loaded forgets it', function()
    package.loaded['mylib'] = false
    local again = require 'mylib'
    assert.is_table(again)
    assert.are_not.equal(mylib, again)
    assert.is_table(require 'say')
  end)
end)

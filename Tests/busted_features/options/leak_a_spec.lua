-- Sets a global in _G and loads a module at its top level. With
-- --no-auto-insulate the next file (options/leak_b_spec.lua, named after this
-- one) sees both; by default busted restores _G and package.loaded after
-- each file. (A plain `name = value` here would go to the file's own
-- environment, which the next file never sees either way.)
_G.set_by_leak_a = "from leak_a"
require("tally").new()

describe("the first file", function()
  it("sets a global and loads a module", function()
    assert.equal("from leak_a", _G.set_by_leak_a)
    assert.equal(1, package.loaded.tally.made())
  end)
end)

-- Passes when busted runs `-e 'from_e = "set by -e"'` first.
-- luacheck: globals from_e
describe("-e", function()
  it("runs its statement before the spec files", function()
    assert.equal("set by -e", from_e)
  end)
end)

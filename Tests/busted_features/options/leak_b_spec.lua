-- Passes after options/leak_a_spec.lua under --no-auto-insulate only.
describe("the second file", function()
  it("sees the global the first file set", function()
    assert.equal("from leak_a", _G.set_by_leak_a)
  end)

  it("sees the module the first file loaded, in the state it left it", function()
    assert.is_table(package.loaded.tally)
    assert.equal(1, package.loaded.tally.made())
  end)
end)

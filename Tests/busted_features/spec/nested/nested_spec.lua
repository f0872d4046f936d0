-- A spec file in a subfolder: busted recurses into folders unless
-- --no-recursive, and `-C spec nested` runs it from spec/ (no lib/ on the
-- path there, so it needs no module).
describe("a nested spec file", function()
  it("is found in a subfolder", function()
    assert.matches("nested_spec%.lua$", debug.getinfo(1, "S").short_src)
  end)
end)

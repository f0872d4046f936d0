-- Passes when --lpath (or a config file's lpath) names ./alt/?.lua.
describe("--lpath", function()
  it("finds a module in the folder it names", function()
    assert.equal("hello, tally", require("greeting").hello("tally"))
  end)
end)

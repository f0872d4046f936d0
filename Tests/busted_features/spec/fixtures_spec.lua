-- busted.fixtures: paths and files relative to the spec file that asks,
-- whatever the current directory.
local fixtures = require "busted.fixtures"
local tally = require "tally"

describe("busted.fixtures", function()
  it("finds a path beside this spec file", function()
    local path = fixtures.path("fixtures/basket.txt")
    assert.matches("/spec/fixtures/basket%.txt$", path)
    assert.is_not_nil(io.open(path))
  end)

  it("reads a file beside this spec file into a tally", function()
    local t = tally.new()
    for item, n in fixtures.read("fixtures/basket.txt"):gmatch("(%a+) (%d+)") do
      t:add(item, math.tointeger(tonumber(n)))
    end
    assert.same({ "pear", "fig" }, t:items())
  end)
end)

-- Prints from tests, a hook and the file's top level: --defer-print holds
-- what tests print until the report is done.
print("printed at the top level")

describe("printing", function()
  before_each(function() print("printed by before_each") end)
  it("prints from a test", function() print("printed by the first test") end)
  it("prints and fails", function()
    print("printed by the second test")
    assert.equal(1, 2)
  end)
end)

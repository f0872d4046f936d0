-- Under --repeat=N each test runs N times; the file runs afresh each time.
local runs = 0

describe("--repeat", function()
  it("runs this file's tests again each round", function()
    runs = runs + 1
    print("round's run " .. runs)
    assert.equal(1, runs)
  end)
end)

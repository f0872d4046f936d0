-- Prints each test's name as it runs: the order under --shuffle, --sort and
-- randomize() with a given --seed is compared between runners.
local function named(name)
  return it(name, function() print("ran " .. name) end)
end

describe("in written order", function()
  named("charlie")
  named("alpha")
  named("echo")
  named("bravo")
  named("delta")
end)

describe("randomized by randomize()", function()
  randomize()
  named("one")
  named("two")
  named("three")
  named("four")
  named("five")
  named("six")
end)

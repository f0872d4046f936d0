-- A spec file that errs at its top level, after registering one test:
-- busted reports the file as an error. Runs only when named (`-r failing`).
describe("registered before the error", function()
  it("never runs", function() end)
end)

require("tally").new():add("pear", 0)

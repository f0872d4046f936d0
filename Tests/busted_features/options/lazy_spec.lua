-- --lazy makes setup and teardown lazy: a describe whose tests are all
-- filtered out (run with --exclude-tags=skipped) then runs no setup.
-- Passes with --lazy, fails without.
local setup_ran = false

describe("a describe whose only test is excluded", function()
  setup(function() setup_ran = true end)
  it("is excluded #skipped", function() end)
end)

describe("afterwards", function()
  it("the excluded describe's setup did not run", function()
    assert.is_false(setup_ran)
  end)
end)

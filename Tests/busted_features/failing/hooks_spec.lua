-- Errors in hooks and in finally: which tests busted runs, skips or reports
-- after each. These fail on purpose; they run only when named (`-r failing`).
local tally = require "tally"

describe("a setup that errs", function()
  setup(function() tally.new():add(42) end)
  it("is not run", function() end)
  it("is not run either", function() end)
end)

describe("a before_each that errs", function()
  before_each(function() error("before_each broke") end)
  it("is not run", function() end)
end)

describe("an after_each that errs", function()
  after_each(function() error("after_each broke") end)
  it("passes before the hook errs", function() end)
end)

describe("a teardown that errs", function()
  teardown(function() error({ reason = "teardown broke" }) end)
  it("passes before the teardown", function() end)
end)

describe("a finally that errs", function()
  it("passes its body", function()
    finally(function() error("finally broke") end)
  end)
end)

describe("a lazy_setup that errs", function()
  lazy_setup(function() error("lazy_setup broke") end)
  it("is not run", function() end)
end)

describe("after the broken blocks", function()
  it("still runs", function()
    assert.equal(0, tally.new():total())
  end)
end)

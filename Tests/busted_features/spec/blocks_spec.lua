-- busted's blocks and hooks, in the order busted runs them: describe,
-- context, it, spec, test, pending, setup/teardown, before_each/after_each,
-- lazy_setup/lazy_teardown, strict_setup/strict_teardown and finally.
-- Each test checks the log the hooks wrote before it, so a hook that runs
-- late, early, twice or not at all fails the next test.
local tally = require "tally"

local log = {}
local function note(what) return function() log[#log + 1] = what end end
local function take()
  local seen = log
  log = {}
  return seen
end

describe("blocks", function()
  setup(note("setup"))
  teardown(note("teardown"))
  before_each(note("before_each"))
  after_each(note("after_each"))

  it("runs a test after setup and before_each", function()
    assert.same({ "setup", "before_each" }, take())
  end)

  it("runs after_each after a test, before_each before the next", function()
    assert.same({ "after_each", "before_each" }, take())
  end)

  context("a context is a describe", function()
    strict_setup(note("strict_setup"))
    lazy_setup(note("lazy_setup"))
    strict_teardown(note("strict_teardown"))
    lazy_teardown(note("lazy_teardown"))
    before_each(note("inner before_each"))
    after_each(note("inner after_each"))

    spec("spec is it: strict_setup ran on entry, lazy_setup before this first test", function()
      assert.same({ "after_each", "strict_setup", "lazy_setup", "before_each", "inner before_each" }, take())
    end)

    test("test is it: outer before_each first, inner after_each first", function()
      assert.same({ "inner after_each", "after_each", "before_each", "inner before_each" }, take())
    end)
  end)

  it("runs the context's teardowns when it ends, lazy before strict", function()
    assert.same({ "inner after_each", "after_each", "lazy_teardown", "strict_teardown", "before_each" },
      take())
  end)

  describe("a describe whose tests are all pending", function()
    lazy_setup(note("pending lazy_setup"))
    strict_setup(note("pending strict_setup"))
    pending("a pending test with no body")
    pending("a pending test with a body that never runs", function()
      error("a pending test's body ran")
    end)
  end)

  it("ran the strict setup of a describe with no test to run, not its lazy one", function()
    assert.same({ "after_each", "pending strict_setup", "before_each" }, take())
  end)

  it("calls finally after the test body", function()
    take()
    local t = tally.new()
    finally(function() note("finally")() end)
    t:add("apple")
    assert.equal(1, t:total())
    assert.same({}, log)
  end)

  it("ran finally before after_each", function()
    assert.same({ "finally", "after_each", "before_each" }, take())
  end)

  it("can be made pending from inside its body", function()
    pending("decided inside the test")
    error("not reached")
  end)

  it("is tagged #fast in its name (and leaves the log alone)", function()
    assert.is_table(log)
  end)
end)

describe("after the first describe", function()
  it("ran teardown once, last, when the describe ended", function()
    local seen, teardowns = take(), 0
    for _, what in ipairs(seen) do
      if what == "teardown" then teardowns = teardowns + 1 end
    end
    assert.equal(1, teardowns)
    assert.equal("teardown", seen[#seen])
  end)
end)

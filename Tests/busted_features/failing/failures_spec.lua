-- Every way a test fails or errs, so that the reports (messages, counts,
-- the failure/error split, exit status) can be compared with busted's.
-- These tests fail on purpose; they run only when named (`-r failing`).
local tally = require "tally"
require "spec.support.tally_assertions"

describe("failures", function()
  local t
  before_each(function() t = tally.new():add("pear", 2):add("fig") end)

  it("same on tables shows both and where they differ", function()
    assert.same({ "fig", "pear" }, t:items())
  end)

  it("equal on numbers", function()
    assert.equal(4, t:total())
  end)

  it("a custom message", function()
    assert.is_true(t:count("plum") > 0, "no plums in the basket")
  end)

  it("a registered assertion, its say message and the tally formatter", function()
    assert.holds(t, "fig", 5)
  end)

  it("a registered assertion negated", function()
    assert.is_not.holds(t, "pear", 2)
  end)

  it("the formatter in a same", function()
    assert.same(tally.new(), t)
  end)

  it("has_error with the wrong message", function()
    assert.has_error(function() t:add(1) end, "another message")
  end)

  it("error_matches with no error", function()
    assert.error_matches(function() t:add("kiwi") end, "never")
  end)

  it("a spy called otherwise", function()
    local visit = spy.new(function() end)
    t:each(visit)
    assert.spy(visit).was.called_with("plum", 1)
  end)

  it("a stub called too often", function()
    stub(t, "total")
    t:total(); t:total()
    assert.stub(t.total).was.called(1)
  end)

  it("a plain error", function()
    t:add(nil)
  end)

  it("an error with a table value", function()
    t:add("pear", -1)
  end)

  it("error() with no value", function()
    error()
  end)

  it("indexing a nil value #fast", function()
    local basket = {}
    assert.equal(1, basket.shelf.count)
  end)
end)

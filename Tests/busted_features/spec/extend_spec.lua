-- Extending luassert as libraries do: assert:register for an assertion (with
-- its say messages) and a matcher, assert:add_formatter, modifiers on a
-- registered assertion, assert:set_parameter, assert.message, say itself
-- with namespaces, and assert:snapshot to undo formatters, parameters and spies.
local say = require "say"
local tally = require "tally"
require "spec.support.tally_assertions"

describe("registered assertions", function()
  local t
  before_each(function() t = tally.new():add("pear", 2):add("fig") end)

  it("is called like a built-in one, with the usual modifiers", function()
    assert.holds(t, "pear", 2)
    assert.is.holds(t, "fig", 1)
    assert.Not.holds(t, "fig", 2)
    assert.is_not.holds(t, "plum", 1)
  end)

  it("gives a matcher to spies", function()
    local report = spy.new(function() end)
    report(t)
    assert.spy(report).was.called_with(match.tally_of(3))
    assert.spy(report).was_not.called_with(match.tally_of(4))
  end)

  it("formats values through the added formatter", function()
    local ok, err = pcall(assert.same, t, tally.new())
    assert.is_false(ok)
    assert.matches("tally{fig=1, pear=2}", tostring(err), 1, true)
  end)

  it("#fast reads and sets luassert's parameters", function()
    local before = assert:get_parameter("TableFormatLevel")
    assert:set_parameter("TableFormatLevel", 0)
    assert.equal(0, assert:get_parameter("TableFormatLevel"))
    assert:set_parameter("TableFormatLevel", before)
  end)

  it("takes a failure message from assert.message", function()
    local ok, err = pcall(function() assert.message("the tally is empty").is_true(t:total() == 0) end)
    assert.is_false(ok)
    assert.matches("the tally is empty", tostring(err), 1, true)
  end)
end)

describe("say", function()
  it("formats its messages with their arguments", function()
    say:set("tally.summary", "%s items, %s kinds")
    assert.equal("3 items, 2 kinds", say("tally.summary", { 3, 2 }))
  end)

  it("keeps a message per namespace and falls back to the default one", function()
    local previous = say:set_namespace("fr")
    say:set("tally.greeting", "bonjour")
    assert.equal("bonjour", say("tally.greeting"))
    say:set_namespace("en")
    assert.is_nil(say("tally.greeting"))
    say:set_namespace(previous or "en")
  end)
end)

describe("snapshots", function()
  it("undo formatters and parameters set after the snapshot", function()
    local function message_of(f) local _, err = pcall(f); return tostring(err) end
    local snapshot = assert:snapshot()
    assert:add_formatter(function(value)
      if type(value) == "number" then return "#" .. value end
    end)
    assert:set_parameter("TableFormatLevel", 1)
    assert.matches("#2", message_of(function() assert.equal(1, 2) end), 1, true)
    snapshot:revert()
    assert.Not.matches("#2", message_of(function() assert.equal(1, 2) end), 1, true)
    assert.equal(3, assert:get_parameter("TableFormatLevel"))
  end)

  it("undo spies made after the snapshot", function()
    local t = tally.new()
    local snapshot = assert:snapshot()
    spy.on(t, "add")
    assert.is_true(spy.is_spy(t.add))
    snapshot:revert()
    assert.is_false(spy.is_spy(t.add))
  end)
end)

-- Assertions, a matcher and a formatter for tallies, registered through
-- luassert's own API with their messages in say. Required by the specs in
-- spec/ and failing/ (not a spec file itself: its name does not end in _spec).
local assert = require "luassert"
local say = require "say"
local tally = require "tally"

local function is_tally(value)
  return getmetatable(value) == tally
end

-- assert.holds(t, item, count): the tally holds `count` of `item`. The
-- messages read the count wanted, the item and the count found.
say:set("assertion.holds.positive", "Expected the tally to hold %s of %s, but it holds %s")
say:set("assertion.holds.negative", "Expected the tally not to hold %s of %s")
assert:register("assertion", "holds", function(_, arguments)
  local t, item, count = arguments[1], arguments[2], arguments[3]
  local found = is_tally(t) and t:count(item) or nil
  arguments[1], arguments[2], arguments[3] = tostring(count), tostring(item), tostring(found)
  arguments.nofmt = { true, true, true }
  return found == count
end, "assertion.holds.positive", "assertion.holds.negative")

-- match.tally_of(total): an argument matcher for spies and stubs.
assert:register("matcher", "tally_of", function(_, arguments)
  local total = arguments[1]
  return function(value) return is_tally(value) and value:total() == total end
end)

-- Tallies in failure messages read "tally{fig=1, pear=2}" instead of a table dump.
assert:add_formatter(function(value)
  if not is_tally(value) then return nil end
  local parts = {}
  for _, item in ipairs(value:items()) do parts[#parts + 1] = item .. "=" .. value:count(item) end
  table.sort(parts)
  return "tally{" .. table.concat(parts, ", ") .. "}"
end)

return { is_tally = is_tally }

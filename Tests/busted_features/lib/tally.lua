-- A small module of our own for the busted feature specs: a tally of items.
-- It keeps one piece of module state (how many tallies were made) so that
-- specs can tell a fresh `require` from a cached one.
local tally = {}
tally.__index = tally

local made = 0

function tally.new()
  made = made + 1
  return setmetatable({ counts = {}, size = 0 }, tally)
end

function tally.made()
  return made
end

function tally:add(item, n)
  n = n or 1
  if type(item) ~= "string" then
    error("tally:add expects a string item, got " .. type(item), 2)
  end
  if math.type(n) ~= "integer" or n < 1 then
    error({ code = "bad-count", count = n }, 2)
  end
  self.counts[item] = (self.counts[item] or 0) + n
  self.size = self.size + n
  return self
end

function tally:count(item)
  return self.counts[item] or 0
end

function tally:total()
  return self.size
end

-- The items, most frequent first, ties in alphabetical order.
function tally:items()
  local list = {}
  for item in pairs(self.counts) do list[#list + 1] = item end
  table.sort(list, function(a, b)
    local ca, cb = self.counts[a], self.counts[b]
    if ca ~= cb then return ca > cb end
    return a < b
  end)
  return list
end

-- Calls `visit(item, count)` for each item in items() order.
function tally:each(visit)
  for _, item in ipairs(self:items()) do visit(item, self.counts[item]) end
end

return tally

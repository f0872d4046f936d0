-- traitlab test's shards (the driver, busted.lua, loads this part):
-- `--shard K/N` (or Bazel's TEST_TOTAL_SHARDS and 0-based TEST_SHARD_INDEX,
-- read by the command) runs the K-th of N slices of the run's file runs:
-- each spec file once per matrix combination (once in a run without one).
--
-- The slices are dealt from the run's distinct file names and combination
-- labels alone, so every machine given the same command and files deals
-- the same slices, whatever --shuffle, --sort or -j do to the order:
--   * each (file, combination) gets the 64-bit FNV-1a hash of its file name
--     and label; the pairs are sorted by it (ties by the order a whole run
--     reports them), and dealt to slices 1, 2, ..., N, 1, 2, ... in turn.
-- So each slice has as many file runs as another, give or take one, and
-- the combinations of one slow file land on different slices. A file named
-- twice in one run (two paths that list it) is one file here: it runs as
-- often as without shards, in one slice.

local driver = ...   -- what the driver shares with its parts
local opts = driver.opts
local shard = opts.shard

-- FNV-1a, 64 bits (Lua's integers wrap around as the hash needs).
local function hash(text)
  local h = -3750763034362895579   -- 0xcbf29ce484222325
  for i = 1, #text do
    h = (h ~ text:byte(i)) * 1099511628211
  end
  return h
end

local selected   -- [name][combination index] = true, for the pairs this slice runs
local combosRun = {}   -- [combination index] = true when this slice runs a file in it

-- Deals the pairs of `names` (distinct, in run order) and the matrix's
-- combinations (one unnamed combination without a matrix).
local function deal(names)
  local labels = {}
  for i, combo in ipairs(opts.matrix or { { label = '' } }) do labels[i] = combo.label end
  local pairs_ = {}
  for c, label in ipairs(labels) do
    for f, name in ipairs(names) do
      pairs_[#pairs_ + 1] = { name = name, combo = c, key = hash(name .. '\n' .. label), order = #pairs_ + 1 }
    end
  end
  -- (math.ult: the hashes compare as unsigned 64-bit numbers.)
  table.sort(pairs_, function(a, b)
    if a.key ~= b.key then return math.ult(a.key, b.key) end
    return a.order < b.order
  end)
  selected, combosRun = {}, {}
  local mine = 0
  for i, p in ipairs(pairs_) do
    if (i - 1) % shard.count + 1 == shard.index then
      selected[p.name] = selected[p.name] or {}
      selected[p.name][p.combo] = true
      combosRun[p.combo] = true
      mine = mine + 1
    end
  end
  io.stderr:write(('traitlab test: shard %d of %d runs %d of the %d spec file runs (%d file%s x %d combination%s)\n'):format(
    shard.index, shard.count, mine, #pairs_, #names, #names == 1 and '' or 's', #labels, #labels == 1 and '' or 's'))
end

-- Whether this slice runs file `name` in combination `comboIndex` (1
-- without a matrix). Everything runs without a shard.
local function runs(name, comboIndex)
  if not shard then return true end
  local row = selected and selected[name]
  return row ~= nil and row[comboIndex or 1] == true
end

-- Whether this slice runs any file in combination `comboIndex` (every
-- combination runs without a shard).
local function ranAny(comboIndex)
  return not shard or combosRun[comboIndex] == true
end

-- The names of `names` this slice runs in combination `comboIndex`.
local function filesFor(names, comboIndex)
  if not shard then return names end
  local out = {}
  for _, name in ipairs(names) do
    if runs(name, comboIndex) then out[#out + 1] = name end
  end
  return out
end

-- Deals the slices when busted starts executing the loaded files (before
-- --shuffle or --sort reorders them). Without a matrix the files of other
-- slices leave the suite here, so that an in-process run, -j and --sandbox
-- run only this slice's; a matrix's parent (busted_workers.lua) asks
-- `runs` for each file and combination.
if shard and not opts.worker then
  local makeExecute = require 'busted.execute'
  package.loaded['busted.execute'] = function(busted)
    local execute = makeExecute(busted)
    return function(runs_, options)
      local children = busted.context.children(busted.context.get())
      local names, seen = {}, {}
      for _, child in ipairs(children) do
        if child.descriptor == 'file' and not seen[child.name] then
          seen[child.name] = true
          names[#names + 1] = child.name
        end
      end
      deal(names)
      if not opts.matrix then
        for i = #children, 1, -1 do
          if children[i].descriptor == 'file' and not runs(children[i].name, 1) then table.remove(children, i) end
        end
      end
      return execute(runs_, options)
    end
  end
end

return { runs = runs, filesFor = filesFor, ranAny = ranAny }

-- traitlab test's workers (the driver, busted.lua, loads this part): a
-- worker records every event of its files for its parent; the parent hands
-- out files (and matrix combinations) and replays what the workers recorded
-- into its own busted, so that every output handler writes one report.

local driver = ...   -- what the driver shares with its parts
local tl, opts = driver.tl, driver.opts
local unpack = table.unpack
local combinationOf = driver.combinationOf
local recorded = {}   -- recordKey(file name, combination) -> { records, done }

---------------------------------------------------------------------------
-- Workers: record every event of each file, one Lua line per record, so a
-- worker that dies leaves everything up to its last complete line.

-- Under --memory-limit what a worker sends is bounded too, since its parent
-- holds every file's records at once: a string past 2 KB is cut (its length
-- said), and once a file's records reach the cap every string is cut to 80
-- bytes. (2,000 tests sharing a 100 KB name made 200 MB of records.)
local recordBudget = opts.memory
local function bounded(text)
  if not recordBudget then return text end
  local keep = recordBudget > 0 and 2048 or 80
  if #text > keep then text = text:sub(1, keep) .. ('... (%d bytes)'):format(#text) end
  recordBudget = math.max(0, recordBudget - #text)
  return text
end

local function serialize(v, depth, seen)
  local t = type(v)
  if t == 'string' then return (('%q'):format(bounded(v)):gsub('\\\n', '\\n'))
  elseif t == 'number' then
    if v ~= v then return '(0/0)' end
    return ('%q'):format(v)
  elseif t == 'boolean' then return tostring(v)
  elseif t == 'table' and depth < 6 and not seen[v] then
    seen[v] = true
    local parts = {}
    for k, x in next, v do
      local kt = type(k)
      if (kt == 'string' or kt == 'number') and type(x) ~= 'function' and k ~= 'env' and type(x) ~= 'userdata' and type(x) ~= 'thread' then
        parts[#parts + 1] = '[' .. serialize(k, depth + 1, seen) .. ']=' .. serialize(x, depth + 1, seen)
      end
    end
    seen[v] = nil
    return '{' .. table.concat(parts, ',') .. '}'
  end
  return 'nil'
end

package.preload['traitlab.recorder'] = function()
  return function()
    local busted = require 'busted'
    local out = assert(io.open(opts.worker.events, 'w'))
    local ids, nextId, current = {}, 0, nil
    local function write(record)
      out:write(serialize(record, 0, {}), '\n')
    end
    local function id(element)
      if element == nil then return nil end
      local known = ids[element]
      if known then return known end
      nextId = nextId + 1
      ids[element] = nextId
      local parent = busted.parent(element)
      write { k = 'el', id = nextId, p = parent and id(parent), d = element.descriptor, n = element.name,
              t = element.trace, a = element.attributes }
      return nextId
    end
    local function times(element)
      return { duration = element.duration, starttime = element.starttime, endtime = element.endtime,
               starttick = element.starttick, endtick = element.endtick }
    end
    local function record(channel)
      return function(element, parent, ...)
        if not current and channel[1] == 'error' and element and element.descriptor == 'file' and element.name then
          -- A file that does not load (reported before the suite starts).
          write { k = 'loaderror', n = element.name, a = { ... } }
          out:flush()
        elseif current then
          local first = channel[1]
          local c = (first == 'error' or first == 'failure' or first == 'pending')
                    and { first, element and element.descriptor } or channel
          write { k = 'ev', c = c, e = id(element), p = parent and id(parent), f = element and times(element),
                  n = select('#', ...), a = { ... } }
        end
        return nil, true
      end
    end
    local handler = {}
    function handler:subscribe()
      busted.subscribe({ 'file', 'start' }, function(file)
        current = file
        ids[file] = nil
        nextId = nextId + 1
        ids[file] = nextId
        recordBudget = opts.memory
        write { k = 'file', id = nextId, n = file.name }
        return nil, true
      end)
      busted.subscribe({ 'file', 'end' }, function(file)
        write { k = 'done', n = file.name }
        out:flush()
        current = nil
        return nil, true
      end)
      for _, channel in ipairs { { 'describe', 'start' }, { 'describe', 'end' }, { 'test', 'start' },
                                 { 'test', 'end' }, { 'error' }, { 'failure' }, { 'pending' } } do
        busted.subscribe(channel, record(channel))
      end
      busted.subscribe({ 'exit' }, function() out:close() return nil, true end)
    end
    return handler
  end
end

local function onlyAssignedFiles()
  local assigned = {}
  for line in io.lines(opts.worker.files) do assigned[line] = true end
  local loader = require 'busted.modules.files.lua'
  local match = loader.match
  loader.match = function(busted, filename)
    return assigned[filename] and match(busted, filename)
  end
end

---------------------------------------------------------------------------
-- The parent: hand the files to workers at suite start, replay each file
-- when busted runs it.

local function readRecords(path)
  local files, order, cur = {}, {}, nil
  local f = io.open(path, 'r')
  if not f then return files end
  for line in f:lines() do
    local chunk = load('return ' .. line, '=record', 't', {})
    local ok, r = pcall(chunk or error)
    if ok and type(r) == 'table' then
      if r.k == 'file' then
        cur = { records = {}, fileId = r.id }
        files[r.n] = cur
        order[#order + 1] = r.n
      elseif r.k == 'loaderror' then
        files[r.n] = { records = {}, done = true, loadError = r.a }
      elseif r.k == 'done' and cur then
        cur.done = true
        cur = nil
      elseif cur then
        table.insert(cur.records, r)
      end
    end
  end
  f:close()
  return files
end

-- Work for the workers, a group of spec files for one combination of the
-- matrix each (or for the one run): under --sandbox one file a process
-- (nothing a file does reaches another), otherwise each combination's files
-- dealt out so that about -j processes share the work.
local function workerGroups(names)
  local groups = {}
  local combos = opts.matrix or { false }
  local allNames = names
  for c, combo in ipairs(combos) do
    local names = driver.shards.filesFor(allNames, c)   -- (--shard: this slice's)
    if opts.sandbox then
      for _, name in ipairs(names) do groups[#groups + 1] = { files = { name }, combo = combo } end
    else
      local chunks = math.min(#names, math.max(1, math.ceil(opts.jobs / #combos)))
      for w = 1, chunks do
        local mine = {}
        for i = w, #names, chunks do mine[#mine + 1] = names[i] end
        groups[#groups + 1] = { files = mine, combo = combo }
      end
    end
  end
  return groups
end

-- The key of a file's records: its name, and its combination's label.
local function recordKey(name, combo)
  return combo and (combo.label .. ' ' .. name) or name
end

local function startWorker(group)
  local list = os.tmpname()
  local events = os.tmpname()
  local f = assert(io.open(list, 'w'))
  for _, name in ipairs(group.files) do f:write(name, '\n') end
  f:close()
  local argv = { '--worker-files', list, '--worker-events', events }
  for _, a in ipairs(group.combo and group.combo.args or {}) do argv[#argv + 1] = a end
  for _, a in ipairs(opts.worker_arguments) do argv[#argv + 1] = a end
  local pid, err = tl.spawn(argv)
  return { pid = pid, err = err, list = list, events = events, files = group.files, combo = group.combo }
end

local function finishWorker(w, code, signal)
  local how = w.err
  local finalizers = code == 3   -- (SpecRunner.finalizerTimeoutStatus)
  if signal then how = ('the worker process running it was killed by signal %d'):format(signal)
  elseif finalizers then how = ('a finalizer did not return within --timeout %s when the worker running it closed its state'):format(('%g'):format(opts.timeout or 0))
  elseif code and code ~= 0 and code ~= 1 then how = ('the worker process running it exited with status %d'):format(code) end
  local files = readRecords(w.events)
  for i, name in ipairs(w.files) do
    local r = files[name] or { records = {} }
    if not r.done or (finalizers and i == #w.files) then
      r.crash = how or 'the worker process running it stopped before the file ended'
    end
    recorded[recordKey(name, w.combo)] = r
  end
  os.remove(w.list)
  os.remove(w.events)
end

local function runWorkers(busted, suite)
  local names = {}
  for _, child in ipairs(busted.context.children(suite)) do
    if child.descriptor == 'file' then names[#names + 1] = child.name end
  end
  recorded = {}
  local groups = workerGroups(names)
  if opts.matrix then
    -- Each file runs once per combination: the suite holds a file element
    -- for each, in combination order, which the replay below fills.
    local context = busted.context
    local files = context.children(suite)
    local originals = {}
    for i, child in ipairs(files) do originals[i] = child; files[i] = nil end
    for c, combo in ipairs(opts.matrix) do
      for _, child in ipairs(originals) do
        if child.descriptor ~= 'file' then
          context.attach(child)
        elseif driver.shards.runs(child.name, c) then   -- (--shard: this slice's)
          local copy = {}
          for k, v in pairs(child) do copy[k] = v end
          copy.combo = combo
          context.attach(copy)
        end
      end
    end
  end
  local running, count, nextGroup = {}, 0, 1
  while nextGroup <= #groups or count > 0 do
    while count < math.max(1, opts.jobs) and nextGroup <= #groups do
      local w = startWorker(groups[nextGroup])
      nextGroup = nextGroup + 1
      if w.pid then running[w.pid] = w; count = count + 1 else finishWorker(w) end
    end
    if count > 0 then
      local pid, code, signal = tl.wait_any()
      if not pid then break end
      local w = running[pid]
      if w then
        running[pid] = nil
        count = count - 1
        finishWorker(w, code, signal)
      end
    end
    driver.progress(nextGroup - 1 - count, #groups)   -- (a matrix's progress, on a terminal)
  end
  -- Replays one file's records inside the parent's file block.
  return function(file)
    local combo = file.combo
    local r = recorded[recordKey(file.name, combo)]
    if not r then return end
    if r.loadError then
      local e = { descriptor = 'file', name = file.name, combination = combo and combo.label }
      if combo then combinationOf[e] = combo end
      busted.publish({ 'error', 'file' }, e, nil, unpack(r.loadError, 1, 2))
      return
    end
    local elements = { [r.fileId or -1] = file }
    local context = busted.context
    for _, rec in ipairs(r.records) do
      if rec.k == 'el' then
        local e = { descriptor = rec.d, name = rec.n, trace = rec.t, attributes = rec.a or {} }
        if combo then
          -- Every report names the combination: the full name starts with
          -- it (text, TAP, JUnit), and JSON's element carries it.
          e.combination = combo.label
          combinationOf[e] = combo
          if rec.p == r.fileId then e.name = combo.label .. ' ' .. tostring(e.name) end
        end
        elements[rec.id] = e
        local parent = elements[rec.p] or file
        context.push(parent)
        context.attach(e)
        context.pop()
      elseif rec.k == 'ev' then
        local e = elements[rec.e] or {}
        for k, v in pairs(rec.f or {}) do e[k] = v end
        busted.publish(rec.c, e, rec.p and elements[rec.p] or nil, unpack(rec.a or {}, 1, rec.n or 0))
      end
    end
    -- The replayed elements keep their parents (for full names) but are not
    -- the file's children: busted must not run them after this body.
    local children = context.children(file)
    for i = #children, 1, -1 do children[i] = nil end
    if r.crash then
      -- Reported as busted reports a file that does not load: on an element
      -- of its own, plain data (busted's JSON handler cannot encode the file
      -- element, which holds functions).
      local trace = { short_src = file.name, currentline = 0, traceback = '', message = r.crash }
      local e = { descriptor = 'file', name = file.name, trace = trace, combination = combo and combo.label }
      if combo then combinationOf[e] = combo end
      busted.publish({ 'error', 'file' }, e, nil, (combo and combo.label .. ' ' or '') .. file.name .. ': ' .. r.crash, trace)
    end
  end
end


return { onlyAssignedFiles = onlyAssignedFiles, runWorkers = runWorkers }

-- traitlab test's workers (the driver, busted.lua, loads this part): the
-- parent hands out groups of files (a matrix's combination, or one file
-- under --sandbox) to worker processes, each of which loads busted once and
-- runs each group in a process forked from itself (TestCommand.swift,
-- runWorkerPlan); each group records every event of its files as data; the
-- parent publishes what was recorded on its own busted's bus, so that every
-- output handler writes one report.

local driver = ...   -- what the driver shares with its parts
local tl, opts = driver.tl, driver.opts
local unpack = table.unpack
local combinationOf = driver.combinationOf
local recorded = {}   -- recordKey(file name, combination) -> { records, done }

---------------------------------------------------------------------------
-- Workers: record every event of each file, one record at a time, so a
-- worker that dies leaves everything up to its last complete record.

-- Under --memory-limit what a worker sends is bounded too, since its parent
-- holds every file's records at once: a string past 2 KB is cut (its length
-- said), and once a file's records reach the cap every string is cut to 80
-- bytes. (2,000 tests sharing a 100 KB name made 200 MB of records.)
-- Records are data, not code (CSpecRunner/records.c): each a length-prefixed
-- payload of tagged strings, numbers, booleans and tables, without the
-- functions, so a worker that dies in the middle of a write leaves a short
-- tail its parent drops, and the parent reads it as untrusted input.
local recordBudget = opts.memory
local function serialize(record)
  local bytes
  bytes, recordBudget = tl.encode_record(record, recordBudget)
  return bytes
end

package.preload['traitlab.recorder'] = function()
  return function()
    local busted = require 'busted'
    local out = assert(io.open(opts.worker.events, 'wb'))
    local ids, nextId, current = {}, 0, nil
    local function write(record)
      out:write(serialize(record))
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
        write { k = 'file', id = nextId, n = file.name, f = times(file) }
        return nil, true
      end)
      busted.subscribe({ 'file', 'end' }, function(file)
        write { k = 'done', n = file.name, f = times(file) }
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
-- The parent: at suite start, hand the files (for each combination of a
-- matrix) to workers and wait for them; then publish what they recorded on
-- busted's bus, file by file, so that every output handler writes one
-- report. The parent runs no file through busted's file block (no spec code
-- runs here, so nothing needs insulating).

-- What a record may ask the parent to publish: the channels the recorder
-- subscribes to, nothing else (a forged stream cannot end the suite or the
-- run early, nor register anything). Errors, failures and pendings name the
-- kind of block they happened in (it, describe, before_each, ...).
local replayable = {
  describe = { start = true, ['end'] = true },
  test = { start = true, ['end'] = true },
  error = true, failure = true, pending = true,
}

-- The channel a record names, if the recorder may send it (a table of its
-- own for each publish, as busted's own calls make one); whether a name may
-- be replayed is decided once per name (a run publishes a few channels many
-- times).
local replayed = {}
local function channelFor(c)
  if type(c) ~= 'table' or type(c[1]) ~= 'string' or (c[2] ~= nil and type(c[2]) ~= 'string') then return nil end
  local key = c[2] == nil and c[1] or c[1] .. '\0' .. c[2]
  local ok = replayed[key]
  if ok == nil then
    local allowed = replayable[c[1]]
    ok = allowed == true or (type(allowed) == 'table' and allowed[c[2]] == true)
    replayed[key] = ok
  end
  return ok and { c[1], c[2] } or nil
end

-- (Field by field: a loop over their names was a tenth of publishing.)
local function copyTimes(element, f)
  if type(f) ~= 'table' then return end
  local v = f.duration; if type(v) == 'number' then element.duration = v end
  v = f.starttime; if type(v) == 'number' then element.starttime = v end
  v = f.endtime; if type(v) == 'number' then element.endtime = v end
  v = f.starttick; if type(v) == 'number' then element.starttick = v end
  v = f.endtick; if type(v) == 'number' then element.endtick = v end
end

-- A group's recorded files by name: { records, done, fileId, times } (or
-- { loadError } for a file that did not load).
local function readRecords(path)
  local files, cur = {}, nil
  local f = io.open(path, 'rb')
  if not f then return files end
  local data = f:read('a') or ''
  f:close()
  for _, r in ipairs(tl.decode_records(data)) do
    local name = r.n
    if r.k == 'file' and type(name) == 'string' and math.type(r.id) == 'integer' then
      cur = { records = {}, fileId = r.id, start = r.f }
      files[name] = cur
    elseif r.k == 'loaderror' and type(name) == 'string' then
      files[name] = { records = {}, done = true, loadError = type(r.a) == 'table' and r.a or {} }
    elseif r.k == 'done' and cur then
      cur.done = true
      cur.finish = r.f
      cur = nil
    elseif cur and (r.k == 'el' or r.k == 'ev') then
      cur.records[#cur.records + 1] = r
    end
  end
  return files
end

-- Work for the workers, a group of spec files for one combination of the
-- matrix each (or for the one run): under --sandbox one file a group
-- (nothing a file does reaches another), otherwise each combination's files
-- dealt out so that about -j groups share the work.
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

-- A new file's path in the run's private folder (SpecRunner.swift,
-- RunFolder: removed as the run ends; a killed run's is removed by the
-- next one).
local fileCount = 0
local function runFile(kind)
  local folder = assert(tl.run_folder())
  fileCount = fileCount + 1
  return ('%s/%s%d'):format(folder, kind, fileCount)
end

-- A worker process runs its groups one after another, each in a process
-- forked from it once busted is loaded (TestCommand.swift, runWorkerPlan):
-- its plan names each group's files, events and combination's options.
local function startWorker(groups)
  local w = { plan = runFile('plan'), status = runFile('status'), groups = groups }
  local plan = assert(io.open(w.plan, 'w'))
  plan:write('status ', w.status, '\n')
  for _, group in ipairs(groups) do
    group.list = runFile('files')
    group.events = runFile('events')
    local f = assert(io.open(group.list, 'w'))
    for _, name in ipairs(group.files) do f:write(name, '\n') end
    f:close()
    plan:write('files ', group.list, '\n', 'events ', group.events, '\n')
    for _, a in ipairs(group.combo and group.combo.args or {}) do
      -- (Options of the command line, one a line: a line break cannot be in one.)
      plan:write('arg ', (a:gsub('\n', ' ')), '\n')
    end
    plan:write('end\n')
  end
  plan:close()
  local argv = { '--worker-plan', w.plan }
  for _, a in ipairs(opts.worker_arguments) do argv[#argv + 1] = a end
  w.pid, w.err = tl.spawn(argv)
  return w
end

-- What ended a group: its process's status (from the worker's status file),
-- or, for a group the worker did not get to, the worker's own.
local function groupEnd(code, signal, err)
  local how = err
  local finalizers = code == 3   -- (SpecRunner.finalizerTimeoutStatus)
  if signal then how = ('the worker process running it was killed by signal %d'):format(signal)
  elseif finalizers then how = ('a finalizer did not return within --timeout %s when the worker running it closed its state'):format(('%g'):format(opts.timeout or 0))
  elseif code and code ~= 0 and code ~= 1 then how = ('the worker process running it exited with status %d'):format(code) end
  return how, finalizers
end

-- A group has ended: its records are read and kept by file (a file that
-- did not end is reported as its crash).
local endedGroups = 0   -- (of the run: runWorkers counts from 0)
local function finishGroup(group, code, signal, err)
  if group.ended then return end
  group.ended = true
  endedGroups = endedGroups + 1
  local how, finalizers = groupEnd(code, signal, err)
  local files = readRecords(group.events)
  for i, name in ipairs(group.files) do
    local r = files[name] or { records = {} }
    if not r.done or (finalizers and i == #group.files) then
      r.crash = how or 'the worker process running it stopped before the file ended'
    end
    recorded[recordKey(name, group.combo)] = r
  end
  os.remove(group.list)
  os.remove(group.events)
end

-- The groups a worker has ended so far, from the lines of its status file
-- ("index code signal", one as each group's process ends).
local function pollWorker(w)
  local f = io.open(w.status, 'r')
  if not f then return end
  for line in f:lines() do
    local i, c, s = line:match('^(%d+) (%-?%d+) (%d+)$')
    i, c, s = tonumber(i), tonumber(c), tonumber(s)
    local group = i and w.groups[i]
    if group and not group.ended then
      finishGroup(group, c >= 0 and c or nil, s > 0 and s or nil)
    end
  end
  f:close()
end

-- The worker process has ended: what its status file says ended each
-- group; a group it did not get to ended with the worker.
local function finishWorker(w, code, signal)
  pollWorker(w)
  for _, group in ipairs(w.groups) do finishGroup(group, code, signal, w.err) end
  os.remove(w.plan)
  os.remove(w.status)
end

-- busted.safe_publish with the worker's times: the file's start and end
-- as busted's file block publishes them, timed where the file ran.
local function publishFile(busted, file, channel, times)
  copyTimes(file, times)
  return busted.safe('file', function() busted.publish(channel, file) end, file):success()
end

-- Publishes one file's records: its start and end, the events in between
-- as the worker saw them.
local function replayFile(busted, file, r)
  local combo = file.combo
  -- An error of the file itself, on an element of its own (plain data:
  -- busted's JSON handler encodes it): in a matrix its name starts with the
  -- combination, as every result's does (the JUnit report finds the file
  -- through driver.specFileOf).
  local function fileError(trace)
    local e = { descriptor = 'file', name = file.name, trace = trace }
    if combo then
      e.name, e.combination = combo.label .. ' ' .. file.name, combo.label
      combinationOf[e] = combo
      driver.specFileOf[e] = file.name
    end
    return e
  end
  if r.loadError then
    -- (Its place: the line a syntax error names, else the file.)
    local message = r.loadError[1]
    local line = type(message) == 'string' and message:sub(1, #file.name + 1) == file.name .. ':'
                 and tonumber(message:match('^:(%d+):', #file.name + 1))
    local e = fileError({ short_src = file.name, currentline = line or 0, traceback = '' })
    busted.publish({ 'error', 'file' }, e, nil, unpack(r.loadError, 1, 2))
    return
  end
  if publishFile(busted, file, { 'file', 'start' }, r.start) then
    busted.safe('file', function()
      local elements = { [r.fileId or -1] = file }
      local context = busted.context
      for _, rec in ipairs(r.records) do
        if rec.k == 'el' and math.type(rec.id) == 'integer' and not elements[rec.id] then
          local e = { descriptor = type(rec.d) == 'string' and rec.d or 'it', name = rec.n,
                      trace = type(rec.t) == 'table' and rec.t or nil,
                      attributes = type(rec.a) == 'table' and rec.a or {} }
          if combo then
            -- Every report names the combination: the full name starts with
            -- it (text, TAP, JUnit), and JSON's element carries it.
            e.combination = combo.label
            combinationOf[e] = combo
            if rec.p == r.fileId then e.name = combo.label .. ' ' .. tostring(e.name) end
          end
          elements[rec.id] = e
          context.push(elements[rec.p] or file)
          context.attach(e)
          context.pop()
        elseif rec.k == 'ev' then
          local channel = channelFor(rec.c)
          local e = elements[rec.e]
          if channel and e then
            copyTimes(e, rec.f)
            local n = math.type(rec.n) == 'integer' and math.max(0, math.min(rec.n, 8)) or 0
            local args = type(rec.a) == 'table' and rec.a or {}
            busted.publish(channel, e, rec.p and elements[rec.p] or nil, unpack(args, 1, n))
          end
        end
      end
      if r.crash then
        -- Reported as busted reports a file that does not load: on an
        -- element of its own, plain data (busted's JSON handler cannot
        -- encode the file element, which holds functions).
        local trace = { short_src = file.name, currentline = 0, traceback = '', message = r.crash }
        local e = fileError(trace)
        busted.publish({ 'error', 'file' }, e, nil, (combo and combo.label .. ' ' or '') .. file.name .. ': ' .. r.crash, trace)
      end
    end, file)
  end
  publishFile(busted, file, { 'file', 'end' }, r.finish)
end

-- At suite start: starts the workers and leaves the suite with nothing for
-- busted to run. Returns what publishes every file of every combination in
-- order (busted's --shuffle and --sort already ordered the files), which
-- the driver calls where busted would have run them: each file as soon as
-- the group that ran it has ended, so that the report is written while the
-- workers go on (and the parent's publishing overlaps their work).
local function runWorkers(busted, suite)
  local context = busted.context
  local children = context.children(suite)
  local files, names = {}, {}
  for _, child in ipairs(children) do
    if child.descriptor == 'file' then
      files[#files + 1] = child
      names[#names + 1] = child.name
    end
  end
  recorded, endedGroups = {}, 0
  local groups = workerGroups(names)
  local groupOf = {}
  for _, group in ipairs(groups) do
    for _, name in ipairs(group.files) do groupOf[recordKey(name, group.combo)] = group end
  end
  local jobs = math.max(1, math.min(opts.jobs, #groups))
  local workers = {}
  for w = 1, jobs do workers[w] = {} end
  for i, group in ipairs(groups) do table.insert(workers[(i - 1) % jobs + 1], group) end
  local running, count = {}, 0
  for _, mine in ipairs(workers) do
    if #mine > 0 then
      local w = startWorker(mine)
      if w.pid then running[w.pid] = w; count = count + 1 else finishWorker(w) end
    end
  end
  for i = #children, 1, -1 do children[i] = nil end
  -- The files as reports see them: one element for each combination and
  -- file, a child of the suite, not insulated (nothing runs in it).
  local order = {}
  for c, combo in ipairs(opts.matrix or { false }) do
    for _, original in ipairs(files) do
      if driver.shards.runs(original.name, c) then   -- (--shard: this slice's)
        local copy = {}
        for k, v in pairs(original) do copy[k] = v end
        local attributes = {}
        for k, v in pairs(original.attributes or {}) do attributes[k] = v end
        attributes.envmode = nil
        copy.attributes = attributes
        copy.combo = combo or nil
        context.attach(copy)
        order[#order + 1] = copy
      end
    end
  end
  for i = #children, 1, -1 do children[i] = nil end

  -- A matrix's progress, on a terminal: the groups ended, counted as the
  -- workers say. Once the report has started on the same terminal, the
  -- report is the progress (a line rewritten there would overwrite it).
  local watch = opts.matrix and #groups > 1 and tl.is_terminal(2)
  local sameTerminal = watch and tl.is_terminal(1)
  local shown = false
  local function showProgress()
    if not watch or (endedGroups == #groups and not shown) then return end
    driver.progress(endedGroups, #groups)   -- (the last count clears the line)
    shown = endedGroups < #groups
  end
  local function clearProgress()
    if shown then driver.clearProgress(); shown = false end
    if sameTerminal then watch = false end
  end
  -- Waits until `group` has ended (every group, without one): a worker
  -- process that ends is reaped; a worker that ends a group says so on the
  -- parent's notification pipe (TestCommand.swift, runWorkerPlan), which
  -- wakes wait_any, and its status file says which group and how.
  local function waitFor(group)
    local quiet = 0
    while count > 0 and not (group and group.ended) do
      local pid, code, signal = tl.wait_any(0.05)
      if pid == false then
        local before = endedGroups
        for _, w in pairs(running) do pollWorker(w) end
        quiet = quiet + 1
        if endedGroups ~= before or quiet >= 5 then showProgress(); quiet = 0 end
      elseif not pid then
        break
      else
        local w = running[pid]
        if w then
          running[pid] = nil
          count = count - 1
          finishWorker(w, code, signal)
          showProgress()
        end
      end
    end
    -- (No child left to wait for: whatever did not end, ended with it.)
    if count > 0 and not (group and group.ended) then
      for pid, w in pairs(running) do finishWorker(w) running[pid] = nil end
      count = 0
    end
  end
  return function()
    for _, file in ipairs(order) do
      if busted.skipAll then break end
      local key = recordKey(file.name, file.combo)
      local group = groupOf[key]
      if group and not group.ended then
        waitFor(group)
        clearProgress()
      end
      local r = recorded[key]
      if r then replayFile(busted, file, r) end
    end
    -- Every worker is waited for (and its files removed), whatever was
    -- published.
    waitFor(nil)
    clearProgress()
    tl.remove_run_folder()
  end
end


return { onlyAssignedFiles = onlyAssignedFiles, runWorkers = runWorkers }

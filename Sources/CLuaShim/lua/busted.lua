-- traitlab test: busted's own runner (`busted.runner`, unchanged) inside
-- TraitLab's host, with TraitLab's additions made on busted's extension points:
--
--   * `busted.core` is wrapped: the busted object it makes gets TraitLab's
--     subscribers (counting, the closing line) and a `busted.safe` that brackets
--     each call into spec code (a file's body, a describe body, a test, a hook):
--     fresh engine world and sandbox per file, per-call deadline and memory cap.
--   * `os.exit` from spec code stops that code and fails it (the run goes on).
--   * -j N: the parent's file loader hands files to worker processes (each runs
--     this same runner with the `traitlab.recorder` output handler) and replays
--     what they recorded into the parent's busted, so every output handler
--     (busted's or the user's) writes one report.
--
-- Called by SpecRunner.swift as driver(tl, opts); returns the exit status.
-- `tl` holds the host's functions; `opts` the command line's TraitLab options.
local tl, opts = ...

local unpack = table.unpack

local handlerNames = { tap = 'TAP', junit = 'junit', json = 'json' }

-- Busted's modules, luassert, say, penlight and the other companions are
-- trusted: an interrupt (timeout, os.exit) stops only the spec's own code.
for _, name in ipairs { 'busted.core', 'luassert.assert', 'say', 'pl.path', 'mediator', 'dkjson',
                        'cliargs', 'term', 'system', 'argparse', 'luacov.runner' } do
  local file = package.searchpath(name, package.path)
  if file then
    local top = name:match('^[^.]+')
    local dir = file:match('^(.*/)' .. top:gsub('%p', '%%%0') .. '[/.]')
    if dir then
      tl.trust('@' .. dir .. top .. '/')
      tl.trust('@' .. dir .. top .. '.lua')
    end
  end
end
tl.trust('=traitlab')

-- A loop in a coroutine or in a finalizer inside a test stops too (see spec.c).
coroutine.resume, coroutine.wrap = tl.resume, tl.wrap
-- So does a spec's xpcall message handler that loops (Lua runs it with hooks
-- off once the interrupt's error is raised): skipped while an interrupt is pending.
xpcall = tl.xpcall
-- busted takes a traceback for every block it registers: the same text, faster (see spec.c).
debug.traceback = tl.traceback

---------------------------------------------------------------------------
-- The command line busted reads

local function withOptions(args, extra, atEnd)
  local out, dashdash = {}, nil
  for i, a in ipairs(args) do
    if a == '--' and not dashdash then dashdash = i end
    out[#out + 1] = a
  end
  local at = atEnd and (dashdash or #out + 1) or 1
  for k, a in ipairs(extra) do table.insert(out, at + k - 1, a) end
  return out
end

local args = opts.args
if handlerNames[opts.format] then args = withOptions(args, { '-o', handlerNames[opts.format] }, false) end
-- A worker reports to the parent, once per parent run (the parent repeats).
if opts.worker then args = withOptions(args, { '-o', 'traitlab.recorder', '--repeat=1' }, true) end
arg = { [0] = 'traitlab test' }
for i, a in ipairs(args) do arg[i] = a end

---------------------------------------------------------------------------
-- Machine formats: standard output carries the document alone. Everything
-- else written to fd 1 (spec prints, busted's notes) goes to standard error;
-- the handler's document is captured at `suite end` and written to the real
-- standard output at exit, with characters XML forbids replaced in JUnit.

local capture
local machineFormat   -- 'junit' or 'json' once busted loads that handler

-- The handler busted loads (named by --format, -o or a .busted file) decides.
local makeOutputLoader = require 'busted.modules.output_handler_loader'
package.loaded['busted.modules.output_handler_loader'] = function(...)
  local loadHandler = makeOutputLoader(...)
  return function(busted, output, options)
    if not opts.worker and (output == 'junit' or output == 'json') and not machineFormat then
      machineFormat = output
      tl.redirect_stdout()
    end
    if output ~= 'json' then return loadHandler(busted, output, options) end
    -- busted's JSON handler encodes its elements as they are, and a pending
    -- test's holds a function (its default_fn), which dkjson refuses: with a
    -- pending test it wrote nothing and busted counted an error (busted issue
    -- #729, open). While it writes, a value JSON cannot hold becomes dkjson's
    -- own placeholder string (json.encodeexception).
    local json, encode = require 'dkjson', nil
    busted.subscribe({ 'suite', 'end' }, function()
      encode = encode or json.encode
      json.encode = function(value, state)
        state = state or {}
        if state.exception == nil then state.exception = json.encodeexception end
        return encode(value, state)
      end
      return nil, true
    end, { priority = 1 })
    local handler = loadHandler(busted, output, options)
    busted.subscribe({ 'suite', 'end' }, function()
      if encode then json.encode, encode = encode, nil end
      return nil, true
    end)
    return handler
  end
end

local function startCapture()
  if machineFormat and not capture then
    capture = io.tmpfile()
    if capture then io.output(capture) end
  end
  return nil, true
end

-- XML is text: each byte that is not part of valid UTF-8 becomes U+FFFD (a
-- test named or failing with "\255" would make the document ill-formed).
local function validUTF8(text)
  local out, i = {}, 1
  while true do
    local ok, bad = utf8.len(text, i)
    if ok then out[#out + 1] = text:sub(i); break end
    out[#out + 1] = text:sub(i, bad - 1)
    out[#out + 1] = '\u{FFFD}'
    i = bad + 1
  end
  return table.concat(out)
end

local function endCapture()
  if capture then
    io.output():flush()
    io.output(io.stdout)
    capture:seek('set')
    local text = capture:read('a') or ''
    capture:close()
    capture = nil
    if machineFormat == 'junit' then
      text = validUTF8(text):gsub('[%z\1-\8\11\12\14-\31]', '\u{FFFD}')
    end
    tl.write_stdout(text)
  end
  return nil, true
end

---------------------------------------------------------------------------
-- Sandboxed spec code: its globals end at a table with the sandbox's rules,
-- not at _G (busted's own code keeps everything).

local function sandboxGlobals()
  local S = {}
  for _, k in ipairs { 'assert', 'error', 'getmetatable', 'ipairs', 'next', 'pairs', 'pcall', 'print',
                       'rawequal', 'rawget', 'rawlen', 'rawset', 'select', 'setmetatable', 'tonumber',
                       'tostring', 'type', 'xpcall', 'collectgarbage', 'warn', '_VERSION',
                       'traits', 'ui', 'swiftui', 'plugins' } do
    S[k] = _G[k]
  end
  -- Copies of the libraries busted uses too, so a spec cannot change them
  -- under busted's feet (the string methods of "x":rep stay busted's own,
  -- and getmetatable("") does not hand them out).
  for _, k in ipairs { 'string', 'table', 'math', 'utf8', 'coroutine' } do
    local copy = {}
    for name, f in pairs(_G[k]) do copy[name] = f end
    S[k] = copy
  end
  local stringMeta = getmetatable('')
  local getmeta = getmetatable
  S.getmetatable = function(v)
    local mt = getmeta(v)
    if mt == stringMeta then return { __index = S.string } end
    return mt
  end
  -- Plugins: the ones already loaded (no file is read from a sandboxed spec).
  local realPlugins = plugins
  S.plugins = {
    list = realPlugins.list,
    load = function(name)
      for _, p in ipairs(realPlugins.list()) do
        if p.name == name then return realPlugins.load(name) end
      end
      error(("plugins.load: the sandbox loads no plugin files; '%s' is not loaded"):format(tostring(name)), 2)
    end,
    reload = function() error('plugins.reload reads a file: not available in the sandbox', 2) end,
    addPath = function() error('plugins.addPath: the sandbox reads no files', 2) end,
    path = function() return {} end,
  }
  S.os = { clock = os.clock, time = os.time, date = os.date, difftime = os.difftime }
  S.debug = { traceback = debug.traceback }
  local rawload = load
  S.load = function(chunk, name, mode, ...)
    if mode ~= nil and mode ~= 't' then error('load: only text chunks are allowed in the sandbox', 2) end
    if select('#', ...) == 0 then return rawload(chunk, name, 't', S) end
    return rawload(chunk, name, 't', ...)
  end
  local allowed = { string = S.string, table = S.table, math = S.math, utf8 = S.utf8,
                    coroutine = S.coroutine, os = S.os, debug = S.debug, _G = S }
  for _, k in ipairs { 'traitlab', 'busted', 'luassert', 'luassert.spy', 'luassert.stub',
                       'luassert.mock', 'luassert.match', 'say' } do
    allowed[k] = package.loaded[k] or (k:match('^luassert') or k == 'say') and require(k) or nil
  end
  allowed.traitlab = { traits = S.traits, ui = S.ui, swiftui = S.swiftui, plugins = S.plugins }
  S.require = function(name)
    local m = allowed[name]
    if m == nil then error(("module '%s' is not available in the sandbox"):format(tostring(name)), 2) end
    return m
  end
  S._G = S
  return S
end
if opts.sandbox then string.dump = nil end

---------------------------------------------------------------------------
-- The parent of -j workers: files are run by workers and replayed here.

local recorded = {}   -- file name -> { records, done }
local replayFile      -- set below when running workers

---------------------------------------------------------------------------
-- TraitLab's additions on each busted object

local passed, failed, skipped = 0, 0, 0
local closingLine
local endSubscribed

local function extend(busted)
  local setfenv = require 'busted.compatibility'.setfenv
  local safe = busted.safe
  local fileBase = 0

  local function isSpecCall(descriptor, run, element)
    return not opts.parent and (run == element.run or descriptor == 'finally')
  end

  local function specEnv(S)
    local context = busted.context
    return setmetatable({}, {
      __index = function(_, key)
        local e = context.get()
        while e do
          local env = rawget(e, 'env')
          if env then
            local v = env[key]
            if v ~= nil then return v end
          end
          e = context.parent(e)
        end
        return S[key]
      end,
      __newindex = function(_, key, value)
        local e = context.get()
        if not e.env then e.env = {} end
        e.env[key] = value
      end,
    })
  end

  local function startFile(file)
    tl.reset_world()
    fileBase = tl.counted()
    if opts.sandbox then
      local f = (debug.getmetatable(file.run) or {}).__call or file.run
      setfenv(f, specEnv(sandboxGlobals()))
    end
  end

  busted.safe = function(descriptor, run, element)
    if not isSpecCall(descriptor, run, element) then return safe(descriptor, run, element) end
    if descriptor == 'file' then startFile(element) end
    tl.guard(opts.timeout or 0, opts.memory and fileBase + opts.memory or 0)
    local ret = table.pack(safe(descriptor, run, element))
    local stopped = tl.unguard()
    if stopped and ret[1]:success() then
      -- The spec swallowed the stop (a pcall, then nothing more to run): it still fails.
      local trace = element.trace or { short_src = tostring(element.name), currentline = 0, traceback = '' }
      local message = (trace.short_src or '?') .. ':' .. (trace.currentline or 0) .. ': ' .. stopped
      busted.publish({ 'error', element.descriptor }, element, busted.context.parent(element), message, trace)
      ret[1] = busted.status('error')
    end
    return unpack(ret, 1, ret.n)
  end

  -- Once spec code has unwound, busted publishes what happened: helpers and
  -- output handlers (code from outside busted) must not be stopped then.
  local publish = busted.publish
  busted.publish = function(channel, element, parent, message, ...)
    local paused = tl.pause()
    -- Lua calls no message handler for a memory error, so busted places it
    -- where it noticed it (in this driver): place it at the spec element.
    if type(message) == 'string' and message:match('^traitlab%.busted:%d+: not enough memory$') then
      local trace = type(element) == 'table' and element.trace
      message = (trace and (trace.short_src .. ':' .. trace.currentline .. ': ') or '') .. 'not enough memory'
                .. (opts.memory and (' (--memory-limit of %d bytes per file)'):format(opts.memory) or '')
    end
    local ret = table.pack(publish(channel, element, parent, message, ...))
    tl.resume_stop(paused)
    return unpack(ret, 1, ret.n)
  end

  -- The closing line counts what busted reports.
  busted.subscribe({ 'test', 'end' }, function(_, _, status)
    if status == 'success' then passed = passed + 1
    elseif status == 'pending' then skipped = skipped + 1
    else failed = failed + 1 end
    return nil, true
  end)
  local function outsideTest(element)
    if not element or element.descriptor ~= 'it' then failed = failed + 1 end
    return nil, true
  end
  busted.subscribe({ 'error' }, outsideTest)
  busted.subscribe({ 'failure' }, outsideTest)
  busted.subscribe({ 'suite', 'reset' }, function()
    passed, failed, skipped = 0, 0, 0
    return nil, true
  end)
  busted.subscribe({ 'suite', 'start' }, function(suite)
    if opts.parent then replayFile = opts.parent(busted, suite) end
    -- After the handlers' own subscribers (JUnit writes at exit, JSON at
    -- suite end): the document is complete then.
    if not endSubscribed then
      endSubscribed = true
      busted.subscribe({ 'exit' }, endCapture)
    end
    return nil, true
  end)
  busted.subscribe({ 'suite', 'end' }, startCapture, { priority = 1 })
  busted.subscribe({ 'exit' }, function()
    closingLine = ('%d passed, %d failed'):format(passed, failed) .. (skipped > 0 and (', %d skipped'):format(skipped) or '')
    return nil, true
  end)
  return busted
end

local makeCore = require 'busted.core'
package.loaded['busted.core'] = function(...) return extend(makeCore(...)) end

-- `--list` names the tests and runs none: no closing line then, as busted
-- prints nothing after the list.
local listOnly = false
local makeFilterLoader = require 'busted.modules.filter_loader'
package.loaded['busted.modules.filter_loader'] = function(...)
  local filter = makeFilterLoader(...)
  return function(busted, options)
    listOnly = options and options.list and true or false
    return filter(busted, options)
  end
end

---------------------------------------------------------------------------
-- os.exit: from spec code it fails the code that called it; from busted's
-- runner (and helpers) it ends the run, which returns here.

local realExit = os.exit
local exitMt = {}
os.exit = function(code)
  if tl.in_spec() then
    local message = ('os.exit(%s) called by spec code: the test fails and the run goes on'):format(tostring(code))
    tl.stop(message)
    error(message, 2)
  end
  local status = code == nil or code == true and 0 or code == false and 1 or tonumber(code) or 1
  error(setmetatable({ status = math.tointeger(status) or 1 }, exitMt), 0)
end

---------------------------------------------------------------------------
-- Workers: record every event of each file, one Lua line per record, so a
-- worker that dies leaves everything up to its last complete line.

local function serialize(v, depth, seen)
  local t = type(v)
  if t == 'string' then return (('%q'):format(v):gsub('\\\n', '\\n'))
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

local function runWorkers(busted, suite)
  local names = {}
  for _, child in ipairs(busted.context.children(suite)) do
    if child.descriptor == 'file' then names[#names + 1] = child.name end
  end
  local jobs = math.min(opts.jobs, #names)
  local workers = {}
  for w = 1, jobs do
    local list = os.tmpname()
    local events = os.tmpname()
    local f = assert(io.open(list, 'w'))
    local mine = {}
    for i = w, #names, jobs do f:write(names[i], '\n'); mine[#mine + 1] = names[i] end
    f:close()
    local argv = { '--worker-files', list, '--worker-events', events }
    for _, a in ipairs(opts.worker_arguments) do argv[#argv + 1] = a end
    local pid, err = tl.spawn(argv)
    workers[#workers + 1] = { pid = pid, err = err, list = list, events = events, files = mine }
  end
  recorded = {}
  for _, w in ipairs(workers) do
    local how = w.err
    if w.pid then
      local code, signal = tl.wait(w.pid)
      if signal then how = ('the worker process running it was killed by signal %d'):format(signal)
      elseif code ~= 0 and code ~= 1 then how = ('the worker process running it exited with status %d'):format(code) end
    end
    local files = readRecords(w.events)
    for _, name in ipairs(w.files) do
      local r = files[name] or { records = {} }
      if not r.done then
        r.crash = how or 'the worker process running it stopped before the file ended'
      end
      recorded[name] = r
    end
    os.remove(w.list)
    os.remove(w.events)
  end
  -- Replays one file's records inside the parent's file block.
  return function(file)
    local r = recorded[file.name]
    if not r then return end
    if r.loadError then
      busted.publish({ 'error', 'file' }, { descriptor = 'file', name = file.name }, nil, unpack(r.loadError, 1, 2))
      return
    end
    local elements = { [r.fileId or -1] = file }
    local context = busted.context
    for _, rec in ipairs(r.records) do
      if rec.k == 'el' then
        local e = { descriptor = rec.d, name = rec.n, trace = rec.t, attributes = rec.a or {} }
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
      busted.publish({ 'error', 'file' }, { descriptor = 'file', name = file.name, trace = trace }, nil,
                     file.name .. ': ' .. r.crash, trace)
    end
  end
end

if opts.worker then
  onlyAssignedFiles()
elseif opts.jobs and opts.jobs > 1 then
  opts.parent = runWorkers
  local loader = require 'busted.modules.files.lua'
  -- Files are not compiled here: the workers do it (and report a file that
  -- does not load); the parent's file only replays.
  local function getTrace(_, info)   -- as busted's Lua file loader trims a trace
    local index = info.traceback:find('\n%s*%[C]')
    info.traceback = info.traceback:sub(1, index)
    return info
  end
  local compile = loader.load
  loader.load = function(busted, ...)
    -- Listing runs nothing: the parent lists every file itself.
    if listOnly then return compile(busted, ...) end
    return function() if replayFile then replayFile(busted.context.get()) end end, getTrace
  end
end

---------------------------------------------------------------------------
-- Run busted's runner.

local ok, err = pcall(require 'busted.runner', { standalone = false })
local status = 0
if not ok then
  if getmetatable(err) == exitMt then
    status = err.status
  else
    io.stderr:write('traitlab: busted stopped: ', tostring(err), '\n')
    status = 1
  end
end
if failed > 0 and status == 0 then status = 1 end
io.stdout:flush()
if closingLine and not opts.worker and not listOnly then
  if machineFormat then
    io.stderr:write(closingLine, '\n')
  else
    tl.write_stdout(closingLine .. '\n')
  end
end
return status

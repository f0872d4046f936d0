-- traitlab test: busted's own runner (`busted.runner`, unchanged) inside
-- TraitLab's host, with TraitLab's additions made on busted's extension points.
-- This file is the driver; each other job is a part beside it:
--
--   busted.lua             the driver: the command line busted reads, trusted
--                          sources, `busted.core` wrapped (counting, and a
--                          `busted.safe` that brackets each call into spec
--                          code with a fresh world, a deadline and the memory
--                          cap), `os.exit`, running busted, the closing counts
--   busted_capture.lua     output handlers: machine formats captured, TAP on
--                          one line, documents their parsers accept
--   busted_matrix.lua      a matrix's reports: JUnit per combination and file,
--                          the table of each combination's counts
--   busted_sandbox.lua     --sandbox: spec code's globals and require, what
--                          busted itself may load, `.busted` read as data
--   busted_assertions.lua  assert.has_trait, assert.matches_snapshot
--   busted_workers.lua     -j, --sandbox and matrices: workers (each a
--                          process forked per group of files) record every
--                          event as data, the parent publishes them into
--                          one report
--   busted_shards.lua      --shard K/N: which files and combinations run
--
-- Called by SpecRunner.swift as driver(tl, opts); returns the exit status
-- (and the closing line's counts). `tl` holds the host's functions; `opts`
-- the command line's TraitLab options.
local tl, opts = ...

-- What the parts share (each part is a Lua file beside this one, loaded by
-- tl.part and given this table): the host's functions, the options, and the
-- state a run builds up.
local run = { tl = tl, opts = opts, combinationOf = setmetatable({}, { __mode = 'k' }),
              specFileOf = setmetatable({}, { __mode = 'k' }) }   -- (a matrix's file errors: their file)
-- The label of the matrix combination this process runs (a worker's
-- --matrix-combination; nil outside a matrix): it names snapshot files. A
-- worker that runs several combinations sets it before each.
run.combination = opts.combination
-- (Each part is loaded once: a second ask gets what the first returned.)
local loadedParts = {}
run.part = function(name)
  local loaded = loadedParts[name]
  if loaded == nil then
    loaded = tl.part(name)(run)
    loadedParts[name] = loaded
  end
  return loaded
end
local combinationOf = run.combinationOf   -- the combination of each replayed element of a matrix run
local part = run.part

-- A searcher for package.searchers that finds Lua modules on `path` only
-- and loads them as text (never a binary chunk): the rule busted's own
-- require follows when it preloads and under --sandbox.
do
  local searchpath, loadfile = package.searchpath, loadfile
  run.textSearcher = function(path)
    return function(name)
      local file, err = searchpath(name, path)
      if not file then return '\n\t' .. err end
      local chunk, message = loadfile(file, 't')
      if not chunk then
        error(("error loading module '%s' from file '%s':\n\t%s"):format(name, file, message), 0)
      end
      return chunk, file
    end
  end
end

local unpack = table.unpack
local oneTraceback

local handlerNames = { tap = 'TAP', junit = 'junit', json = 'json' }

-- Busted's modules, luassert, say, penlight and the other companions are
-- trusted: an interrupt (timeout, os.exit) stops only the spec's own code.
local trustedSources = {}
local function trust(prefix)
  tl.trust(prefix)
  trustedSources[#trustedSources + 1] = prefix
end
for _, name in ipairs { 'busted.core', 'luassert.assert', 'say', 'pl.path', 'mediator', 'dkjson',
                        'cliargs', 'term', 'system', 'argparse', 'luacov.runner' } do
  local file = package.searchpath(name, package.path)
  if file then
    local top = name:match('^[^.]+')
    local dir = file:match('^(.*/)' .. top:gsub('%p', '%%%0') .. '[/.]')
    if dir then
      trust('@' .. dir .. top .. '/')
      trust('@' .. dir .. top .. '.lua')
    end
  end
end
trust('=traitlab')

-- Whether the function at `level` of the caller's stack is busted's (or its
-- companions') own code.
local function calledByTrusted(level)
  local info = debug.getinfo(level + 1, 'S')
  if not info then return false end
  for _, prefix in ipairs(trustedSources) do
    if info.source:sub(1, #prefix) == prefix then return true end
  end
  return false
end

-- busted's own modules (files under the trusted folders above) load from
-- TraitLab's cache of their bytecode, checked against each file
-- (CSpecRunner/module_cache.c); any other module, and any that does not
-- compile, as Lua's searcher loads it. A searcher of its own, ahead of
-- Lua's: it finds a module where the searcher behind it would (on
-- package.path as it is now, with busted's lpath; under --sandbox on the
-- path the process started with, as the sandbox's searcher does), and
-- leaves every file outside those folders to it.
local startPath = package.path
local function cachedSearcher(name)
  local file = package.searchpath(name, opts.sandbox and startPath or package.path)
  if not file then return nil end
  local source = '@' .. file
  for _, prefix in ipairs(trustedSources) do
    if prefix:sub(1, 1) == '@' and source:sub(1, #prefix) == prefix then
      return tl.cached_chunk(file), file
    end
  end
  return nil
end
-- (Before busted's first module loads. The sandbox's searchers, installed
-- later, take Lua's places; this one goes back in front of them then.)
table.insert(package.searchers, 2, cachedSearcher)

-- A loop in a coroutine or in a finalizer inside a test stops too (see CLuaShim/coroutines.c).
coroutine.resume, coroutine.wrap = tl.resume, tl.wrap
-- So does a spec's xpcall message handler that loops (Lua runs it with hooks
-- off once the interrupt's error is raised): skipped while an interrupt is pending.
xpcall = tl.xpcall
-- busted takes a traceback for every block it registers: the same text, faster (see CSpecRunner/spec.c).
debug.traceback = tl.traceback

-- --shuffle, --shuffle-files, --shuffle-tests and randomize() order as under
-- Debian's `busted` command, which runs on Lua 5.1: busted's own shuffle
-- (busted/utils.lua, used by its block and execute modules, loaded after
-- this) with Lua 5.1's generator drawing the positions (see
-- CSpecRunner/lua51_random.c). Lua 5.4's math.random is still reseeded with
-- the seed, as busted's shuffle does, so spec code draws what it draws under
-- `lua5.4 busted`.
require 'busted.utils'.shuffle = function(t, seed)
  if seed then
    math.randomseed(seed)
    tl.lua51_randomseed(seed)
  end
  local n = #t
  while n >= 2 do
    local k = tl.lua51_random(n)
    t[n], t[k] = t[k], t[n]
    n = n - 1
  end
  return t
end

---------------------------------------------------------------------------
-- A worker that forks a process per group of files loads busted's modules
-- first (SpecRunner.preload, TestCommand.swift's runWorkerPlan), then runs
-- nothing: each forked process runs this driver in full, and busted's
-- runner finds the modules loaded. They are the modules busted 2.1.1's
-- runner loads in a worker before it reads its command line and `.busted`
-- (whose lpath may put a suite's own copy of a module first: Penlight's
-- suite has its pl/dir.lua), in the order it loads them, read as text from
-- the search path the process started with (the rule --sandbox gives
-- busted); a module another version of busted lacks is skipped, one it adds
-- is loaded later, as usual, and so is every module busted loads after.
if opts.preload then
  local searcher = package.searchers[3]
  package.searchers[3] = run.textSearcher(package.path)
  for _, name in ipairs {
    'busted.runner', 'pl.path', 'pl.utils', 'pl.compat', 'pl.tablex', 'pl.types', 'term', 'term.colors',
    'term.cursor', 'busted.utils', 'busted.compatibility', 'busted.options', 'busted.core', 'pl.pretty',
    'pl.lexer', 'pl.stringx', 'system', 'mediator', 'busted.context', 'busted.environment', 'busted.status',
    'busted.modules.cli', 'cliargs.core', 'cliargs.utils.disect', 'cliargs.utils.split', 'cliargs.utils.lookup',
    'cliargs.utils.filter', 'cliargs.utils.shallow_copy', 'cliargs.printer', 'cliargs.utils.wordwrap',
    'cliargs.constants', 'cliargs.config_loader', 'cliargs.utils.trim', 'cliargs.parser',
    'cliargs.utils.disect_argument', 'busted.modules.configuration_loader', 'busted.modules.filter_loader',
    'busted.modules.helper_loader', 'busted.modules.output_handler_loader', 'busted.modules.luacov', 'busted',
    'busted.init', 'busted.block', 'luassert', 'luassert.assert', 'say', 'luassert.state', 'luassert.util',
    'luassert.namespaces', 'luassert.assertions', 'luassert.modifiers', 'luassert.array', 'luassert.matchers',
    'luassert.matchers.core', 'luassert.matchers.composite', 'luassert.match', 'luassert.formatters',
    'luassert.languages.en', 'luassert.spy', 'luassert.mock', 'luassert.stub', 'busted.fixtures', 'pl.Map',
    'pl.class',
  } do
    pcall(require, name)
  end
  package.searchers[3] = searcher
  table.remove(package.searchers, 2)
  tl.save_module_cache()
  return 0
end

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

-- --help: busted's own options, as busted's command line describes them,
-- after TraitLab's usage (which the command printed); nothing runs.
if opts.help then
  local tablex = require 'pl.tablex'
  local cli = require 'busted.modules.cli'(tablex.update(require 'busted.options', { standalone = false }))
  cli:set_name('traitlab test')
  local _, usage = cli:parse({ '--help' })
  usage = tostring(usage):gsub('^traitlab test: error: ', ''):gsub('; re%-run with %-%-help for usage%.%s*$', '')
  tl.write_stdout("busted's options (as under busted):\n" .. usage:gsub('^Usage: traitlab test ', 'Usage: traitlab test ') .. '\n')
  return 0
end

local args = opts.args
if handlerNames[opts.format] then args = withOptions(args, { '-o', handlerNames[opts.format] }, false) end
-- A worker reports to the parent, once per parent run (the parent repeats).
if opts.worker then args = withOptions(args, { '-o', 'traitlab.recorder', '--repeat=1' }, true) end
-- As busted's own script gets it from lua.c: arg[-1] runs Lua (traitlab runs
-- scripts as lua5.4 does), arg[0] the command that runs the tests.
arg = { [-1] = opts.executable, [0] = 'test' }
for i, a in ipairs(args) do arg[i] = a end

---------------------------------------------------------------------------
-- Reports: busted_capture.lua (and busted_matrix.lua)

local reports = part('busted_capture')

---------------------------------------------------------------------------
-- The sandbox of spec code: busted_sandbox.lua

-- (Loaded only under --sandbox: without it the part does nothing.)
local sandboxed = opts.sandbox and part('busted_sandbox')
if package.searchers[2] ~= cachedSearcher then table.insert(package.searchers, 2, cachedSearcher) end

-- The parent of -j workers publishes what they recorded where busted would
-- run the files (busted_workers.lua).
local replaySuite
-- `--list` (read by busted's filter loader, below): nothing runs.
local listOnly = false

---------------------------------------------------------------------------
-- TraitLab's additions on each busted object

local passed, failed, skipped = 0, 0, 0
local comboCounts = {}   -- a matrix's counts by combination label
local function resetComboCounts()
  for _, combo in ipairs(opts.matrix or {}) do comboCounts[combo.label] = { passed = 0, failed = 0, skipped = 0 } end
end
resetComboCounts()
local closingLine
local endSubscribed

-- An error raised in a callback (layoutSubviews, a registration handler)
-- carries the callback's own frames in its message (the frames of the spec
-- that called ui.update() are busted's trace): the message keeps its first
-- lines (file:line: message, "in layoutSubviews of View ..."), and the
-- callback's frames go at the head of the trace, so every output handler
-- shows one message and one traceback.
local verbose = false
for _, a in ipairs(opts.args) do
  if a == '-v' or a == '--verbose' then verbose = true elseif a == '--no-verbose' then verbose = false end
end
tl.full_tracebacks(verbose)

oneTraceback = function(message, trace)
  local head, frames = message:match('^(.-)\nstack traceback:\n(.*)$')
  if not head then return message, trace end
  local copy = {}
  if type(trace) == 'table' then for k, v in pairs(trace) do copy[k] = v end end
  local below = type(copy.traceback) == 'string' and copy.traceback:match('stack traceback:\n(.*)$') or ''
  copy.traceback = '\nstack traceback:\n' .. frames .. (below ~= '' and ('\n' .. below) or '\n')
  return head, copy
end

local function extend(busted)
  run.currentBusted = busted
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
      setfenv(f, specEnv(sandboxed.sandboxGlobals()))
    end
  end

  -- The plugins the command line named, loaded into each file's fresh world
  -- (with the spec's globals under --sandbox) as the file's body starts: a
  -- plugin that fails fails the file.
  local function withPlugins(run)
    if #opts.plugins == 0 then return run end
    return function(...)
      local env = opts.sandbox and sandboxed.sandboxGlobals() or nil
      for _, name in ipairs(opts.plugins) do
        local ok, err = pcall(tl.load_plugin, name, env)
        if not ok then error(('--plugin %s: %s'):format(name, tostring(err):gsub('^traitlab%.busted[%w_]*:%d+: ', '')), 0) end
      end
      return run(...)
    end
  end

  busted.safe = function(descriptor, run, element)
    if not isSpecCall(descriptor, run, element) then return safe(descriptor, run, element) end
    if descriptor == 'file' then
      startFile(element)
      run = withPlugins(run)
    end
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
  local function resumed(paused, ...)
    tl.resume_stop(paused)
    return ...
  end
  busted.publish = function(channel, element, parent, message, ...)
    local paused = tl.pause()
    -- (Most events carry no message: passed on as they are, with no copy
    -- of their arguments; a matrix's parent publishes every test's.)
    if type(message) ~= 'string' then return resumed(paused, publish(channel, element, parent, message, ...)) end
    -- Lua calls no message handler for a memory error, so busted places it
    -- where it noticed it (in this driver): place it at the spec element.
    if message:match('^traitlab%.busted[%w_]*:%d+: not enough memory$') then
      local trace = type(element) == 'table' and element.trace
      message = (trace and (trace.short_src .. ':' .. trace.currentline .. ': ') or '') .. 'not enough memory'
                .. (opts.memory and (' (--memory-limit of %d bytes per file)'):format(opts.memory) or '')
    end
    if channel[1] ~= 'error' and channel[1] ~= 'failure' then
      return resumed(paused, publish(channel, element, parent, message, ...))
    end
    local n = select('#', ...)
    local rest = table.pack(...)
    message, rest[1] = oneTraceback(message, rest[1])
    n = math.max(n, 1)
    return resumed(paused, publish(channel, element, parent, message, unpack(rest, 1, n)))
  end

  -- The closing line counts what busted reports (and, in a matrix, each
  -- combination's table row).
  local function count(element, what)
    local combo = element and combinationOf[element]
    if combo then
      local row = comboCounts[combo.label]
      row[what] = row[what] + 1
    end
  end
  -- Counted before the output handler sees each event (priority 1): a
  -- handler that fails on an event (busted's own does on a describe named
  -- by a table) stops the subscribers after it, and the closing line must
  -- still count what busted's summary counts.
  busted.subscribe({ 'test', 'end' }, function(element, _, status)
    if status == 'success' then passed = passed + 1; count(element, 'passed')
    elseif status == 'pending' then skipped = skipped + 1; count(element, 'skipped')
    else failed = failed + 1; count(element, 'failed') end
    return nil, true
  end, { priority = 1 })
  local function outsideTest(element)
    if not element or element.descriptor ~= 'it' then failed = failed + 1; count(element, 'failed') end
    return nil, true
  end
  busted.subscribe({ 'error' }, outsideTest, { priority = 1 })
  busted.subscribe({ 'failure' }, outsideTest, { priority = 1 })
  busted.subscribe({ 'suite', 'reset' }, function()
    passed, failed, skipped = 0, 0, 0
    resetComboCounts()
    return nil, true
  end)
  busted.subscribe({ 'suite', 'start' }, function(suite)
    if opts.parent and not listOnly then replaySuite = opts.parent(busted, suite) end
    -- After the handlers' own subscribers (JUnit writes at exit, JSON at
    -- suite end): the document is complete then.
    if not endSubscribed then
      endSubscribed = true
      busted.subscribe({ 'exit' }, reports.endCapture)
    end
    return nil, true
  end)
  busted.subscribe({ 'suite', 'end' }, reports.startCapture, { priority = 1 })
  -- Where busted runs the suite's files, the parent of workers publishes
  -- theirs (after every subscriber saw the suite start).
  local execute = busted.execute
  busted.execute = function(current)
    if current == nil and replaySuite then
      local replay = replaySuite
      replaySuite = nil
      replay()
    end
    return execute(current)
  end
  busted.subscribe({ 'exit' }, function()
    closingLine = ('%d passed, %d failed'):format(passed, failed) .. (skipped > 0 and (', %d skipped'):format(skipped) or '')
    return nil, true
  end)
  return busted
end

local makeCore = require 'busted.core'
package.loaded['busted.core'] = function(...) return extend(makeCore(...)) end

---------------------------------------------------------------------------
-- TraitLab's assertions: busted_assertions.lua

part('busted_assertions')

-- `--list` names the tests and runs none: no closing line then, as busted
-- prints nothing after the list.
-- In a matrix it names each test once for each combination (of this
-- slice, under --shard), as the run would: "FILE:LINE: [combination] name",
-- a combination's tests together, in the order the combinations run. (The
-- names come from one listing of the files, in this process.)
local function listMatrix(busted, options)
  local context = busted.context
  local lines = {}
  for c = 1, #opts.matrix do lines[c] = {} end
  busted.subscribe({ 'test', 'end' }, function(element, _, status)
    if options.suppressPending and status == 'pending' then return nil, false end
    local names, file = { element.name }, nil
    local p = context.parent(element)
    while p and (p.name or p.descriptor) and p.descriptor ~= 'file' do
      table.insert(names, 1, p.name or p.descriptor)
      p = context.parent(p)
    end
    while p and p.descriptor ~= 'file' do p = context.parent(p) end
    file = p
    local trace = element.trace
    local at = (trace and trace.what == 'Lua') and (trace.short_src .. ':' .. trace.currentline .. ': ') or ''
    local fullName = table.concat(names, ' ')
    for c, combo in ipairs(opts.matrix) do
      if not file or run.shards.runs(file.name, c) then
        lines[c][#lines[c] + 1] = at .. combo.label .. ' ' .. fullName
      end
    end
    return nil, false
  end, { priority = 1 })
  busted.subscribe({ 'suite', 'end' }, function()
    for c = 1, #opts.matrix do
      for _, line in ipairs(lines[c]) do print(line) end
    end
    return nil, true
  end, { priority = 1 })
end
local makeFilterLoader = require 'busted.modules.filter_loader'
package.loaded['busted.modules.filter_loader'] = function(...)
  local filter = makeFilterLoader(...)
  return function(busted, options)
    listOnly = options and options.list and true or false
    local filtered = filter(busted, options)
    if listOnly and opts.matrix and not opts.worker then listMatrix(busted, options) end
    return filtered
  end
end

-- A `.busted` file's `lua` asks busted to start itself again under that
-- interpreter (busted/modules/cli.lua), which would run the command "test"
-- as a script there. The command line's --lua is refused (TestCommand.swift);
-- the file's is refused here with the same reason, unless --ignore-lua says
-- to pass over it as busted does.
local makeConfigLoader = require 'busted.modules.configuration_loader'
package.loaded['busted.modules.configuration_loader'] = function(...)
  local load = makeConfigLoader(...)
  return function(...)
    local config, err = load(...)
    if config and config.lua and not config['ignore-lua'] then
      return nil, ('the .busted file sets lua = %q: traitlab test runs busted inside TraitLab\'s own Lua 5.4 '
        .. '(the engine is part of it), so it cannot start another interpreter; pass --ignore-lua to '
        .. 'run without it, as busted does after switching'):format(tostring(config.lua))
    end
    return config, err
  end
end

---------------------------------------------------------------------------
-- os.exit: from spec code it fails the code that called it; from busted's
-- runner (and helpers) it ends the run, which returns here.

local realExit = os.exit
local exitMt = {}
os.exit = function(code)
  -- (busted's runner exits too when an output handler fails inside a block:
  -- that is the run ending, not spec code calling os.exit.)
  if tl.in_spec() and not calledByTrusted(2) then
    local message = ('os.exit(%s) called by spec code: the test fails and the run goes on'):format(tostring(code))
    tl.stop(message)
    error(message, 2)
  end
  local status = code == nil or code == true and 0 or code == false and 1 or tonumber(code) or 1
  error(setmetatable({ status = math.tointeger(status) or 1 }, exitMt), 0)
end

---------------------------------------------------------------------------
-- Shards: busted_shards.lua (before the workers, which ask it)

run.shards = part('busted_shards')
run.progress = part('busted_matrix').progress
run.clearProgress = part('busted_matrix').clearProgress

---------------------------------------------------------------------------
-- Workers and their parent: busted_workers.lua

-- (Loaded only by a run that has workers, or is one.)
local withWorkers = opts.worker or (opts.jobs and opts.jobs > 1) or opts.sandbox or opts.matrix
local workers = withWorkers and part('busted_workers')

if opts.sandbox then
  -- Spec files are text under --sandbox, as scripts and helpers are: a binary
  -- chunk can break the VM (a malformed one crashes it).
  local loader = require 'busted.modules.files.lua'
  local load = loader.load
  loader.load = function(...)
    local realLoadfile = loadfile
    loadfile = function(file) return realLoadfile(file, 't') end
    local ret = table.pack(pcall(load, ...))
    loadfile = realLoadfile
    if not ret[1] then error(ret[2], 0) end
    return table.unpack(ret, 2, ret.n)
  end
end

if opts.worker then
  workers.onlyAssignedFiles()
elseif withWorkers then
  opts.parent = workers.runWorkers
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
    return function() end, getTrace
  end
end

---------------------------------------------------------------------------
-- Run busted's runner.

local ok, err = pcall(require 'busted.runner', { standalone = false })
tl.save_module_cache()
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
-- A matrix's text report ends with each combination's counts.
if opts.matrix and closingLine and not opts.worker and not listOnly and not run.machineFormat
   and run.activeOutput ~= 'TAP' then
  part('busted_matrix').countsTable(comboCounts)
end
-- The closing line is written by the command once the state is closed, so
-- that nothing a finalizer prints comes after it: the counts go back with
-- the status, and where the line goes.
if closingLine and not opts.worker and not listOnly then
  return status, passed, failed, skipped, run.machineFormat and 2 or 1
end
return status

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
local oneTraceback
local currentBusted   -- the busted object of this run (for the snapshot's test and file)

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

-- A loop in a coroutine or in a finalizer inside a test stops too (see CLuaShim/coroutines.c).
coroutine.resume, coroutine.wrap = tl.resume, tl.wrap
-- So does a spec's xpcall message handler that loops (Lua runs it with hooks
-- off once the interrupt's error is raised): skipped while an interrupt is pending.
xpcall = tl.xpcall
-- busted takes a traceback for every block it registers: the same text, faster (see CSpecRunner/spec.c).
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
-- As busted's own script gets it from lua.c: arg[-1] runs Lua (traitlab runs
-- scripts as lua5.4 does), arg[0] the command that runs the tests.
arg = { [-1] = opts.executable, [0] = 'test' }
for i, a in ipairs(args) do arg[i] = a end

---------------------------------------------------------------------------
-- Machine formats: standard output carries the document alone. Everything
-- else written to fd 1 (spec prints, busted's notes) goes to standard error;
-- the handler's document is captured at `suite end` and written to the real
-- standard output at exit, with characters XML forbids replaced in JUnit.

local capture
local machineFormat   -- 'junit' or 'json' once busted loads that handler
local activeOutput    -- the output handler busted loaded first

-- JUnit for a matrix run: busted's handler makes one testsuite per run; here
-- each combination and spec file is a testsuite of its own, named
-- "[combination] file", with the combination's options as its properties
-- (as JUnit's schema has them), in the order they ran.
local function matrixJUnit(busted, options)
  local xml = require 'pl.xml'
  local handler = require 'busted.outputHandlers.base'()
  local top = xml.new('testsuites', { tests = 0, errors = 0, failures = 0, skip = 0 })
  local start = busted.monotime()
  local suites, order, current, seconds = {}, {}, nil, {}
  local function fileOf(element)
    local e = element
    while e and e.descriptor ~= "file" do e = busted.context.parent(e) end
    return e
  end
  local function suiteFor(element)
    local file = fileOf(element)
    local combo = (file and file.combo) or combinationOf[element]
    local key = (combo and combo.label or '') .. ' ' .. tostring(file and file.name or element.name)
    local suite = suites[key]
    if not suite then
      suite = xml.new('testsuite', { name = (combo and combo.label .. ' ' or '') .. tostring(file and file.name or element.name),
                                     tests = 0, errors = 0, failures = 0, skip = 0, time = '0.00',
                                     timestamp = os.date('!%Y-%m-%dT%H:%M:%S') })
      if combo then
        suite:addtag('properties')
        for _, p in ipairs(combo.properties) do suite:addtag('property', { name = p.name, value = p.value }):up() end
        suite:up()
      end
      suites[key] = suite
      order[#order + 1] = suite
    end
    return suite
  end
  local function add(suite, field, n)
    suite.attr[field] = suite.attr[field] + n
    top.attr[field] = top.attr[field] + n
  end
  local function status(node, tag, message, trace)
    node:addtag(tag)
    if message then node:text(message) end
    if trace and trace.traceback then node:text(trace.traceback) end
    node:up()
  end
  handler.testStart = function(element)
    local suite = suiteFor(element)
    current = xml.new('testcase', { classname = element.trace.short_src .. ':' .. element.trace.currentline,
                                    name = handler.getFullName(element) })
    suite:add_direct_child(current)
    return nil, true
  end
  handler.testEnd = function(element, _, result)
    local suite = suiteFor(element)
    add(suite, 'tests', 1)
    current:set_attrib('time', ('%.2f'):format(element.duration or 0))
    seconds[suite] = (seconds[suite] or 0) + (element.duration or 0)
    suite:set_attrib('time', ('%.2f'):format(seconds[suite]))
    if result == 'pending' then
      add(suite, 'skip', 1)
      local formatted = handler.pendings[#handler.pendings]
      status(current, 'skipped', formatted and formatted.message, formatted and element.trace ~= formatted.trace and formatted.trace)
    end
    return nil, true
  end
  handler.failureTest = function(element, _, message, trace)
    add(suiteFor(element), 'failures', 1)
    status(current, 'failure', message, trace)
    return nil, true
  end
  handler.errorTest = function(element, _, message, trace)
    add(suiteFor(element), 'errors', 1)
    status(current, 'error', message, trace)
    return nil, true
  end
  handler.error = function(element, _, message, trace)
    if element.descriptor == 'it' then return nil, true end
    local suite = suiteFor(element)
    add(suite, 'errors', 1)
    local node = xml.new('testcase', { classname = tostring(element.name), name = handler.getFullName(element) })
    status(node, 'error', message, trace)
    suite:add_direct_child(node)
    return nil, true
  end
  handler.exit = function()
    for _, suite in ipairs(order) do top:add_direct_child(suite) end
    top.attr.time = ('%.2f'):format(busted.monotime() - start)
    local text = xml.tostring(top, '', '\t', nil, false)
    local file = type(options.arguments) == 'table' and type(options.arguments[1]) == 'string'
                 and io.open(options.arguments[1], 'w+b')
    if file then
      file:write(text, '\n')
      file:close()
    else
      io.write(text, '\n')
      io.flush()
    end
    return nil, true
  end
  local subscribe = handler.subscribe
  handler.subscribe = function(self, opts_)
    subscribe(self, opts_)
    busted.subscribe({ 'test', 'start' }, handler.testStart, { predicate = handler.cancelOnPending })
    busted.subscribe({ 'test', 'end' }, handler.testEnd, { predicate = handler.cancelOnPending })
    busted.subscribe({ 'failure', 'it' }, handler.failureTest)
    busted.subscribe({ 'error', 'it' }, handler.errorTest)
    busted.subscribe({ 'failure' }, handler.error)
    busted.subscribe({ 'error' }, handler.error)
    busted.subscribe({ 'exit' }, handler.exit)
  end
  return handler
end

-- TAP is a line protocol: a test's name or a pending test's message with a
-- line break would add lines of its own ("ok 2", a second plan), and "# SKIP"
-- or "# TODO" in a name is a directive (TAP 13: escape the '#' as "\#"; a
-- busted tag such as #fast is left as busted writes it). busted's handler
-- writes them as they are; here they reach it as one line.
local tapPatched = false
local function tapOneLine()
  if tapPatched then return end
  tapPatched = true
  local function oneLine(text)
    return (tostring(text):gsub('\r\n', '\\n'):gsub('[\r\n]', '\\n'))
  end
  local makeTAP = require 'busted.outputHandlers.TAP'
  package.loaded['busted.outputHandlers.TAP'] = function(...)
    local handler = makeTAP(...)
    local format = handler.format
    handler.format = function(...)
      local t = format(...)
      t.name = oneLine(t.name):gsub('\\?#(%s*)(%a*)', function(space, word)
        local w = word:upper()
        if w == 'SKIP' or w == 'TODO' then return '\\#' .. space .. word end
      end)
      return t
    end
    -- (A failure's message is busted's to write: it puts '# ' on each line.)
    local testEnd = handler.testEnd
    handler.testEnd = function(element, parent, status, ...)
      local t = status == 'pending' and handler.pendings[#handler.pendings]
      if t and t.message ~= nil then t.message = oneLine(t.message) end
      return testEnd(element, parent, status, ...)
    end
    return handler
  end
end

-- The handler busted loads (named by --format, -o or a .busted file) decides.
local makeOutputLoader = require 'busted.modules.output_handler_loader'
package.loaded['busted.modules.output_handler_loader'] = function(...)
  local loadHandler = makeOutputLoader(...)
  return function(busted, output, options)
    activeOutput = activeOutput or output
    if not opts.worker and (output == 'junit' or output == 'json') and not machineFormat then
      machineFormat = output
      tl.redirect_stdout()
    end
    if output == 'TAP' and not opts.worker then tapOneLine() end
    if output == 'junit' and opts.matrix and not opts.worker then
      local handler = matrixJUnit(busted, options)
      handler:subscribe(options)
      return handler
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
      -- XML 1.0's Char excludes the C0 controls but tab, LF and CR, and
      -- U+FFFE and U+FFFF.
      text = validUTF8(text):gsub('[%z\1-\8\11\12\14-\31]', '\u{FFFD}'):gsub('\239\191[\190\191]', '\u{FFFD}')
    elseif machineFormat == 'json' then
      -- JSON text is UTF-8 (RFC 8259, section 8.1); dkjson copies bytes as they are.
      text = validUTF8(text)
    end
    tl.write_stdout(text)
  end
  return nil, true
end

---------------------------------------------------------------------------
-- Sandboxed spec code (--sandbox): its globals end at a table with the
-- sandbox's rules (tl.sandbox, shared with `traitlab --sandbox`), not at _G;
-- busted's own code keeps everything. Each spec file runs in a worker process
-- of its own (see runWorkers), so nothing a file does reaches another file or
-- the process that reports. Spec code reaches busted only through its spec
-- API: `require 'busted'` gives the names below, nothing that registers,
-- subscribes to or publishes busted's events.

local sandbox = tl.sandbox
if opts.sandbox then
  if not sandbox then error('traitlab: the sandbox module is missing from this build', 0) end
  string.dump = nil   -- ("").dump reaches the real string table
end

-- The search paths the process started with. Under --sandbox busted's own
-- `require` (which loads its modules, luassert's, output handlers and
-- languages on demand) searches only these: busted adds './src/?.lua' and
-- the .busted file's lpath to package.path, and a module there (a
-- src/busted/outputHandlers/plainTerminal.lua beside the specs, an lpath of
-- "./payload.lua", which every name matches) would otherwise run outside the
-- sandbox. Spec code has a `require` of its own (the sandbox's).
local startPath, startCpath = package.path, package.cpath
if opts.sandbox then
  local searchpath, loadlib, loadfile = package.searchpath, package.loadlib, loadfile
  package.searchers[2] = function(name)
    local file, err = searchpath(name, startPath)
    if not file then return '\n\t' .. err end
    local chunk, message = loadfile(file, 't')
    if not chunk then
      error(("error loading module '%s' from file '%s':\n\t%s"):format(name, file, message), 0)
    end
    return chunk, file
  end
  package.searchers[3] = function(name)
    local file, err = searchpath(name, startCpath)
    if not file then return '\n\t' .. err end
    -- As loadlib.c names the open function: the part before a hyphen first,
    -- then the part after it.
    local before, after = name:match('^([^-]*)%-(.*)$')
    local f, message = loadlib(file, 'luaopen_' .. (before or name):gsub('%.', '_'))
    if not f and after then f, message = loadlib(file, 'luaopen_' .. after:gsub('%.', '_')) end
    if not f then
      error(("error loading module '%s' from file '%s':\n\t%s"):format(name, file, message), 0)
    end
    return f, file
  end
  package.searchers[4] = nil
end

-- The path the sandbox's `require` searches: the one the process started
-- with, and what busted added (--lpath, .busted's lpath, './src') only where
-- its folder really is inside the folder the specs run from.
local function sandboxPath()
  local start, out = {}, {}
  for template in startPath:gmatch('[^;]+') do start[template] = true end
  local here = tl.realpath('.')
  for template in package.path:gmatch('[^;]+') do
    local keep = start[template]
    if not keep and here then
      local folder = tl.realpath(sandbox.templateFolder(template))
      keep = folder ~= nil and (folder == here or sandbox.inside(folder, here))
    end
    if keep then out[#out + 1] = template end
  end
  return table.concat(out, ';')
end

local bustedSpecAPI = {}
for _, k in ipairs { 'describe', 'context', 'insulate', 'expose', 'it', 'spec', 'test', 'pending',
                     'before_each', 'after_each', 'setup', 'teardown', 'lazy_setup', 'lazy_teardown',
                     'strict_setup', 'strict_teardown', 'finally', 'randomize', 'assert', 'spy', 'mock',
                     'stub', 'match', 'fail', 'gettime', 'monotime', 'sleep', 'version' } do
  bustedSpecAPI[k] = true
end

-- A table of globals with the sandbox's rules; `path` is where its `require`
-- finds Lua source modules.
local function newSandbox(path)
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
  S.string.dump = nil
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
  S.os = sandbox.os(os)
  local setmeta, getmeta = sandbox.metatables(debug, S.getmetatable, S.setmetatable)
  S.setmetatable = setmeta
  S.debug = sandbox.debug(debug, getmeta)
  S.load = sandbox.load(S)
  -- busted's spec API, read through to busted's own table at each use.
  local realBusted = require 'busted'
  local specBusted = setmetatable({}, {
    __index = function(_, k) if bustedSpecAPI[k] then return realBusted[k] end end,
    __newindex = function() error('Attempt to modify busted', 2) end,
    __metatable = false,
  })
  -- What package.loaded holds for spec code under busted: busted's spec
  -- API, luassert and say (shared with busted, as under busted: a spec that
  -- clears one finds a fresh copy on the path), and the sandbox's libraries.
  local loaded = { string = S.string, table = S.table, math = S.math, utf8 = S.utf8,
                   coroutine = S.coroutine, os = S.os, debug = S.debug, _G = S, busted = specBusted,
                   traitlab = { traits = S.traits, ui = S.ui, swiftui = S.swiftui, plugins = S.plugins } }
  for _, k in ipairs { 'luassert', 'luassert.spy', 'luassert.stub', 'luassert.mock', 'luassert.match',
                       'luassert.assert', 'say' } do
    loaded[k] = require(k)
  end
  S.require = sandbox.require(S, loaded, {}, path, function(name)
    for _, p in ipairs(realPlugins.list()) do
      if p.name == name then return realPlugins.load(name) end
    end
  end)
  S.package = { loaded = loaded, preload = {}, config = package.config, path = path, cpath = '' }
  S._G = S
  return S
end

-- The globals the spec file and its helper share: one file a process, made
-- when the first of them runs, with package.path as busted left it (its
-- --lpath included).
local specGlobals
local function sandboxGlobals()
  specGlobals = specGlobals or newSandbox(sandboxPath())
  return specGlobals
end

-- Data only: strings, numbers, booleans and tables of them, read raw (no
-- metamethod of the sandboxed code runs in busted's hands).
local function plainData(v, depth)
  local t = type(v)
  if t == 'string' or t == 'number' or t == 'boolean' then return v end
  if t ~= 'table' or depth > 8 then return nil end
  local out = {}
  for k, x in next, v do
    local kt = type(k)
    if kt == 'string' or kt == 'number' then out[k] = plainData(x, depth + 1) end
  end
  return out
end

-- Runs sandboxed code that is not a test (.busted, a helper) under the
-- test's deadline and memory cap.
local function guarded(f, ...)
  tl.guard(opts.timeout or 0, opts.memory and tl.counted() + opts.memory or 0)
  local ret = table.pack(pcall(f, ...))
  local stopped = tl.unguard()
  if stopped then return false, stopped end
  return table.unpack(ret, 1, ret.n)
end

-- What a .busted file may not set under --sandbox: each would run code
-- outside the sandbox (an interpreter, Lua code, a C module, an output
-- handler or LuaCov configuration from a file).
local codeOptions = { 'lua', 'e', 'cpath', 'coverage', 'coverage-config-file', 'f', 'config-file', 'loaders' }

local function checkSandboxedConfig(config, file)
  for task, options in pairs(config) do
    if type(options) == 'table' then
      for _, k in ipairs(codeOptions) do
        if options[k] ~= nil and not (k == 'loaders' and (options[k] == 'lua' or options[k][1] == 'lua' and #options[k] == 1)) then
          return ("%s: --sandbox: the option '%s' of task '%s' would run code outside the sandbox"):format(file, k, tostring(task))
        end
      end
      -- Handler arguments reach the handler as they are; one that is not an
      -- option names a file (junit writes its document to Xoutput's first).
      local handlerArgs = options.Xoutput
      if type(handlerArgs) ~= 'table' then handlerArgs = { handlerArgs } end
      for _, a in pairs(handlerArgs) do
        if type(a) ~= 'string' or not a:match('^%-') then
          return ("%s: --sandbox: the output handler argument '%s' of task '%s' would name a file to write; give it on the command line instead"):format(file, tostring(a), tostring(task))
        end
      end
      local output = options.output or options.o
      if output ~= nil and (type(output) ~= 'string' or not output:match('^[%w_]+$')
                            or not package.searchpath('busted.outputHandlers.' .. output, startPath)) then
        return ("%s: --sandbox: the output handler '%s' of task '%s' is not one of busted's own"):format(file, tostring(output), tostring(task))
      end
    end
  end
end

if opts.sandbox then
  -- .busted is read in the sandbox, as data.
  local makeCli = require 'busted.modules.cli'
  package.loaded['busted.modules.cli'] = function(...)
    local cli = makeCli(...)
    local parse = cli.parse
    cli.parse = function(self, args)
      local realLoadfile = loadfile
      local refused
      loadfile = function(file)
        local f, err = io.open(file, 'rb')
        if not f then return nil, err end
        local text = f:read('a') or ''
        f:close()
        local chunk, message = sandbox.load(newSandbox(sandboxPath()))(text, '@' .. file, 't')
        if not chunk then return nil, message end
        return function()
          local ok, config = guarded(chunk)
          if not ok then error(tostring(config), 0) end
          config = plainData(config, 0)
          refused = type(config) == 'table' and checkSandboxedConfig(config, file) or nil
          if refused then error(refused, 0) end
          return config
        end
      end
      local ret = table.pack(pcall(parse, self, args))
      loadfile = realLoadfile
      if not ret[1] then error(ret[2], 0) end
      return table.unpack(ret, 2, ret.n)
    end
    return cli
  end

  -- A helper runs sandboxed, in the worker that runs the spec file (the
  -- parent runs no spec code).
  package.loaded['busted.modules.helper_loader'] = function()
    return function(_, helper, options)
      if not opts.worker then return true end
      local S = sandboxGlobals()
      S.arg = plainData(options.arguments, 0) or {}
      local run
      if helper:match('%.lua$') then
        local f, err = io.open(helper, 'rb')
        if not f then return nil, err end
        local text = f:read('a') or ''
        f:close()
        local chunk, message = S.load(text, '@' .. helper, 't')
        if not chunk then return nil, message end
        run = chunk
      else
        run = function() return S.require(helper) end
      end
      local ok, err = guarded(run)
      if not ok then return nil, tostring(err) end
      return true
    end
  end
end


---------------------------------------------------------------------------
-- The parent of -j workers: files are run by workers and replayed here.

local recorded = {}   -- recordKey(file name, combination) -> { records, done }
-- The combination of each replayed element of a matrix run (for its counts).
local combinationOf = setmetatable({}, { __mode = 'k' })
local replayFile      -- set below when running workers

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
  currentBusted = busted
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

  -- The plugins the command line named, loaded into each file's fresh world
  -- (with the spec's globals under --sandbox) as the file's body starts: a
  -- plugin that fails fails the file.
  local function withPlugins(run)
    if #opts.plugins == 0 then return run end
    return function(...)
      local env = opts.sandbox and sandboxGlobals() or nil
      for _, name in ipairs(opts.plugins) do
        local ok, err = pcall(tl.load_plugin, name, env)
        if not ok then error(('--plugin %s: %s'):format(name, tostring(err):gsub('^traitlab%.busted:%d+: ', '')), 0) end
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
  busted.publish = function(channel, element, parent, message, ...)
    local paused = tl.pause()
    -- Lua calls no message handler for a memory error, so busted places it
    -- where it noticed it (in this driver): place it at the spec element.
    if type(message) == 'string' and message:match('^traitlab%.busted:%d+: not enough memory$') then
      local trace = type(element) == 'table' and element.trace
      message = (trace and (trace.short_src .. ':' .. trace.currentline .. ': ') or '') .. 'not enough memory'
                .. (opts.memory and (' (--memory-limit of %d bytes per file)'):format(opts.memory) or '')
    end
    local n = select('#', ...)
    local rest = table.pack(...)
    if (channel[1] == 'error' or channel[1] == 'failure') and type(message) == 'string' then
      message, rest[1] = oneTraceback(message, rest[1])
      n = math.max(n, 1)
    end
    local ret = table.pack(publish(channel, element, parent, message, unpack(rest, 1, n)))
    tl.resume_stop(paused)
    return unpack(ret, 1, ret.n)
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

---------------------------------------------------------------------------
-- TraitLab's assertions, registered through luassert's own API (so `is_`,
-- `are_`, `has_` and `no`/`not` work as for luassert's).

local luassert, say = require 'luassert', require 'say'
local deepcompare = require 'luassert.util'.deepcompare

-- Registers assertion `name` (luassert's API) whose check(state, arguments)
-- returns whether it holds and the whole message to show when it does not.
local function registerAssertion(name, check, negativePrefix)
  say:set('assertion.' .. name .. '.positive', '%s')
  say:set('assertion.' .. name .. '.negative', (negativePrefix or '') .. '%s')
  luassert:register('assertion', name, function(state, arguments)
    local ok, message = check(state, arguments)
    for k in pairs(arguments) do arguments[k] = nil end
    arguments[1], arguments.n, arguments.nofmt = message, 1, { true }
    return ok
  end, 'assertion.' .. name .. '.positive', 'assertion.' .. name .. '.negative')
end

local function show(v)
  if type(v) == 'string' then return ('%q'):format(v) end
  return tostring(v)
end

-- assert.has_trait(env, traitOrProperty, value): env's collection has that
-- value. A failure says where the value comes from (as :why) and whether an
-- update is pending (a spec that forgot ui.update()).
local function hasTrait(state, arguments)
  local env, key, expected = arguments[1], arguments[2], arguments[3]
  local actual = env.traitCollection[key]
  local source, pending, property = tl.why(env, key)
  local ok = deepcompare(actual, expected, true)
  local message
  if state.mod then
    message = ('Expected %s to have %s = %s, but it is %s (from: %s).'):format(tostring(env), property, show(expected), show(actual), source)
  else
    message = ('Expected %s not to have %s = %s (from: %s).'):format(tostring(env), property, show(expected), source)
  end
  if pending then message = message .. '\nAn update is pending: its traits change at the next ui.update().' end
  return ok, message
end
registerAssertion('has_trait', hasTrait)

-- assert.matches_snapshot(node [, name]): ui.dump(node) (100 columns) is the
-- text kept in __snapshots__/SPEC/NAME.txt beside the spec file, written on
-- the first run (and by --update-snapshots); a difference fails with a
-- diff. NAME defaults to the test's full name (a second snapshot in one test
-- gets " 2", ...). Under --sandbox a missing snapshot fails instead of being
-- written: sandboxed specs choose no file to write. Only real folders and
-- regular files are read or written there: a symbolic link is never
-- followed (--update-snapshots replaces one), and nothing of it is quoted.
local snapshotCounts = setmetatable({}, { __mode = 'k' })

-- FNV-1a, 64 bits, as 16 hex digits: tells apart names whose file names
-- would otherwise be the same.
local function nameHash(text)
  local h = -3750763034362895579   -- 0xcbf29ce484222325
  for i = 1, #text do
    h = (h ~ text:byte(i)) * 1099511628211
  end
  return ('%016x'):format(h)
end

-- The file name of a snapshot: the name itself when it is short and made of
-- characters every file system keeps; otherwise a readable part of it and
-- the hash of the whole name, so distinct names never share a file.
local function snapshotFileName(name)
  local safe = name:gsub('[^%w%-_ ,%.%(%)%[%]=]', '_'):gsub('^%.+', '_')
  if safe == name and #safe <= 120 then return safe .. '.txt' end
  return safe:sub(1, 100) .. ' #' .. nameHash(name) .. '.txt'
end

local function snapshotPlace(name)
  local busted = currentBusted
  local element = busted and busted.context.get()
  local test = element
  while test and test.descriptor ~= 'it' and test.descriptor ~= 'file' do test = busted.context.parent(test) end
  local file = test
  while file and file.descriptor ~= 'file' do file = busted.context.parent(file) end
  if not file then error('assert.matches_snapshot is for specs run by traitlab test', 0) end
  if name == nil then
    local names, e = {}, test
    while e and e.descriptor ~= 'file' do table.insert(names, 1, tostring(e.name)); e = busted.context.parent(e) end
    name = table.concat(names, ' ')
    if test then
      snapshotCounts[test] = (snapshotCounts[test] or 0) + 1
      if snapshotCounts[test] > 1 then name = name .. ' ' .. snapshotCounts[test] end
    end
  end
  name = tostring(name)
  local dir = tostring(file.name):match('^(.*)/') or '.'
  local spec = tostring(file.name):match('([^/]+)$'):gsub('%.lua$', '')
  return { dir .. '/__snapshots__', dir .. '/__snapshots__/' .. spec }, snapshotFileName(name), name
end

-- The lines of `a` and `b` with a unified-style mark: ' ' kept, '-' only in
-- the snapshot, '+' only now (a longest common subsequence of lines).
local function diff(a, b)
  local x, y = {}, {}
  for l in (a .. '\n'):gmatch('(.-)\n') do x[#x + 1] = l end
  for l in (b .. '\n'):gmatch('(.-)\n') do y[#y + 1] = l end
  if #x * #y > 4e6 then return '(the dumps differ; too long to compare line by line)' end
  local n, m = #x, #y
  local L = {}
  for i = n + 1, 1, -1 do L[i] = {} ; for j = m + 1, 1, -1 do
    if i > n or j > m then L[i][j] = 0
    elseif x[i] == y[j] then L[i][j] = L[i + 1][j + 1] + 1
    else L[i][j] = math.max(L[i + 1][j], L[i][j + 1]) end
  end end
  local out, i, j = {}, 1, 1
  while i <= n or j <= m do
    if i <= n and j <= m and x[i] == y[j] then out[#out + 1] = '  ' .. x[i]; i, j = i + 1, j + 1
    elseif i <= n and (j > m or L[i + 1][j] >= L[i][j + 1]) then out[#out + 1] = '- ' .. x[i]; i = i + 1
    else out[#out + 1] = '+ ' .. y[j]; j = j + 1 end
  end
  return table.concat(out, '\n')
end

-- Why the snapshot folders cannot be used (a link, a file), or nil.
local function unusableFolder(folders)
  for _, folder in ipairs(folders) do
    local kind = tl.file_kind(folder)
    if kind ~= nil and kind ~= 'directory' then
      return ('%s is %s, not a folder of snapshots (it is not followed)'):format(folder, kind == 'link' and 'a symbolic link' or 'a file')
    end
  end
end

local function matchesSnapshot(state, arguments)
  local node, name = arguments[1], arguments[2]
  local text = ui.dump(node, 'tree', 100)
  local folders, file, shown = snapshotPlace(name)
  local dir = folders[#folders]
  local path = dir .. '/' .. file
  local bad = unusableFolder(folders)
  if bad then return false, ('cannot use the snapshot "%s": %s'):format(shown, bad) end
  local kept, why = tl.read_regular(path)
  if kept == nil and why ~= 'missing' and not (opts.update_snapshots and not opts.sandbox) then
    return false, ('the snapshot "%s" at %s is %s: snapshots are regular files, and this one is not read%s'):format(
      shown, path, why, opts.sandbox and '' or ' (--update-snapshots replaces it)')
  end
  local message, ok
  if kept == nil or (opts.update_snapshots and kept ~= text) then
    if opts.sandbox then
      ok, message = false, ('no snapshot "%s" at %s: under --sandbox snapshots are not written; run traitlab test --update-snapshots without --sandbox to write it'):format(shown, path)
    else
      for _, folder in ipairs(folders) do
        local made, err = tl.make_folder(folder)
        if not made then error(('cannot write the snapshot %s: %s is %s'):format(path, folder, err), 0) end
      end
      local written, err = tl.write_regular(path, text)
      if not written then error(('cannot write the snapshot %s: %s'):format(path, tostring(err)), 0) end
      ok, message = true, ('snapshot "%s" written to %s'):format(shown, path)
    end
  else
    ok = kept == text
    message = ok and ('%s matches its snapshot "%s"'):format(tostring(node), shown)
      or ('%s no longer matches its snapshot "%s" (%s)\n- snapshot, + now:\n%s\n(accept the change with traitlab test --update-snapshots)'):format(
           tostring(node), shown, path, diff(kept, text))
  end
  return ok, message
end
registerAssertion('matches_snapshot', matchesSnapshot, 'Expected a difference from the snapshot: ')

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
  for _, combo in ipairs(combos) do
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
  local finalizers = code == 3   -- (TestCommand.swift, finalizerTimeoutStatus)
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
    for _, combo in ipairs(opts.matrix) do
      for _, child in ipairs(originals) do
        if child.descriptor == 'file' then
          local copy = {}
          for k, v in pairs(child) do copy[k] = v end
          copy.combo = combo
          context.attach(copy)
        else
          context.attach(child)
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
  onlyAssignedFiles()
elseif (opts.jobs and opts.jobs > 1) or opts.sandbox or opts.matrix then
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
-- A matrix's text report ends with each combination's counts.
if opts.matrix and closingLine and not opts.worker and not listOnly and not machineFormat
   and activeOutput ~= 'TAP' then
  local width = #'combination'
  for _, combo in ipairs(opts.matrix) do width = math.max(width, utf8.len(combo.label) or #combo.label) end
  local lines = { '', ('%-' .. width .. 's  %6s  %6s  %7s'):format('combination', 'passed', 'failed', 'skipped') }
  for _, combo in ipairs(opts.matrix) do
    local row = comboCounts[combo.label]
    local pad = width - (utf8.len(combo.label) or #combo.label)
    lines[#lines + 1] = combo.label .. (' '):rep(pad) .. ('  %6d  %6d  %7d'):format(row.passed, row.failed, row.skipped)
  end
  tl.write_stdout(table.concat(lines, '\n') .. '\n')
end
-- The closing line is written by the command once the state is closed, so
-- that nothing a finalizer prints comes after it: the counts go back with
-- the status, and where the line goes.
if closingLine and not opts.worker and not listOnly then
  return status, passed, failed, skipped, machineFormat and 2 or 1
end
return status

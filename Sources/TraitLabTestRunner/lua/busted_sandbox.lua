-- traitlab test --sandbox (the driver, busted.lua, loads this part): the
-- globals of spec code, the require it has, and what busted itself may load
-- and read while specs come from someone else.

local driver = ...   -- what the driver shares with its parts
local tl, opts = driver.tl, driver.opts
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
  local searchpath, loadlib = package.searchpath, package.loadlib
  package.searchers[2] = driver.textSearcher(startPath)
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

return { sandboxGlobals = sandboxGlobals }

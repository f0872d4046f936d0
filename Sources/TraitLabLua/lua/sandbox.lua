-- The sandbox's rules (docs/sandbox.md, "`--sandbox`: code written by others"), shared by `traitlab --sandbox`,
-- which changes the globals of the script's own state in place, and by
-- `traitlab test --sandbox`, which gives spec code a table of globals of its
-- own while busted keeps the real ones.
--
-- Loaded once per state from the binary (embedded.c) before any untrusted
-- code runs: the functions it keeps in upvalues (io.open, load) stay out of
-- reach, since the sandbox's `debug` has no getupvalue.
local M = {}

-- realpath(path): the canonical path, or nil (files.c); passed by the host.
local realpath = ...

local open, load, type, error, select, ipairs = io.open, load, type, error, select, ipairs
local format, gsub, gmatch, find, sub, byte = string.format, string.gsub, string.gmatch, string.find, string.sub, string.byte
local concat = table.concat

-- What is left of `os` and `debug`.
function M.os(os)
  return { clock = os.clock, time = os.time, date = os.date, difftime = os.difftime }
end
-- `setmetatable` and `debug.getmetatable` for sandboxed code. Libraries'
-- specs read their own protected metatables with debug.getmetatable (a class
-- with __metatable): it returns a metatable that sandboxed code set itself,
-- and otherwise what `getmetatable` returns, so no metatable the host
-- protects (environments, collections, the string type's) is reached.
function M.metatables(debug, getmetatable, setmetatable)
  local own = setmetatable({}, { __mode = 'k' })
  local rawmeta = debug.getmetatable
  local function set(t, mt)
    local r = setmetatable(t, mt)
    if mt ~= nil then own[mt] = true end
    return r
  end
  local function get(v)
    local mt = rawmeta(v)
    if mt ~= nil and own[mt] then return mt end
    return getmetatable(v)
  end
  return set, get
end

-- What is left of `debug`.
function M.debug(debug, getmetatable)
  return { traceback = debug.traceback, getmetatable = getmetatable }
end

-- `load` with text chunks only (a binary chunk can break the VM); `env`, when
-- given, is the environment of a chunk loaded without one.
function M.load(env)
  return function(chunk, name, mode, ...)
    if mode ~= nil and mode ~= 't' then error('load: only text chunks are allowed in the sandbox', 2) end
    if env ~= nil and select('#', ...) == 0 then return load(chunk, name, 't', env) end
    return load(chunk, name, 't', ...)
  end
end

-- A source file read as luaL_loadfilex reads it (a UTF-8 byte order mark and
-- a first line starting with '#' are skipped, the line kept for numbering),
-- compiled as text only.
local function loadSource(name, file, env, shownFile)
  shownFile = shownFile or file
  local f = open(file, 'rb')
  if not f then return nil end
  local text, err = f:read('a')
  f:close()
  if type(text) ~= 'string' then return nil, err end   -- a folder opens, but does not read
  if sub(text, 1, 3) == '\239\187\191' then text = sub(text, 4) end
  if byte(text, 1) == 35 then text = gsub(text, '^[^\n]*', '', 1) end
  local chunk, message = load(text, '@' .. shownFile, 't', env)
  if not chunk then error(format("error loading module '%s' from file '%s':\n\t%s", name, shownFile, message), 0) end
  return chunk
end

-- What ll_require (loadlib.c) keeps of a loader's result: a non-nil result,
-- else what the module put in package.loaded itself, else true.
local function settle(loaded, name, result)
  if result ~= nil then loaded[name] = result end
  if loaded[name] == nil then loaded[name] = true end
end

-- The folder a path template searches: its text before the first '?', up to
-- the last '/' ('./' when there is none).
local function templateFolder(template)
  return (template:match('^[^?]*')):match('^(.*/)') or './'
end
M.templateFolder = templateFolder

-- Whether the real path `file` lies inside the real folder `folder`.
local function inside(file, folder)
  if folder == '/' then return true end
  return sub(file, 1, #folder + 1) == folder .. '/'
end
M.inside = inside

-- Where a module found through `template` may really be: inside the
-- template's real folder. A folder of Lua's versioned module trees
-- (/usr/share/lua/5.4) counts with its siblings: Debian installs many modules
-- as links to ../5.1.
local function realFolder(template)
  local real = realpath(templateFolder(template))
  if not real then return nil end
  local parent, last = real:match('^(.*)/(%d+%.%d+)$')
  if parent and parent ~= '' and last then return parent end
  return real
end

-- A `require` for sandboxed code. It finds, in order: what `loaded` holds,
-- `preload`, `extra(name)` (plugins the command line loaded, busted's spec
-- API), then Lua source modules on `path`, the search path the process
-- started with (a later change to package.path finds nothing new), loaded
-- as text with `env` as their globals. No C library, no binary chunk, and
-- only files named `.lua` that really are inside the folder of the template
-- that found them, symbolic links resolved (a link to ../secret.env, or to a
-- .lua file outside, is no module). Every dot of the name becomes the folder
-- separator, so the file name has no '..'.
function M.require(env, loaded, preload, path, extra)
  return function(name)
    if type(name) ~= 'string' then
      error(format("bad argument #1 to 'require' (string expected, got %s)", type(name)), 2)
    end
    local m = loaded[name]
    if m then return m end   -- (false: not loaded, as require reads it)
    local open_ = preload[name]
    if open_ ~= nil then
      settle(loaded, name, open_(name, ':preload:'))
      return loaded[name], ':preload:'
    end
    if extra then
      local found = extra(name)
      if found ~= nil then return found end
    end
    local shown = #name > 200 and sub(name, 1, 200) .. '...' or name
    local tried = { format("module '%s' not found:\n\tno field package.preload['%s']", shown, shown) }
    if not find(name, '%z') then
      local fname = gsub(name, '%.', '/')
      for template in gmatch(path, '[^;]+') do
        local file = gsub(template, '%?', (gsub(fname, '%%', '%%%%')))
        local real = realpath(file)
        local why
        if real then
          local folder = realFolder(template)
          if sub(real, -4) ~= '.lua' then why = ' (not a .lua file)'
          elseif not folder or not inside(real, folder) then why = ' (outside its folder)' end
          if not why then
            local chunk = loadSource(shown, real, env, file)
            if chunk then
              settle(loaded, name, chunk(name, file))
              return loaded[name], file
            end
          end
        end
        tried[#tried + 1] = format("\n\tno file '%s'%s", file, why or '')
      end
    end
    tried[#tried + 1] = '\n\t(the sandbox finds preloaded modules, plugins the command line named and .lua source modules inside the folders of the path the process started with)'
    error(concat(tried), 2)
  end
end

-- `traitlab --sandbox`: the script's own globals, changed in place.
function M.applyToGlobals(G, plugins)
  local package, os, debug, string = G.package, G.os, G.debug, G.string
  local loaded, preload = package.loaded, package.preload
  local plugin_names, plugin_load = plugins.list, plugins.load
  local path = package.path
  local os_keep = M.os(os)
  G.os = os_keep
  G.io = nil
  G.dofile, G.loadfile = nil, nil
  G.load = M.load(nil)
  local setmeta, getmeta = M.metatables(debug, G.getmetatable, G.setmetatable)
  G.setmetatable = setmeta
  G.debug = M.debug(debug, getmeta)
  string.dump = nil
  G.require = M.require(G, loaded, preload, path, function(name)
    for _, p in ipairs(plugin_names()) do
      if p.name == name then return plugin_load(name) end
    end
  end)
  local p = { loaded = loaded, preload = preload, config = package.config, path = path, cpath = '' }
  G.package = p
  loaded.package = p
  loaded.io = nil
  loaded.os = os_keep
  loaded.debug = G.debug
end

return M

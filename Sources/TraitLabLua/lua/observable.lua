-- ui.Observable: objects like instances of a Swift @Observable class under
-- UIKit's automatic observation tracking (ObservableLibrary.swift loads this
-- once per state, passing the host functions below).
--
-- An observable is a proxy table with a metatable of its own. Outside
-- tracked methods every property lives raw in the proxy: a read is a plain
-- field read and a set a plain field write. Lua cannot see reads of keys a
-- table holds, so while tracked methods run the object is *armed* (`arm`,
-- from the host, when it calls a tracked method of a script): its
-- properties move into its values table (mt.__values) and __index becomes
-- `tracked`, which records each read with the value read. The first read
-- or set outside any tracked method *disarms* it: every property goes back
-- raw.
-- Changes are found by comparing, not by intercepting the set: a disarmed
-- object that some tracked work depends on is *watched*, and `check` (the
-- host calls it before the engine applies pending work: each update, each
-- pass of an update, each IfNeeded call) and `arm` compare each property
-- some work depends on with the value that work read, and invalidate the
-- work when it differs. A set while armed, by a tracked method, is seen at
-- once (it goes through __newindex).
-- All the runs that depend on a property read the same value (`seen`): an
-- armed object reports each set at once, and a watched one is compared
-- before it is armed again, so a tracked read never meets a changed value
-- whose change is not yet reported.
-- Nothing here keeps an environment or an observable alive: reads are kept
-- per object, in its metatable, by environment object in weak-keyed tables.

local host = ...
local current, invalidate, disarmedOne, watching, tracking, live =
  host.current, host.invalidate, host.disarmed, host.watching, host.tracking, host.live

local next, type, tostring, setmetatable, rawequal, rawget, rawset, rawlen =
  next, type, tostring, setmetatable, rawequal, rawget, rawset, rawlen
local format, sort, concat, maxinteger = string.format, table.sort, table.concat, math.maxinteger

local weakKeys = { __mode = 'k' }
-- proxy -> its metatable (getmetatable is protected: it says "Observable").
local metaOf = setmetatable({}, weakKeys)
-- Proxies that are not armed: the next `arm` arms them.
local disarmed = setmetatable({}, weakKeys)
-- Disarmed proxies with properties some work depends on: `check` compares them.
local watched = setmetatable({}, weakKeys)

-- Keeps that the running tracked method (environment `env`, kind of work
-- `kind`, run `run`) read `key`, holding `value`. A later read in the same
-- method's next run replaces the run; a run that no longer reads it leaves
-- a stale number, which the host ignores and `keepLive` drops.
local function record(mt, key, value, env, kind, run)
  local deps = mt.__deps
  if not deps then deps = {}; mt.__deps = deps; mt.__seen = {} end
  local byKind = deps[key]
  if not byKind then byKind = {}; deps[key] = byKind end
  local envs = byKind[kind]
  if not envs then envs = setmetatable({}, weakKeys); byKind[kind] = envs end
  envs[env] = run
  mt.__seen[key] = value
end

-- Whether some work still depends on `key`: a read kept for it is from the
-- latest run of its work. Drops the reads that no longer count, and the key
-- when none does.
local function keepLive(mt, deps, key)
  local byKind = deps[key]
  local any = false
  for kind, envs in next, byKind do
    for env, run in next, envs do
      if live(env, kind, run) then any = true else envs[env] = nil end
    end
    if next(envs) == nil then byKind[kind] = nil end
  end
  if not any then deps[key] = nil; mt.__seen[key] = nil end
  return any
end

-- The value of `key` wherever it lives.
local function get(proxy, mt, key)
  local v = rawget(proxy, key)
  if v == nil then v = mt.__values[key] end
  return v
end

-- Whether a set from `old` to `new` is a change. The @Observable macro's
-- setter calls withMutation only when shouldNotifyObservers(old, new) says
-- so, which for Equatable values is `!=` and for objects `!==`
-- (swiftlang/swift#78151): numbers, strings and booleans compare by value
-- (1 == 1.0), tables, functions and userdata by identity.
local function same(old, new) return rawequal(old, new) end

-- Invalidates the work that read `key` (its latest runs; the host skips the
-- others). Like Swift's withObservationTracking, a change ends what it
-- reported: the invalidated method tracks again when it runs.
local function report(mt, key)
  local deps = mt.__deps
  local byKind = deps[key]
  deps[key] = nil
  mt.__seen[key] = nil
  for kind, envs in next, byKind do
    for env, run in next, envs do invalidate(env, kind, run) end
  end
end

-- Compares each property some work depends on with the value it read.
local function compare(proxy, mt)
  local deps, seen = mt.__deps, mt.__seen
  if not deps then return end
  for key in next, deps do
    if not same(seen[key], get(proxy, mt, key)) then report(mt, key) end
  end
  if next(deps) == nil then mt.__deps = nil; mt.__seen = nil end
end

-- Back to plain reads and writes: every property goes raw. An object that
-- some work still depends on is watched.
local function disarm(proxy, mt)
  local values = mt.__values
  mt.__index = values
  disarmed[proxy] = true
  disarmedOne()
  local deps = mt.__deps
  if deps then
    for key in next, deps do keepLive(mt, deps, key) end
    if next(deps) == nil then
      mt.__deps = nil; mt.__seen = nil
    else
      watched[proxy] = true
      watching()
    end
  end
  for key, value in next, values do
    values[key] = nil
    rawset(proxy, key, value)
  end
end

local function tracked(proxy, key)
  local mt = metaOf[proxy]
  local env, kind, run = current()
  if env == nil then
    -- Not in a tracked method (or tracking is off): plain reads from now on.
    disarm(proxy, mt)
    return rawget(proxy, key)
  end
  local v = mt.__values[key]
  if key ~= nil and key == key then record(mt, key, v, env, kind, run) end
  return v
end

-- A set of a key the proxy does not hold raw: any key while armed, a
-- missing one otherwise (a plain write: `check` compares it).
local function set(proxy, key, value)
  local mt = metaOf[proxy]
  if mt.__index ~= tracked then rawset(proxy, key, value); return end
  if current() == nil then
    -- Armed, set outside tracked methods: plain from now on.
    disarm(proxy, mt)
    rawset(proxy, key, value)
    return
  end
  -- A tracked method's set: reported at once.
  local values = mt.__values
  local old = values[key]
  values[key] = value
  local deps = mt.__deps
  if deps and deps[key] and not same(old, value) then
    report(mt, key)
    if next(deps) == nil then mt.__deps = nil; mt.__seen = nil end
  end
end

-- pairs(model) goes over the properties in both places (the keys as they
-- are when the loop starts, so that properties moving between the two
-- while it runs are each given once); in a tracked method each key it
-- gives is a read.
local function pairsOf(proxy)
  local mt = metaOf[proxy]
  local keys, n = {}, 0
  for k in next, proxy do n = n + 1; keys[n] = k end
  for k in next, mt.__values do n = n + 1; keys[n] = k end
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v
      if mt.__index == tracked then v = tracked(proxy, k) else v = get(proxy, mt, k) end
      if v ~= nil then return k, v end
    end
    return nil
  end, proxy, nil
end

local function describe(v)
  if type(v) == 'string' then return format('%q', v) end
  if metaOf[v] then return 'Observable {...}' end
  return tostring(v)
end

local function tostringOf(proxy)
  local mt = metaOf[proxy]
  local keys = {}
  for k in next, proxy do keys[#keys + 1] = k end
  for k in next, mt.__values do keys[#keys + 1] = k end
  sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == 'number' or ta == 'string' then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for i, k in next, keys do
    local name = (type(k) == 'string' and k:match('^[%a_][%w_]*$')) and k or '[' .. describe(k) .. ']'
    parts[i] = name .. ' = ' .. describe(get(proxy, mt, k))
  end
  if #parts == 0 then return 'Observable {}' end
  return 'Observable { ' .. concat(parts, ', ') .. ' }'
end

-- A border of the sequence held in both places (when one holds it all,
-- that table's own length).
local function lengthOf(proxy)
  local mt = metaOf[proxy]
  local values = mt.__values
  if next(values) == nil then return rawlen(proxy) end
  if next(proxy) == nil then return rawlen(values) end
  local j = rawlen(proxy)
  local jv = rawlen(values)
  if jv > j then j = jv end
  -- j is 0 or holds a value; find a nil after it, as luaH_getn does.
  if get(proxy, mt, j + 1) == nil then return j end
  local i = j + 1
  j = i
  repeat
    if j > maxinteger // 2 then
      while get(proxy, mt, i + 1) ~= nil do i = i + 1 end
      return i
    end
    i = j
    j = j * 2
  until get(proxy, mt, j) == nil
  while j - i > 1 do -- i holds a value, j none
    local m = (i + j) // 2
    if get(proxy, mt, m) == nil then j = m else i = m end
  end
  return i
end

local M = {}

function M.new(init)
  if init ~= nil and type(init) ~= 'table' then
    error(format('ui.Observable expects a table of initial values, got %s', type(init)), 2)
  end
  local proxy, values = {}, {}
  local armed = tracking() -- made in a tracked method: its reads there count
  local into = armed and values or proxy
  if init ~= nil then
    for k, v in next, init do into[k] = v end
    local source = metaOf[init]
    if source then
      for k, v in next, source.__values do into[k] = v end
    end
  end
  local mt = {
    __index = armed and tracked or values, __newindex = set, __pairs = pairsOf, __tostring = tostringOf,
    __len = lengthOf, __name = 'Observable', __metatable = 'Observable', __values = values,
  }
  setmetatable(proxy, mt)
  metaOf[proxy] = mt
  if not armed then
    disarmed[proxy] = true
    disarmedOne()
  end
  return proxy
end

-- Arms every object that reads plainly (the host calls it when a tracked
-- method of a script is about to run and something is disarmed): what
-- changed in a watched one is reported, then its raw properties move into
-- its values table, where reads reach `tracked`. Nothing is watched after.
function M.arm()
  for proxy in next, disarmed do
    local mt = metaOf[proxy]
    if watched[proxy] then
      -- What changed since it was disarmed is reported before it is read again.
      watched[proxy] = nil
      compare(proxy, mt)
    end
    local values = mt.__values
    for k, v in next, proxy do
      values[k] = v
      rawset(proxy, k, nil)
    end
    mt.__index = tracked
    disarmed[proxy] = nil
  end
end

-- Compares every watched object (the host calls it before pending work is
-- applied, while something is watched). Returns whether any still is.
function M.check()
  for proxy in next, watched do
    local mt = metaOf[proxy]
    compare(proxy, mt)
    if not mt.__deps then watched[proxy] = nil end
  end
  return next(watched) ~= nil
end

function M.isObservable(v) return metaOf[v] ~= nil end

return M

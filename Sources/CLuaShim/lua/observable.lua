-- ui.Observable: objects like instances of a Swift @Observable class under
-- UIKit's automatic observation tracking (ObservableLibrary.swift loads this
-- once per state, passing the host functions below).
--
-- An observable is a proxy table with a metatable of its own, and each
-- property lives in one of two places:
--   * raw in the proxy, while nothing depends on it: a read is a plain
--     field read and a set a plain field write (nothing to invalidate);
--   * in its values table (mt.__values), behind __index/__newindex, while
--     a read must be recorded (the object is armed) or a set must
--     invalidate (some tracked work's latest run read it).
-- Lua cannot see reads or writes of keys a table holds, so the object is
-- *armed* (`arm`, from the host, when it calls a tracked method of a
-- script): every raw property moves into the values table and __index
-- becomes `tracked`, which records. The first read through `tracked`
-- outside any tracked method *disarms* it: __index becomes the values
-- table, and the properties that no latest run read go back raw.
-- Nothing here keeps an environment or an observable alive: reads are kept
-- per object, in its metatable, by environment object in weak-keyed tables.
local host = ...
local current, invalidate, disarmedOne, tracking, live =
  host.current, host.invalidate, host.disarmed, host.tracking, host.live

local next, type, tostring, setmetatable, rawequal, rawget, rawset, rawlen =
  next, type, tostring, setmetatable, rawequal, rawget, rawset, rawlen
local format, sort, concat, maxinteger = string.format, table.sort, table.concat, math.maxinteger

local weakKeys = { __mode = 'k' }
-- proxy -> its metatable (getmetatable is protected: it says "Observable").
local metaOf = setmetatable({}, weakKeys)
-- Proxies that are not armed: the next `arm` arms them.
local disarmed = setmetatable({}, weakKeys)

-- Keeps that the running tracked method (environment `env`, kind of work
-- `kind`, run `run`) read `key`. A later read in the same method's next run
-- replaces the run; a run that no longer reads it leaves a stale number,
-- which the host ignores and `keepLive` drops.
local function record(mt, key, env, kind, run)
  local deps = mt.__deps
  if not deps then deps = {}; mt.__deps = deps end
  local byKind = deps[key]
  if not byKind then byKind = {}; deps[key] = byKind end
  local envs = byKind[kind]
  if not envs then envs = setmetatable({}, weakKeys); byKind[kind] = envs end
  envs[env] = run
end

-- Whether some work still depends on `key`: a read kept for it is from the
-- latest run of its work. Drops the reads that no longer count, and the key
-- when none does.
local function keepLive(deps, key)
  local byKind = deps[key]
  local any = false
  for kind, envs in next, byKind do
    for env, run in next, envs do
      if live(env, kind, run) then any = true else envs[env] = nil end
    end
    if next(envs) == nil then byKind[kind] = nil end
  end
  if not any then deps[key] = nil end
  return any
end

-- The value of `key` wherever it lives.
local function get(proxy, mt, key)
  local v = rawget(proxy, key)
  if v == nil then v = mt.__values[key] end
  return v
end

-- Back to plain reads: properties nothing depends on go raw; the others
-- stay behind __index (a read) and __newindex (a set invalidates).
local function disarm(proxy, mt)
  local values = mt.__values
  mt.__index = values
  disarmed[proxy] = true
  disarmedOne()
  local deps = mt.__deps
  if deps then
    for key in next, deps do keepLive(deps, key) end
    if next(deps) == nil then deps = nil; mt.__deps = nil end
  end
  for key, value in next, values do
    if not (deps and deps[key]) then
      values[key] = nil
      rawset(proxy, key, value)
    end
  end
end

local function tracked(proxy, key)
  local mt = metaOf[proxy]
  local env, kind, run = current()
  if env == nil then
    -- Not in a tracked method (or tracking is off): plain reads from now on.
    disarm(proxy, mt)
    return get(proxy, mt, key)
  end
  if key ~= nil and key == key then record(mt, key, env, kind, run) end
  return mt.__values[key]
end

-- A set of a property the proxy does not hold raw (a raw one is a plain
-- write: nothing depends on it). It invalidates the work whose latest run
-- read it. An equal value changes nothing: the @Observable macro's setter
-- calls withMutation only when shouldNotifyObservers(old, new) says so,
-- which for Equatable values is `!=` and for objects `!==`
-- (swiftlang/swift#78151).
local function set(proxy, key, value)
  local mt = metaOf[proxy]
  local values = mt.__values
  local old = values[key]
  local deps = mt.__deps
  local byKind = deps and deps[key]
  local changed = not (rawequal(old, value) or old == value)
  if mt.__index == tracked or (byKind and not changed) then
    -- Armed (reads must reach `tracked`), or still depended on.
    values[key] = value
  else
    -- Nothing depends on it once this change is reported: a plain field.
    rawset(proxy, key, value)
    values[key] = nil
  end
  if not (changed and byKind) then return end
  -- Like Swift's withObservationTracking, a change ends what it reported:
  -- the invalidated method tracks again when it runs.
  deps[key] = nil
  for kind, envs in next, byKind do
    for env, run in next, envs do invalidate(env, kind, run) end
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
-- method of a script is about to run and something is disarmed): its raw
-- properties move into its values table, where reads reach `tracked`.
function M.arm()
  for proxy in next, disarmed do
    local mt = metaOf[proxy]
    local values = mt.__values
    for k, v in next, proxy do
      values[k] = v
      rawset(proxy, k, nil)
    end
    mt.__index = tracked
    disarmed[proxy] = nil
  end
end

function M.isObservable(v) return metaOf[v] ~= nil end

return M

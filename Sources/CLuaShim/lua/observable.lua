-- ui.Observable: objects like instances of a Swift @Observable class under
-- UIKit's automatic observation tracking (ObservableLibrary.swift loads this
-- once per state, passing the host functions below).
--
-- An observable is an empty proxy table with a metatable of its own:
-- __index is its table of values while no tracked method runs (a read costs
-- one table lookup more than a plain field), and `tracked` while tracked
-- methods run. The host arms the objects (`arm`) when it calls a tracked
-- method of a script; a read through `tracked` outside any tracked method
-- puts that object back on its values table. Nothing here keeps an
-- environment or an observable alive: reads are kept per object, in its
-- metatable, by environment object in weak-keyed tables.
local host = ...
local current, invalidate, disarmedOne, tracking = host.current, host.invalidate, host.disarmed, host.tracking

local next, type, tostring, setmetatable, rawequal = next, type, tostring, setmetatable, rawequal
local format, sort, concat = string.format, table.sort, table.concat

local weakKeys = { __mode = 'k' }
-- proxy -> its metatable (getmetatable is protected: it says "Observable").
local metaOf = setmetatable({}, weakKeys)
-- Proxies whose __index is their values table: the next `arm` arms them.
local disarmed = setmetatable({}, weakKeys)

-- Keeps that the running tracked method (environment `env`, kind of work
-- `kind`, run `run`) read `key`. A later read in the same method's next run
-- replaces the run; a run that no longer reads it leaves a stale number,
-- which the host ignores.
local function record(mt, key, env, kind, run)
  local deps = mt.__deps
  if not deps then deps = {}; mt.__deps = deps end
  local byKind = deps[key]
  if not byKind then byKind = {}; deps[key] = byKind end
  local envs = byKind[kind]
  if not envs then envs = setmetatable({}, weakKeys); byKind[kind] = envs end
  envs[env] = run
end

local function tracked(proxy, key)
  local mt = metaOf[proxy]
  local values = mt.__values
  local env, kind, run = current()
  if env == nil then
    -- Not in a tracked method (or tracking is off): plain reads from now on.
    mt.__index = values
    disarmed[proxy] = true
    disarmedOne()
    return values[key]
  end
  if key ~= nil and key == key then record(mt, key, env, kind, run) end
  return values[key]
end

-- Setting a property invalidates the work whose latest run read it. An
-- equal value changes nothing: the @Observable macro's setter calls
-- withMutation only when shouldNotifyObservers(old, new) says so, which for
-- Equatable values is `!=` and for objects `!==` (swiftlang/swift#78151).
local function set(proxy, key, value)
  local mt = metaOf[proxy]
  local values = mt.__values
  local old = values[key]
  values[key] = value
  if rawequal(old, value) or old == value then return end
  local deps = mt.__deps
  local byKind = deps and deps[key]
  if not byKind then return end
  -- Like Swift's withObservationTracking, a change ends what it reported:
  -- the invalidated method tracks again when it runs.
  deps[key] = nil
  for kind, envs in next, byKind do
    for env, run in next, envs do invalidate(env, kind, run) end
  end
end

-- pairs(model) goes over the values; in a tracked method each key it gives
-- is a read.
local function pairsOf(proxy)
  local mt = metaOf[proxy]
  local values = mt.__values
  return function(_, k)
    local nk, nv = next(values, k)
    if nk ~= nil and mt.__index == tracked then tracked(proxy, nk) end
    return nk, nv
  end, proxy, nil
end

local function describe(v)
  if type(v) == 'string' then return format('%q', v) end
  if metaOf[v] then return 'Observable {...}' end
  return tostring(v)
end

local function tostringOf(proxy)
  local values = metaOf[proxy].__values
  local keys = {}
  for k in next, values do keys[#keys + 1] = k end
  sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == 'number' or ta == 'string' then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for i, k in next, keys do
    local name = (type(k) == 'string' and k:match('^[%a_][%w_]*$')) and k or '[' .. describe(k) .. ']'
    parts[i] = name .. ' = ' .. describe(values[k])
  end
  if #parts == 0 then return 'Observable {}' end
  return 'Observable { ' .. concat(parts, ', ') .. ' }'
end

local function lengthOf(proxy) return #metaOf[proxy].__values end

local M = {}

function M.new(init)
  if init ~= nil and type(init) ~= 'table' then
    error(format('ui.Observable expects a table of initial values, got %s', type(init)), 2)
  end
  local values = {}
  if init ~= nil then
    local source = metaOf[init] and metaOf[init].__values or init
    for k, v in next, source do values[k] = v end
  end
  local proxy = {}
  local mt = {
    __index = values, __newindex = set, __pairs = pairsOf, __tostring = tostringOf, __len = lengthOf,
    __name = 'Observable', __metatable = 'Observable', __values = values,
  }
  setmetatable(proxy, mt)
  metaOf[proxy] = mt
  if tracking() then
    mt.__index = tracked -- made in a tracked method: its reads there count
  else
    disarmed[proxy] = true
    disarmedOne()
  end
  return proxy
end

-- Arms every object that reads plainly (the host calls it when a tracked
-- method of a script is about to run and something is disarmed).
function M.arm()
  for proxy in next, disarmed do
    metaOf[proxy].__index = tracked
    disarmed[proxy] = nil
  end
end

function M.isObservable(v) return metaOf[v] ~= nil end

return M

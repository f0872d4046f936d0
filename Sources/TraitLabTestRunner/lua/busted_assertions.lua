-- traitlab test's assertions (the driver, busted.lua, loads this part):
-- assert.has_trait and assert.matches_snapshot, registered through
-- luassert's own API.

local driver = ...   -- what the driver shares with its parts
local tl, opts = driver.tl, driver.opts
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
-- gets " 2", ...). In a matrix each combination keeps its own file, NAME
-- [COMBINATION].txt, so no combination's dump is compared with another's
-- (docs/cli.md, "Snapshots in a matrix"). Under --sandbox a missing
-- snapshot fails instead of being written: sandboxed specs choose no file
-- to write. Only real folders and regular files are read or written there:
-- a symbolic link is never followed (--update-snapshots replaces one), and
-- nothing of it is quoted.
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

local function fileSafe(text)
  return (text:gsub('[^%w%-_ ,%.%(%)%[%]=]', '_'):gsub('^%.+', '_'))
end

-- The file name of a snapshot: the name itself when it is short and made of
-- characters every file system keeps; otherwise a readable part of it and
-- the hash of the whole name, so distinct names never share a file. A
-- matrix's combination (`[iPad Pro 13-inch (M5), scene 1/3]`, a label the
-- command builds) follows it, its '/' written as '-' (no two labels differ
-- only there), or a readable part and its hash when it is long.
local function snapshotFileName(name, combination)
  local safe = fileSafe(name)
  local base
  if safe == name and #safe <= 120 then base = safe
  else base = safe:sub(1, 100) .. ' #' .. nameHash(name) end
  if not combination then return base .. '.txt' end
  local combo = fileSafe((combination:gsub('/', '-')))
  if #combo > 130 then combo = combo:sub(1, 110) .. ' #' .. nameHash(combination) end
  return base .. ' ' .. combo .. '.txt'
end

local function snapshotPlace(name)
  local busted = driver.currentBusted
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
  return { dir .. '/__snapshots__', dir .. '/__snapshots__/' .. spec }, snapshotFileName(name, driver.combination), name
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

return {}

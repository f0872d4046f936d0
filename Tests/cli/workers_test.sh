#!/usr/bin/env bash
# What `traitlab test`'s workers send their parent is data, read as
# untrusted input, and busted's modules come from a cache that is checked
# against their files and read only when private (docs/performance.md,
# "What a run of traitlab test shares"; docs/sandbox.md).
# Usage: workers_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: workers_test.sh path/to/traitlab}")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/expect.sh"
cd "$work" || exit 1
export XDG_CACHE_HOME="$work/cache"
run_test() { timeout -s KILL 60 "$bin" test "$@" > run.out 2>&1; status=$?; out=$(tr -d '\000' < run.out); }

# ------------------------------------------------------------ records are data
# In a matrix run at -j 1 one worker runs the combinations one after the
# other, each in a process of its own; a spec file (not sandboxed: it may
# write files) rewrites its own process's stream once the recorder has
# closed it (at busted's exit, before the process ends and its parent reads
# the stream), inserting bytes after its first record. The record format is
# the one Sources/CSpecRunner/records.c reads; the spec writes it by hand.
cat > forge.lua <<'LUA'
local forge = {}
local function value(v)
  local t = type(v)
  if t == 'string' then return 's' .. string.pack('<I4', #v) .. v
  elseif math.type(v) == 'integer' then return 'i' .. string.pack('<i8', v)
  elseif t == 'boolean' then return v and 'T' or 'F'
  end
  local parts, n = {}, 0
  for k, x in pairs(v) do parts[#parts + 1] = value(k) .. value(x); n = n + 1 end
  return 't' .. string.pack('<I4', n) .. table.concat(parts)
end
function forge.record(r) local p = value(r) return string.pack('<I4', #p) .. p end
-- Inserts `bytes` into this process's own stream (the events file of the
-- worker's plan, named on the worker's command line, that this process
-- holds open), after its first record, once busted's exit has closed it.
function forge.insert(bytes)
  local args = {}
  for a in io.open('/proc/self/cmdline', 'rb'):read('a'):gmatch('[^%z]+') do args[#args + 1] = a end
  local plan
  for i, a in ipairs(args) do if a == '--worker-plan' then plan = args[i + 1] end end
  assert(plan, 'no plan')
  local pid = io.open('/proc/self/stat'):read('a'):match('^(%d+)')
  local open = io.popen('ls -l /proc/' .. pid .. '/fd'):read('a')
  local own
  for line in io.lines(plan) do
    local path = line:match('^events (.*)$')
    if path and open:find(' -> ' .. path .. '\n', 1, true) then own = path end
  end
  assert(own, 'no stream of its own')
  require('busted').subscribe({ 'exit' }, function()
    local f = assert(io.open(own, 'rb'))
    local data = f:read('a')
    f:close()
    local first = 4 + string.unpack('<I4', data)
    f = assert(io.open(own, 'wb'))
    f:write(data:sub(1, first), bytes, data:sub(first + 1))
    f:close()
    return nil, true
  end)
end
return forge
LUA
cat > forged_spec.lua <<'LUA'
local forge = dofile('forge.lua')
describe("forger", function()
  it("inserts records", function()
    forge.insert(forge.record { k = 'ev', c = { 'exit' }, e = 1, n = 0, a = {} }
                 .. forge.record { k = 'ev', c = { 'suite', 'end' }, e = 1, n = 0, a = {} }
                 .. forge.record { k = 'ev', c = { 'register', 'it' }, e = 1, n = 0, a = {} }
                 .. forge.record { k = 'ev', c = { 'test', 'end' }, e = 424242, n = 1, a = { 'success' } }
                 .. forge.record { k = 'el', id = 77, p = 1, d = 'it', n = 'forged', a = {},
                                   t = { short_src = 'x', currentline = 1, traceback = '' } }
                 .. forge.record { k = 'ev', c = { 'test', 'end' }, e = 77, p = 1, n = 1, a = { 'failure' } })
  end)
  it("runs after them", function() assert.is_true(true) end)
end)
LUA
cat > after_spec.lua <<'LUA'
it("runs in the next file", function() end)
LUA
run_test forged_spec.lua after_spec.lua -j 1 --ios 17,26
expect "a record is published only on a channel the recorder sends and for an element the stream defined: exit, suite end and register are dropped, a forged test end counts" \
  1 '^6 passed, 2 failed$'

cat > source_spec.lua <<'LUA'
local forge = dofile('forge.lua')
it("inserts what a parent that load()ed records would run", function()
  forge.insert('\nwhile true do end\nos.exit(7)\n')
end)
LUA
run_test source_spec.lua after_spec.lua -j 1 --ios 17,26
expect "Lua source in a stream is not run: reading stops there, and the files fail as a worker's that stopped" \
  1 '\[iOS 17\] source_spec.lua: the worker process running it stopped before the file ended' \
  '\[iOS 26\] after_spec.lua: the worker process running it stopped before the file ended' '^0 passed, 4 failed$'

printf '\377\377\377\177garbage' > garbage.bin
cat > torn_spec.lua <<'LUA'
local forge = dofile('forge.lua')
it("claims a record of 2 GB", function() forge.insert(io.open('garbage.bin', 'rb'):read('a')) end)
LUA
run_test torn_spec.lua after_spec.lua -j 1 --ios 17,26
expect "a length past the end of a stream stops the reading there" \
  1 '\[iOS 17\] torn_spec.lua: the worker process running it stopped before the file ended' \
  '\[iOS 26\] after_spec.lua: the worker process running it stopped before the file ended' '^0 passed, 4 failed$'

# ------------------------------------------------------------ busted's module cache
cat > plain_spec.lua <<'LUA'
it("adds", function() assert.equal(4, 2 + 2) end)
LUA
run_test plain_spec.lua
expect "a run with the cache empty" 0 '^1 passed, 0 failed$'
cache="$XDG_CACHE_HOME/traitlab/busted-modules"
[ "$(stat -c %a "$XDG_CACHE_HOME/traitlab" 2>/dev/null)/$(stat -c %a "$cache" 2>/dev/null)" = "700/600" ] \
  && ok "busted's modules are cached in \$XDG_CACHE_HOME/traitlab, private to the user" \
  || bad "cache modes" "$(ls -la "$XDG_CACHE_HOME/traitlab" 2>&1)"
run_test plain_spec.lua
expect "a run from the cache" 0 '^1 passed, 0 failed$'
run_test plain_spec.lua -j 2 --ios 17,26
expect "... and a matrix whose workers fork from a loaded process" 0 '^2 passed, 0 failed$'

# The cache serves a module from busted's folders only where Lua's searcher
# would find it: a suite's own copy of one, first on busted's --lpath (as
# Penlight's suite has its pl/), is the one loaded, as under busted.
mkdir -p lib/pl
echo 'return { copy = "the suite'"'"'s own" }' > lib/pl/OrderedMap.lua
cat > lpath_spec.lua <<'LUA'
it("requires the suite's copy", function() assert.equal("the suite's own", require("pl.OrderedMap").copy) end)
LUA
run_test lpath_spec.lua --lpath='lib/?.lua'
expect "a module of busted's folders that --lpath puts first is the suite's copy" 0 '^1 passed, 0 failed$'
run_test lpath_spec.lua plain_spec.lua --lpath='lib/?.lua' -j 2 --ios 17,26
expect "... in workers too" 0 '^4 passed, 0 failed$'

# A copy of Debian's Lua tree first on LUA_PATH: busted is loaded (and
# cached) from there, and a change to one of its files must be seen.
lua_tree=$(dirname "$(dirname "$(lua5.4 -e 'print(package.searchpath("busted.core", package.path))')")")
cp -rL "$lua_tree" "$work/lua"
export LUA_PATH="$work/lua/?.lua;$work/lua/?/init.lua;;"
say="$work/lua/say/init.lua"
{ echo 'io.stderr:write("say: version one\n")'; cat "$lua_tree/say/init.lua"; } > "$say"
run_test plain_spec.lua
expect "a module file is loaded from where LUA_PATH finds it" 0 'say: version one' '^1 passed, 0 failed$'
run_test plain_spec.lua
expect "... and again from the cache" 0 'say: version one' '^1 passed, 0 failed$'
sed -i 's/version one/version two/' "$say"   # (same size)
run_test plain_spec.lua
expect "a changed module file is compiled again (the cache is checked against each file)" 0 'say: version two' '^1 passed, 0 failed$'

# A cache another user could have written is never read: a forged one whose
# entry for say/init.lua is valid in every way (key, checksum, this Lua's
# header) but the modes of its folder or file.
{ echo 'io.stderr:write("say: forged\n")'; cat "$lua_tree/say/init.lua"; } > forged_say.lua
luac5.4 -o forged_say.luac forged_say.lua
forge_cache() {
  python3 - "$say" forged_say.luac "$cache" <<'PY'
import os, struct, sys
say, code_path, cache = sys.argv[1:]
code = open(code_path, 'rb').read()
st = os.stat(say)
# (the checksum of Sources/CSpecRunner/module_cache.c)
M = 0xFFFFFFFFFFFFFFFF
h, whole = 1469598103934665603, len(code) // 8 * 8
for i in range(0, whole, 8):
    h = ((h ^ int.from_bytes(code[i:i + 8], 'little')) * 1099511628211) & M
    h ^= h >> 29
for b in code[whole:]:
    h = ((h ^ b) * 1099511628211) & M
key = struct.pack('<7q', st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9,
                  st.st_ctime_ns // 10**9, st.st_ctime_ns % 10**9)
path = say.encode()
with open(cache, 'wb') as f:
    f.write(b'traitlab busted modules 1\n')
    f.write(struct.pack('<I', len(path)) + path + key + struct.pack('<Q', h) + struct.pack('<I', len(code)) + code)
PY
}
forge_cache; chmod 666 "$cache"
run_test plain_spec.lua
expect "a cache file others may write is not read" 0 'say: version two' '^1 passed, 0 failed$'
forge_cache; chmod 600 "$cache"; chmod 777 "$XDG_CACHE_HOME/traitlab"
run_test plain_spec.lua
expect "a cache in a folder others may write is not read" 0 'say: version two' '^1 passed, 0 failed$'
forge_cache; chmod 600 "$cache"; chmod 700 "$XDG_CACHE_HOME/traitlab"
run_test plain_spec.lua
expect "(the same forged cache, private, is read: the modes are what kept it out)" 0 'say: forged'
unset LUA_PATH

finish

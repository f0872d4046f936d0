#!/usr/bin/env bash
# End-to-end tests of traitlab's batch mode: exit codes, error format, the
# `arg` table (compared with lua5.4 on the same command lines), -e/-l/-/stdin,
# LUA_INIT, -v/-h, module-path, --timeout, --memory-limit, --sandbox, plugins.
#
# usage: Tests/cli/cli_test.sh path/to/traitlab
# Builds nothing. The last line is "N passed, N failed"; exit status 1 on any failure.
set -u

TL=${1:?usage: cli_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
source "$(dirname "$0")/lib/expect.sh"
out=""
[ -x "$TL" ] || { bad "not executable: $TL"; finish; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# Keep the environment from leaking into the tests.
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4 TRAITLAB_PLUGIN_PATH NO_COLOR

# run_apart and run_apart_stdin (Tests/cli/lib/expect.sh) set OUT, ERR, RC and
# SECS (wall time), each run with a 20 s guard; holds NAME CONDITION checks them.
RUN_TIMEOUT=20

# ---------------------------------------------------------------- basics
run_apart "$TL" -v
holds "-v names TraitLab and Lua 5.4" '[ $RC -eq 0 ] && [[ $OUT == TraitLab* ]] && [[ $OUT == *"Lua 5.4"* ]] && [[ $OUT == *Copyright* ]]'

run_apart "$TL" -e 'print(1 + 1)'
holds "-e runs code, exit 0" '[ $RC -eq 0 ] && [ "$OUT" = 2 ] && [ -z "$ERR" ]'

run_apart "$TL" -e 'x = 20' -e 'print(x + 1)'
holds "several -e run in order" '[ $RC -eq 0 ] && [ "$OUT" = 21 ]'

run_apart "$TL" -eprint\(3\)
holds "-eCODE (attached argument)" '[ $RC -eq 0 ] && [ "$OUT" = 3 ]'

run_apart "$TL" -h
missing=
for f in " -e " " -l " " -i " " -v," " --version " " -E " " -W " " -- " " - " --plugin --plugin-path --hierarchy --timeout --memory-limit --sandbox --help module-path types-path completions; do
  [[ $OUT == *"$f"* ]] || missing+=" '$f'"
done
holds "-h prints usage with every flag, exit 0" '[ $RC -eq 0 ] && [ -z "$missing" ]'
[ -z "$missing" ] || echo "     missing:$missing"

run_apart "$TL" --help
holds "--help is -h" '[ $RC -eq 0 ] && [[ $OUT == *--memory-limit* ]]'

cat > ok.lua <<'LUA'
print("script ran", select("#", ...))
return 1, 2
LUA
run_apart "$TL" ok.lua a b
holds "script with arguments, exit 0" '[ $RC -eq 0 ] && [ "$OUT" = "script ran	2" ]'

run_apart "$TL" -e 'os.exit(3)'
holds "os.exit status is kept" '[ $RC -eq 3 ]'

# ---------------------------------------------------------------- errors: exit 1, "traitlab: FILE:LINE: message" + traceback
cat > fails.lua <<'LUA'
local x = 1
error("boom")
LUA
run_apart "$TL" fails.lua
holds "failing script exits 1" '[ $RC -eq 1 ]'
holds "failing script: traitlab: FILE:LINE: message" '[[ $(head -n1 <<<"$ERR") == "traitlab: fails.lua:2: boom" ]]'
holds "failing script: traceback" '[[ $ERR == *"stack traceback:"* ]] && [[ $ERR == *"fails.lua:2: in main chunk"* ]]'

cat > nested.lua <<'LUA'
local function inner() local t = nil; return t.field end
local function outer() return inner() end
outer()
LUA
run_apart "$TL" nested.lua
holds "runtime error names file and line" '[ $RC -eq 1 ] && [[ $(head -n1 <<<"$ERR") == "traitlab: nested.lua:1: attempt to index a nil value"* ]] && [[ $ERR == *"nested.lua:3: in main chunk"* ]]'

# The whole of stderr is lua5.4's, but for the program's name: lua.c runs
# every chunk from pmain, a C function (lua.c, docall and pmain), so its
# tracebacks end with that frame, "[C]: in ?"; a script, -e, and a line of
# the REPL the same.
printf 'error("x")\n' > stdin_error.txt
same_report() {   # NAME ARGS...: stderr and stdout as lua5.4's, but for the program's name
  local name=$1 want got; shift
  if [ "$1" = -i ]; then   # (the banner and prompts apart)
    want=$(lua5.4 -i <stdin_error.txt 2>&1 | sed 's/^lua5\.4: //' | grep -v '^Lua 5\.4' | grep -v '^>')
    got=$("$TL" -i <stdin_error.txt 2>&1 | sed 's/^traitlab: //' | grep -v '^TraitLab' | grep -v '^Type ' | grep -v '^>' | grep -v '^$')
    want=$(grep -v '^$' <<<"$want")
  else
    want=$(lua5.4 "$@" 2>&1 | sed 's/^lua5\.4: //')
    got=$("$TL" "$@" 2>&1 | sed 's/^traitlab: //')
  fi
  [ -n "$want" ] && [ "$want" = "$got" ] && ok "an error's report is lua5.4's, traceback and all ($name)" \
    || bad "an error's report is lua5.4's ($name)" "lua5.4:
$want
traitlab:
$got"
}
same_report "a script, nested calls" nested.lua
same_report "a script" fails.lua
same_report "-e, a table raised" -e 'error({})'
same_report "-e, through a metamethod" -e 'local t = setmetatable({}, {__index = function() error("deep") end}) return t.x'
same_report "a line of the REPL" -i

printf 'local x = \nprint(\n' > syntax.lua
run_apart "$TL" syntax.lua
holds "syntax error: exit 1, traitlab: FILE:LINE:" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: syntax.lua:"[0-9]* ]]'

run_apart "$TL" does-not-exist.lua
holds "missing script: exit 1, cannot open" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: cannot open does-not-exist.lua"* ]]'

run_apart "$TL" -e 'error({})'
holds "non-string error value" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: (error object is a table value)"* ]]'

run_apart "$TL" -e 'error(setmetatable({}, { __tostring = function() return "custom" end }))'
holds "error value with __tostring" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: custom"* ]]'

# The same error values raised by a callback of the update that ends the chunk
# (lua.c's msghandler: __tostring, else "(error object is a X value)").
run_apart "$TL" -e 'local w = ui.Window { windowScene = ui.WindowScene {} }; w.rootViewController = ui.ViewController {}; w.rootViewController.view.layoutSubviews = function() error(setmetatable({}, { __tostring = function() return "custom from layout" end })) end'
holds "an error value with __tostring from the end-of-chunk update" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: custom from layout"* ]]'
run_apart "$TL" -e 'local w = ui.Window { windowScene = ui.WindowScene {} }; w.rootViewController = ui.ViewController {}; w.rootViewController.view.layoutSubviews = function() error({}) end'
holds "a table error value from the end-of-chunk update" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: (error object is a table value)"* ]]'
stage='local s = ui.WindowScene {}; local w = ui.Window { windowScene = s }; w.rootViewController = ui.ViewController {}; ui.update(); s.traitOverrides.userInterfaceStyle = "dark";'
run_apart "$TL" -e "$stage"' w.rootViewController.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() error(42) end)'
holds "a number raised by a handler in the end-of-chunk update prints as lua.c prints it" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: 42"* ]]'
run_apart "$TL" --timeout 1 -e "$stage"' w.rootViewController.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() error(setmetatable({}, { __tostring = function() while true do end end })) end)'
holds "an error whose __tostring runs out of time says so" '[ $RC -eq 1 ] && [[ $ERR == *"its __tostring failed: timed out after 1 second"* ]]'
run_apart "$TL" --memory-limit 32M -e "$stage"' w.rootViewController.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() local t = {} while true do t[#t + 1] = ("x"):rep(100) .. #t end end)'
holds "out of memory in the end-of-chunk update names the limit" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: not enough memory (--memory-limit of 32M reached)"* ]]'

run_apart "$TL" -e 'error("first")' -e 'print("never")'
holds "a failing -e stops the run" '[ $RC -eq 1 ] && [ -z "$OUT" ] && [[ $ERR == "traitlab: (command line):1: first"* ]]'

# ---------------------------------------------------------------- usage errors: exit 2
for bad in "-x" "--bogus" "-e" "-l" "-ix" "--hierarchy" "--hierarchy=modern" "--timeout=-1" "--timeout abc" "--memory-limit 12Q" "--memory-limit 0" "--memory-limit 16K" "--plugin"; do
  # shellcheck disable=SC2086
  run_apart "$TL" $bad
  holds "usage error: $bad exits 2 with usage" '[ $RC -eq 2 ] && [[ $ERR == traitlab:* ]] && [[ $ERR == *"usage: traitlab"* ]] && [ -z "$OUT" ]'
done
# One table of host options (Sources/traitlab/HostOptions.swift): the same
# option takes the same values and fails with the same words in every command.
run_apart "$TL" --timeout 0 -e 'print("no limit")'
holds "--timeout 0 means no limit, as for traitlab test" '[ $RC -eq 0 ] && [ "$OUT" = "no limit" ]'
run_apart "$TL" --ios 17,26 -e ''
holds "a list of values makes a matrix: a usage error for a script" '[ $RC -eq 2 ] && [[ $ERR == *"makes a matrix, which traitlab test runs"* ]]'
for cmd in "" "test" "swift export"; do
  # shellcheck disable=SC2086
  run_apart "$TL" $cmd --timeout abc x.lua
  holds "traitlab $cmd --timeout abc: the same message" '[ $RC -eq 2 ] && [[ $ERR == *"invalid --timeout value '"'"'abc'"'"' (seconds, a number; 0 for none)"* ]]'
  # shellcheck disable=SC2086
  run_apart "$TL" $cmd --memory-limit 1K x.lua
  holds "traitlab $cmd --memory-limit 1K: the same message" '[ $RC -eq 2 ] && [[ $ERR == *"--memory-limit 1K is too small: TraitLab needs at least 256K"* ]]'
done
# traitlab devices: the catalogue, as a table and as JSON; --device's "did you mean".
run_apart "$TL" devices
holds "devices: a table of the catalogue with size classes per orientation" '[ $RC -eq 0 ] && [[ $OUT == "device "*"portrait"*"landscape"* ]] && [[ $OUT == *"iPhone SE (3rd generation)"*"phone"*"375x667"*"@2x"*"compact/regular"*"compact/compact"* ]]'
run_apart "$TL" devices --json
holds "devices --json: one JSON document, a row per device of ui.devices" '[ $RC -eq 0 ] && [ "$(python3 -c "import json,sys; d=json.load(sys.stdin); print(all(k in d[0] for k in (\"name\",\"points\",\"scale\",\"portrait\",\"landscape\",\"source\")), len(d))" <<<"$OUT")" = "True $("$TL" -e "print(#ui.devices)")" ]'
run_apart "$TL" devices --bogus
holds "devices --bogus is a usage error" '[ $RC -eq 2 ]'
run_apart "$TL" --device "iPhone 15 Prp" -e ''
holds "--device suggests the nearest name and names traitlab devices" '[ $RC -eq 2 ] && [[ $ERR == *"did you mean \"iPhone 15 Pro\"?"*"traitlab devices"* ]]'
run_apart "$TL" -e -v
holds "'-e' needs argument (next word is an option), as lua5.4" '[ $RC -eq 2 ] && [[ $ERR == *"'"'"'-e'"'"' needs argument"* ]]'

# ---------------------------------------------------------------- arg, compared with lua5.4
cat > showarg.lua <<'LUA'
local t = {}
for i = -12, 12 do if arg[i] ~= nil then t[#t + 1] = i .. "=" .. arg[i] end end
local n = select("#", ...)
print(table.concat(t, " ") .. " | " .. n .. " | " .. table.concat({ ... }, ","))
LUA
# Compares OUT of traitlab and lua5.4 for the same arguments (argv[0] normalised).
same_as_lua() {
  local name=$1; shift
  local mine theirs
  mine=$(timeout 10 "$TL" "$@" 2>&1 </dev/null | sed "s#$TL#INTERP#g")
  theirs=$(timeout 10 lua5.4 "$@" 2>&1 </dev/null | sed "s#lua5.4#INTERP#g")
  if [ "$mine" = "$theirs" ] && [ -n "$mine" ]; then ok "$name"; else
    RC=-; OUT=$mine; ERR=$theirs; bad_apart "$name" "traitlab and lua5.4 differ (stderr line shows lua5.4)"; fi
}
if command -v lua5.4 >/dev/null; then
  same_as_lua "arg: script and arguments" showarg.lua a b "c d"
  same_as_lua "arg: options before the script" -e 'x = 1' -W showarg.lua one
  same_as_lua "arg: -- before the script" -- showarg.lua -x --y
  same_as_lua "arg: script arguments that look like options" showarg.lua -e -v
  same_as_lua "arg: no script (options at positive indices)" -e 'dofile("showarg.lua")'
  same_as_lua "arg: -l and -e before the script" -l string -e 'y = 2' showarg.lua z
  mine=$(printf 'dofile("showarg.lua")' | "$TL" - p q 2>&1 | sed "s#$TL#INTERP#g")
  theirs=$(printf 'dofile("showarg.lua")' | lua5.4 - p q 2>&1 | sed "s#lua5.4#INTERP#g")
  RC=-; OUT=$mine; ERR=$theirs
  holds "arg: - (stdin) with arguments" '[ "$mine" = "$theirs" ]'
else
  echo "SKIP arg comparisons: lua5.4 not installed"
fi
run_apart "$TL" --hierarchy legacy --timeout 5 showarg.lua x
holds "arg: TraitLab's options are at negative indices too" '[ "$OUT" = "-5=$TL -4=--hierarchy -3=legacy -2=--timeout -1=5 0=showarg.lua 1=x | 1 | x" ]'

# ---------------------------------------------------------------- -l, -, stdin
mkdir -p mods
printf 'return { answer = 42 }\n' > mods/mymod.lua
run_apart env LUA_PATH="$tmp/mods/?.lua;;" "$TL" -l mymod -e 'print(mymod.answer)'
holds "-l NAME requires into the global NAME" '[ $RC -eq 0 ] && [ "$OUT" = 42 ]'
run_apart env LUA_PATH="$tmp/mods/?.lua;;" "$TL" -l m=mymod -e 'print(m.answer, mymod)'
holds "-l g=mod requires into the global g" '[ $RC -eq 0 ] && [ "$OUT" = "42	nil" ]'
run_apart "$TL" -l nosuchmodule
holds "-l of a missing module: exit 1" '[ $RC -eq 1 ] && [[ $ERR == *"module '"'"'nosuchmodule'"'"' not found"* ]]'

run_apart_stdin 'print("from stdin", ...)' "$TL" - a b
holds "- runs standard input with arguments" '[ $RC -eq 0 ] && [ "$OUT" = "from stdin	a	b" ]'
run_apart_stdin 'print(6 * 7)' "$TL"
holds "no script, stdin not a terminal: runs stdin" '[ $RC -eq 0 ] && [ "$OUT" = 42 ]'
run_apart_stdin 'error("bad input")' "$TL"
holds "stdin chunk error: traitlab: stdin:1:" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: stdin:1: bad input"* ]]'
run_apart_stdin 'print("not run")' "$TL" -e 'print("e only")'
holds "-e without script does not read stdin" '[ "$OUT" = "e only" ]'
run_apart_stdin 'x * 2
=x + 1
function f()
  return "multi"
end
f()
' "$TL" -i -e 'x = 10'
# As lua5.4 (readline) shows it: the prompt, the line read, then the results
# through the global print (raw strings), per lua.c's l_print.
holds "-i runs a REPL after -e (stdin not a terminal)" '[ $RC -eq 0 ] && [[ $OUT == *"TraitLab"* ]] && [[ $OUT == *$'"'"'> x * 2\n20\n'"'"'* ]] && [[ $OUT == *$'"'"'> =x + 1\n11\n'"'"'* ]] && [[ $OUT == *">>   return"* ]] && [[ $OUT == *$'"'"'> f()\nmulti\n'"'"'* ]]'
run_apart_stdin 'io.write("")
=setmetatable({}, {__tostring = function() return "custom" end}), "s"
' "$TL" -i -e '_PROMPT = setmetatable({}, {__tostring = function() return "P$ " end}); _PROMPT2 = "..."'
holds "_PROMPT objects go through tostring; results through print (lua.c)" '[ $RC -eq 0 ] && [[ $OUT == *$'"'"'P$ =setmetatable'"'"'* ]] && [[ $OUT == *$'"'"'custom\ts\n'"'"'* ]]'
run_apart_stdin '1
' "$TL" -i -e 'print = nil'
holds "a failing print is reported as lua.c does" '[[ $ERR == *"error calling '"'"'print'"'"'"* ]]'
run_apart "$TL" -e 'local ok, e = pcall(function() warn("@on"); warn("hello") end)'
holds "warnings start with Lua warning:" '[[ $ERR == "Lua warning: hello"* ]]'

# ---------------------------------------------------------------- LUA_INIT, -E, -W
run_apart env LUA_INIT='x = 7' "$TL" -e 'print(x)'
holds "LUA_INIT runs first" '[ "$OUT" = 7 ]'
run_apart env LUA_INIT='x = 7' LUA_INIT_5_4='x = 54' "$TL" -e 'print(x)'
holds "LUA_INIT_5_4 wins over LUA_INIT" '[ "$OUT" = 54 ]'
printf 'x = "from file"\n' > init.lua
run_apart env LUA_INIT="@$tmp/init.lua" "$TL" -e 'print(x)'
holds "LUA_INIT=@file" '[ "$OUT" = "from file" ]'
run_apart env LUA_INIT='x = 7' LUA_PATH='/nowhere/?.lua' "$TL" -E -e 'print(x, package.path:find("/nowhere", 1, true))'
holds "-E ignores LUA_INIT and LUA_PATH" '[ "$OUT" = "nil	nil" ]'
run_apart env LUA_INIT='error("init failed")' "$TL" -e 'print("never")'
holds "failing LUA_INIT: exit 1" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: LUA_INIT:1: init failed"* ]]'
run_apart "$TL" -e 'warn("quiet")'
holds "warnings are off by default" '[ -z "$ERR" ]'
run_apart "$TL" -W -e 'warn("loud")'
holds "-W turns warnings on" '[[ $ERR == *loud* ]]'

# ---------------------------------------------------------------- traits: pending work settles after each chunk
cat > settle.lua <<'LUA'
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
ui.update()
root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function(view)
  print("handler saw " .. view.traitCollection.userInterfaceStyle)
  if arg[1] == "fail" then error("handler failed") end
end)
scene.traitOverrides.userInterfaceStyle = "dark"
-- no ui.update(): the end of the script settles pending work
LUA
run_apart "$TL" settle.lua
holds "pending trait work settles at the end of a script" '[ $RC -eq 0 ] && [ "$OUT" = "handler saw dark" ]'
run_apart "$TL" settle.lua fail
holds "an error while settling is a script error" '[ $RC -eq 1 ] && [[ $ERR == "traitlab: settle.lua:8: handler failed"* ]]'
run_apart "$TL" --hierarchy legacy -e 'print(ui.hierarchyMode)'
holds "--hierarchy legacy" '[ "$OUT" = legacy ]'
run_apart "$TL" -e 'print(ui.hierarchyMode)'
holds "default hierarchy is ios17" '[ "$OUT" = ios17 ]'

# ---------------------------------------------------------------- plugins
mkdir -p plugs
cat > plugs/shade.lua <<'LUA'
return {
  name = "shade", version = "2.0.0",
  setup = function(api) api.traits.define { name = "Shade", default = "light" } end,
}
LUA
run_apart "$TL" --plugin-path plugs --plugin shade -e 'print(traits.collection {}.shade, plugins.list()[1].version)'
holds "--plugin NAME with --plugin-path" '[ $RC -eq 0 ] && [ "$OUT" = "light	2.0.0" ]'
run_apart "$TL" --plugin plugs/shade.lua -e 'print(plugins.list()[1].name)'
holds "--plugin PATH" '[ $RC -eq 0 ] && [ "$OUT" = shade ]'
run_apart "$TL" --plugin-path plugs --plugin nosuch
holds "--plugin of a missing plugin: exit 1" '[ $RC -eq 1 ] && [[ $ERR == *"nosuch"*"not found"* ]]'

# ---------------------------------------------------------------- --timeout
run_apart "$TL" --timeout 1 -e 'while true do end'
holds "--timeout stops a busy loop: exit 1 in time" '[ $RC -eq 1 ] && [[ $ERR == *"timed out after 1 second"* ]] && (( $(echo "$SECS < 2.5" | bc) ))'
run_apart "$TL" --timeout 1 -e 'while true do pcall(function() while true do end end) end'
holds "--timeout cannot be swallowed by pcall" '[ $RC -eq 1 ] && [[ $ERR == *"timed out after 1 second"* ]] && (( $(echo "$SECS < 2.5" | bc) ))'
cat > busyhandler.lua <<'LUA'
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
window.rootViewController = ui.ViewController {}
window.rootViewController.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function()
  while true do end
end)
ui.update()
scene.traitOverrides.userInterfaceStyle = "dark"
ui.update()
LUA
run_apart "$TL" --timeout 1 busyhandler.lua
holds "--timeout stops a busy trait-change handler" '[ $RC -eq 1 ] && [[ $ERR == *"timed out after 1 second"* ]] && (( $(echo "$SECS < 2.5" | bc) ))'
run_apart "$TL" --timeout 1 -e 'coroutine.wrap(function() while true do end end)()'
holds "--timeout stops a loop inside a coroutine" '[ $RC -eq 1 ] && [[ $ERR == *"timed out after 1 second"* ]] && [[ $ERR != *"did not stop"* ]] && (( $(echo "$SECS < 3.5" | bc) ))'
# The REPL keeps the session: a runaway loop in a coroutine (resumed before or
# after the deadline, through resume or wrap) times out back to the prompt.
run_apart_stdin $'x = 41\ncoroutine.wrap(function() while true do end end)()\nprint(coroutine.resume(coroutine.create(function() while true do end end)))\nlocal co = coroutine.wrap(function() coroutine.yield() while true do end end); co(); co()\nprint("alive", x + 1)\n' "$TL" -i --timeout 1
holds "REPL: --timeout in a coroutine returns to the prompt with the session" '[[ $OUT == *"alive	42"* ]] && [ "$(grep -c "timed out after 1 second" <<<"$ERR$OUT")" -ge 3 ] && [[ $ERR != *"did not stop"* ]]'
# Lua runs a message handler with hooks off once a hook raised: after the
# deadline xpcall skips the handler, so a looping one cannot hang the REPL.
run_apart_stdin $'x = 41\nxpcall(function() error("x") end, function() while true do end end)\nxpcall(function() while true do end end, function() while true do end end)\nprint(xpcall(error, function(m) return "handled " .. m end, "y"))\nprint("alive", x + 1)\n' "$TL" -i --timeout 1
holds "REPL: --timeout in an xpcall message handler returns to the prompt" '[[ $OUT == *"alive	42"* ]] && [[ $OUT == *"handled y"* ]] && [[ $ERR != *"did not stop"* ]]'
# Lua runs a finalizer with hooks off (Lua 5.4.4, lgc.c, GCTM: "stop debug
# hooks during GC metamethod"), so the interrupt's hook cannot fire inside one;
# the interrupt stops a finalizer at its next allocation instead (interrupts.c,
# tl_interrupting_alloc): a looping finalizer that allocates, collected during
# a chunk, between inputs or at exit, stops within --timeout. (Each loop
# allocates once per 1000 turns: Lua collects nothing while a finalizer runs.)
gc_loop='function() local n = 0 while true do n = n + 1 if n % 1000 == 0 then local t = {} end end end'
run_apart_stdin $'x = 41\nsetmetatable({}, {__gc = '"$gc_loop"$'}) collectgarbage()\ndebug.setmetatable({}, {__gc = '"$gc_loop"$'}) collectgarbage()\nprint("alive", x + 1)\n' "$TL" -i --timeout 1
holds "REPL: --timeout in an allocating __gc finalizer returns to the prompt" '[ $RC -eq 0 ] && [[ $OUT == *"alive	42"* ]] && [ "$(grep -c "timed out after 1 second" <<<"$ERR$OUT")" -ge 2 ] && [[ $ERR != *"did not stop"* ]]'
# (The object stays reachable until the end: an unreachable one may be finalized
# by any collection step before, such as compiling the next line: below.)
run_apart_stdin $'x = 1\nkeep = setmetatable({}, {__gc = '"$gc_loop"$'})\nprint("still", x)\n' "$TL" -i --timeout 1
holds "REPL: an allocating looping finalizer at exit stops within --timeout (exit 1)" '[ $RC -eq 1 ] && [[ $OUT == *"still	1"* ]] && [[ $ERR == *"timed out after 1 second while closing the state"* ]] && [[ $ERR != *"did not stop"* ]]'
# What the REPL runs between inputs is under --timeout too: the prompt's
# __tostring (lua.c's get_prompt calls it) and a finalizer that a collection
# step runs while the next line compiles (lua.c's loadline; lua.c itself has no
# --timeout and would hang there).
run_apart_stdin $'_PROMPT = setmetatable({}, {__tostring = function() while true do end end})\nprint("after", 1)\n' "$TL" -i --timeout 1
holds "REPL: a looping _PROMPT __tostring stops within --timeout, the default prompt is used" '[ $RC -eq 0 ] && [[ $OUT == *"after	1"* ]] && [[ "$ERR$OUT" == *"timed out after 1 second"* ]] && [[ $ERR != *"did not stop"* ]]'
run_apart_stdin $'x = 7\nsetmetatable({}, {__gc = '"$gc_loop"$'})\nfor i = 1, 200 do load("return " .. string.rep("{", 50) .. string.rep("}", 50)) end\nprint("still", x)\n' "$TL" -i --timeout 1
holds "REPL: an allocating looping finalizer run between inputs stops within --timeout" '[ $RC -le 1 ] && [[ $OUT == *"still	7"* ]] && [[ "$ERR$OUT" == *"timed out after 1 second"* ]] && [[ $ERR != *"did not stop"* ]]'
run_apart "$TL" --timeout 1 -e 'setmetatable({}, {__gc = '"$gc_loop"'}) print("end")'
holds "an allocating looping finalizer at the end of a script stops within --timeout" '[ $RC -eq 1 ] && [ "$OUT" = end ] && [[ $ERR == *"while closing the state"* ]] && [[ $ERR != *"did not stop"* ]] && (( $(echo "$SECS < 3" | bc) ))'
# With warnings on, the finalizer it ended says why, as an error in it would
# ("error in __gc (...)"), and the script goes on to meet the timeout itself.
run_apart "$TL" -W --timeout 1 -e 'setmetatable({}, {__gc = '"$gc_loop"'}) collectgarbage() print("after gc")'
holds "-W: a finalizer --timeout ended is reported as \"error in __gc (timed out ...)\"" '[ $RC -eq 1 ] && [[ $ERR == *"Lua warning: error in __gc (timed out after 1 second)"* ]] && [[ $ERR == *"(command line):1: timed out after 1 second"* ]] && [[ $ERR != *"not enough memory"* ]] && [[ $OUT != *"after gc"* ]]'
# Ctrl-C reaches an allocating finalizer the same way ("interrupted!").
cat > gcint.lua <<LUA
io.write("ready\n"); io.flush()
setmetatable({}, {__gc = $gc_loop}) collectgarbage()
print("after gc")
LUA
# (The signal goes to traitlab itself: through `timeout`, which forwards it
# and may then end by it, the status was sometimes 130.)
"$TL" -W gcint.lua > gcint.out 2>&1 &
pid=$!
( sleep 20; kill -KILL "$pid" 2>/dev/null ) & guard=$!
for _ in $(seq 50); do grep -q ready gcint.out 2>/dev/null && break; sleep 0.1; done
sleep 0.3; kill -INT "$pid"; wait "$pid"; RC=$?; OUT=$(cat gcint.out)
kill "$guard" 2>/dev/null; wait "$guard" 2>/dev/null
holds "Ctrl-C stops an allocating looping finalizer (\"error in __gc (interrupted!)\")" '[ $RC -eq 1 ] && [[ $OUT == *"error in __gc (interrupted!)"* ]] && [[ $OUT == *"gcint.lua:2: interrupted!"* ]] && [[ $OUT != *"after gc"* ]]'
# A finalizer that loops without allocating makes no call Lua lets anyone see
# (no hook, no allocation): the watchdog ends the process after its grace
# period (1 second for scripts and the REPL), exit 1 with a message, never a hang.
run_apart "$TL" --timeout 1 -e 'setmetatable({}, {__gc = function() while true do end end}) collectgarbage() print("after gc")'
holds "a non-allocating looping finalizer: the process ends after the grace period (exit 1, message)" '[ $RC -eq 1 ] && [[ $ERR == *"timed out after 1 second, and the code did not stop"* ]] && [[ $OUT != *"after gc"* ]] && (( $(echo "$SECS < 3.5" | bc) ))'
run_apart "$TL" --timeout 1 -e 'setmetatable({}, {__gc = function() while true do end end}) print("end")'
holds "... also at exit" '[ $RC -eq 1 ] && [ "$OUT" = end ] && [[ $ERR == *"timed out after 1 second, and the code did not stop"* ]] && (( $(echo "$SECS < 3.5" | bc) ))'
run_apart_stdin $'setmetatable({}, {__gc = function() while true do end end}) collectgarbage()\nprint("alive")\n' "$TL" -i --timeout 1
holds "... also in the REPL" '[ $RC -eq 1 ] && [[ $OUT != *alive* ]] && [[ $ERR == *"timed out after 1 second, and the code did not stop"* ]]'
# Finalizers run as lua5.4 runs them (none is replaced to make it
# interruptible): the metatable keeps the script's function (lbaselib.c,
# luaB_setmetatable; ldblib.c, db_setmetatable), debug.getinfo names a running
# finalizer "__gc", a "metamethod" (ldebug.c, funcnamefromcall: CIST_FIN, which
# lgc.c's GCTM sets), and it runs on the thread that collected (GCTM calls it
# on L): the main thread, or the coroutine that collected. Compared with
# lua5.4's output, with and without --timeout.
gc_same='local function fin(o)
  local info = debug.getinfo(1, "n")
  local co, ismain = coroutine.running()
  print(o.name, info.namewhat, info.name, ismain, co == MAIN, co == CO)
end
MAIN = coroutine.running()
local mt = {__gc = fin}
local a = setmetatable({name = "setmetatable"}, mt)
print("same function", getmetatable(a).__gc == fin, rawget(mt, "__gc") == fin)
local mt2 = {__gc = fin}
local b = debug.setmetatable({name = "debug.setmetatable"}, mt2)
print("same function", getmetatable(b).__gc == fin, rawget(mt2, "__gc") == fin)
a, b = nil, nil
collectgarbage()
CO = coroutine.create(function() setmetatable({name = "in a coroutine"}, mt) collectgarbage() end)
assert(coroutine.resume(CO))'
run_apart lua5.4 -e "$gc_same"; want_out=$OUT
holds "lua5.4 itself: same function, \"__gc\"/\"metamethod\", the collecting thread (the probe runs)" '[ $RC -eq 0 ] && [[ $OUT == *"setmetatable	metamethod	__gc	true	true	false"* ]] && [[ $OUT == *"in a coroutine	metamethod	__gc	false	false	true"* ]]'
run_apart "$TL" -e "$gc_same"
holds "finalizers: the same function in the metatable, debug.getinfo and thread as lua5.4" '[ $RC -eq 0 ] && [ "$OUT" = "$want_out" ] && [ -z "$ERR" ]'
run_apart "$TL" --timeout 60 -e "$gc_same"
holds "... also under --timeout" '[ $RC -eq 0 ] && [ "$OUT" = "$want_out" ] && [ -z "$ERR" ]'
# Finalizers keep lua5.4's behaviour otherwise (errors and yields become
# warnings with its messages; protected metatables; the object passed).
gc_probe='warn("@on")
local mt = {__gc = function(o) print("finalized", o.name) end}
setmetatable({name = "a"}, mt) collectgarbage()
setmetatable({}, {__gc = function() error("boom") end}) collectgarbage()
setmetatable({}, {__gc = function() coroutine.yield() end}) collectgarbage()
coroutine.wrap(function() setmetatable({}, {__gc = function() coroutine.yield() end}) collectgarbage() end)()
print(pcall(setmetatable, setmetatable({}, {__metatable = "locked"}), {}))
print(pcall(setmetatable, 1, {}))
print(pcall(setmetatable, {}, 2))
setmetatable({}, {__gc = function() print("at close") end})'
run_apart lua5.4 -e "$gc_probe"; want_out=$OUT; want_err=$ERR
run_apart "$TL" -e "$gc_probe"
holds "finalizers: output and warnings as lua5.4's" '[ $RC -eq 0 ] && [ "$OUT" = "$want_out" ] && [ "$ERR" = "${want_err//(command line)/(command line)}" ]'
run_apart "$TL" --timeout 0.5 -e 'local t = os.clock(); while os.clock() - t < 5 do end'
holds "--timeout accepts fractions" '[ $RC -eq 1 ] && [[ $ERR == *"timed out after 0.5 seconds"* ]] && (( $(echo "$SECS < 2" | bc) ))'
run_apart "$TL" --timeout 5 -e 'print("quick")'
holds "--timeout does not disturb a quick script" '[ $RC -eq 0 ] && [ "$OUT" = quick ] && (( $(echo "$SECS < 2" | bc) ))'

# ---------------------------------------------------------------- --memory-limit
run_apart "$TL" --memory-limit 16M -e 'local t = {} for i = 1, 1e9 do t[i] = { i } end'
holds "--memory-limit: not enough memory, exit 1" '[ $RC -eq 1 ] && [[ $ERR == *"not enough memory"* ]]'
run_apart "$TL" --memory-limit 16M -e 'local s = "x" while true do s = s .. s end'
holds "--memory-limit on a growing string" '[ $RC -eq 1 ] && [[ $ERR == *"not enough memory"* ]]'
run_apart "$TL" --memory-limit 16M -e 'print(pcall(function() local t = {} for i = 1, 1e9 do t[i] = { i } end end))' -e 'collectgarbage() print("alive")'
holds "--memory-limit: a caught memory error leaves the state usable" '[ $RC -eq 0 ] && [[ $OUT == *"not enough memory"* ]] && [[ $OUT == *alive* ]]'
run_apart "$TL" --memory-limit 64M -e 'local t = {} for i = 1, 1000 do t[i] = { i } end print("fits")'
holds "--memory-limit does not disturb a small script" '[ $RC -eq 0 ] && [ "$OUT" = fits ]'

# ---------------------------------------------------------------- --sandbox
run_apart "$TL" --sandbox -e 'print(io == nil, os.execute == nil, os.remove == nil, dofile == nil, loadfile == nil, package.loadlib == nil)'
holds "--sandbox hides io, os.execute, dofile, loadfile, loadlib" '[ $RC -eq 0 ] && [ "$OUT" = "true	true	true	true	true	true" ]'
run_apart "$TL" --sandbox -e 'print(type(os.time()), type(os.clock()), type(os.date()), ui ~= nil, traits ~= nil)'
holds "--sandbox keeps os.time/clock/date and the engine" '[ $RC -eq 0 ] && [ "$OUT" = "number	number	string	true	true" ]'
run_apart "$TL" --sandbox -e 'print(load(string.dump and string.dump(print) or "\27Lua"))'
holds "--sandbox refuses binary chunks" '[ $RC -eq 0 ] && [[ $OUT == nil* ]]'
printf '\033LuaT' > binary.luac
run_apart "$TL" --sandbox binary.luac
holds "--sandbox refuses a binary script" '[ $RC -eq 1 ] && [[ $ERR == *"binary"* ]]'

# ---------------------------------------------------------------- ui.Observable on first use
# (observable.lua loads at the first call of ui.Observable, with what it keeps
# in locals taken at start: a script that replaced those globals first cannot
# hand it its own.)
run_apart "$TL" -e 'local n = 0; next = function() n = n + 1 end; setmetatable = function() error("forged") end; string.format = nil; rawset = nil; local o = ui.Observable { a = 1 }; o.b = 2; print(tostring(o), n)'
holds "ui.Observable loaded on first use keeps the functions of the start" '[ $RC -eq 0 ] && [ "$OUT" = "Observable { a = 1, b = 2 }	0" ]'
run_apart "$TL" -e 'local x = 1' -e 'ui.Observable(5)'
holds "ui.Observable's errors name the caller's line" '[ $RC -eq 1 ] && [[ $ERR == *"(command line):1: ui.Observable expects a table of initial values, got number"* ]]'
run_apart "$TL" --sandbox -e 'ui.Observable(5)'
holds "--sandbox: ui.Observable is the module's new, as before" '[ $RC -eq 1 ] && [[ $ERR == *"traitlab.observable:"*"in field '"'"'Observable'"'"'"* ]]'

# ---------------------------------------------------------------- ui's classes on first use
# (ui.View and the other environment classes are made at the first read of
# one through ui, pairs(ui), or the first object pushed to Lua; what a script
# sees through ui is the same as when they were made at start.)
run_apart "$TL" -e 'print(rawget(ui, "View") == nil, ui.View ~= nil, rawget(ui, "View") == ui.View, ui.Label.name == nil, tostring(ui.Window))'
holds "ui.View is made at its first read" '[ $RC -eq 0 ] && [ "$OUT" = "true	true	true	true	class Window" ]'
run_apart "$TL" -e 'local n = 0; for k, v in pairs(ui) do if k == "ViewController" or k == "Screen" then n = n + 1 end end; print(n)'
holds "pairs(ui) lists the classes before any was read" '[ $RC -eq 0 ] && [ "$OUT" = "2" ]'
run_apart "$TL" -e 'local s = ui.find("nothing"); print(s, ui.stats().environments, rawget(ui, "Screen") == nil)' -e 'local v = ui.Screen.main; print(v.name, rawget(ui, "Screen") ~= nil)'
holds "ui.stats counts the main screen before any class is made" '[ $RC -eq 0 ] && [ "$OUT" = "nil	1	true
main	true" ]'
run_apart "$TL" -e 'rawset(ui, "Label", "mine"); ui.Window = 5; local v = ui.View {}; print(ui.Label, ui.Window, tostring(ui.View))'
holds "a name a script set before the classes were made keeps its value" '[ $RC -eq 0 ] && [ "$OUT" = "mine	5	class View" ]'
run_apart "$TL" -e 'local mt = debug.getmetatable(ui); print(pcall(mt.__index, 5, "View")); print((pcall(mt.__newindex, 5, "View", 1))); print(select("#", mt.__pairs(true)), tostring(ui.View))'
holds "ui's metamethods called with a forged self are errors or nothing, never a crash" '[ $RC -eq 0 ] && [ "$OUT" = "true	nil
false
3	class View" ]'

# ---------------------------------------------------------------- lua.c parity
# Ctrl-C in a script is lua.c's laction: one "interrupted!" error, which pcall catches.
cat > ctrlc.lua <<'LUA'
io.write("ready\n"); io.flush()
local ok, e = pcall(function() while true do end end)
print("caught", ok, e)
LUA
"$TL" ctrlc.lua > ctrlc.out 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q ready ctrlc.out 2>/dev/null && break; sleep 0.1; done
kill -INT "$pid"; wait "$pid"; RC=$?; OUT=$(cat ctrlc.out)
holds "Ctrl-C in a script raises an error pcall can catch (lua.c laction)" '[ $RC -eq 0 ] && [[ $OUT == *"caught	false	"*"interrupted!"* ]]'
run_apart "$TL" --timeout 0.3 -e 'local ok = pcall(function() while true do end end) print("swallowed")'
holds "--timeout stays uncatchable" '[ $RC -eq 1 ] && [[ $OUT != *swallowed* ]] && [[ $ERR == *"timed out"* ]]'
# Debug hooks set by -l, -e or LUA_INIT survive into the script (luacov's -lluacov).
mkdir -p hooks && cat > hooks/linehook.lua <<'LUA'
lines = {}
debug.sethook(function(_, line) lines[#lines + 1] = debug.getinfo(2, "S").short_src .. ":" .. line end, "l")
return {}
LUA
printf 'local x = 1\nx = x + 1\nprint(#lines > 0, lines[#lines])\n' > hooked.lua
run_apart env LUA_PATH="hooks/?.lua;;" "$TL" -llinehook hooked.lua
holds "a hook set by -l runs in the script" '[ $RC -eq 0 ] && [ "$OUT" = "true	hooked.lua:3" ]'
run_apart env LUA_PATH="hooks/?.lua;;" "$TL" -e 'require "linehook"' -e 'x = 1' hooked.lua
holds "a hook set by -e survives another -e and the script" '[ $RC -eq 0 ] && [ "$OUT" = "true	hooked.lua:3" ]'
run_apart env LUA_INIT='lines = {} debug.sethook(function(_, l) lines[#lines + 1] = "init:" .. l end, "l")' "$TL" hooked.lua
holds "a hook set by LUA_INIT runs in the script" '[ $RC -eq 0 ] && [ "$OUT" = "true	init:3" ]'

# ---------------------------------------------------------------- module-path
run_apart "$TL" module-path
dir=$OUT
holds "module-path prints a folder holding traitlab.so" '[ $RC -eq 0 ] && [[ $dir == /* ]] && [ -e "$dir/traitlab.so" ]'
run_apart "$TL" module-path
holds "module-path is idempotent" '[ $RC -eq 0 ] && [ "$OUT" = "$dir" ]'
if [ -e "$dir/traitlab.so" ] && nm -D "$dir/traitlab.so" 2>/dev/null | grep -q ' T luaopen_traitlab'; then
  run_apart env LUA_CPATH="$dir/?.so;;" lua5.4 -e 'local t = require "traitlab"; assert(t.traits and t.ui); print("loaded")'
  holds "lua5.4 loads traitlab.so from module-path" '[ $RC -eq 0 ] && [ "$OUT" = loaded ]'
else
  echo "SKIP lua5.4 require \"traitlab\": luaopen_traitlab is not exported by $dir/traitlab.so yet"
fi

echo
# The script runner takes one value of each device option (a list makes a
# matrix, which traitlab test runs): its help shows one; traitlab test's shows lists.
run "$TL" --help
expect "traitlab --help shows one value for --device, --ios, --screen" 0 '^  --device NAME  ' '^  --ios V  ' '^  --screen TRAIT=V  '
run "$TL" test --help
expect "traitlab test --help shows their lists" 0 '--device NAME\[,NAME\.\.\.\]' '--ios V\[,V\.\.\.\]'

finish

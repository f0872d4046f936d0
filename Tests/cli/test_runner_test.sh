#!/usr/bin/env bash
# End-to-end checks of `traitlab test`: discovery, formats, filters, isolation,
# timeouts, parallel workers and exit codes. Usage: test_runner_test.sh path/to/traitlab
set -u
bin=${1:?usage: test_runner_test.sh path/to/traitlab}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass+1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/    /'; fail=$((fail+1)); }
expect() {  # expect NAME STATUS REGEX... ; uses $out and $status
  local name=$1 want=$2; shift 2
  [ "$status" -eq "$want" ] || { bad "$name (exit $status, wanted $want)" "$out"; return; }
  for re in "$@"; do grep -Eq -- "$re" <<<"$out" || { bad "$name: no /$re/" "$out"; return; }; done
  ok "$name"
}
run() { out=$("$bin" test "$@" 2>&1); status=$?; }

mkdir -p "$work/specs/nested"
cat > "$work/specs/a_spec.lua" <<'LUA'
describe("alpha", function()
  it("passes", function() assert.are.equal(2, 1 + 1) end)
  it("fails", function() assert.are.same({ 1 }, { 2 }) end)
  pending("later")
end)
LUA
cat > "$work/specs/nested/b_spec.lua" <<'LUA'
-- Defines a global and a trait: the next file must not see either.
leaked = true
traits.define { name = "Leaky", default = 1 }
describe("beta", function()
  it("sees the engine", function() assert.are.equal("main", ui.Screen.main.name) end)
end)
LUA
cat > "$work/specs/nested/c_spec.lua" <<'LUA'
describe("gamma", function()
  it("is isolated from other files", function()
    assert.is_nil(leaked)
    traits.define { name = "Leaky", default = 2 }
  end)
end)
LUA
echo 'not a spec' > "$work/specs/helper.lua"

run "$work/specs" --format text
expect "text summary and exit 1 on failure" 1 '^3 passed, 1 failed, 1 skipped$' 'alpha fails'
last=$(tail -n 1 <<<"$out")
[ "$last" = "3 passed, 1 failed, 1 skipped" ] && ok "summary is the last line" || bad "summary is the last line" "$last"

run "$work/specs" --filter beta
expect "--filter" 0 '^1 passed, 0 failed$'
run "$work/specs" --exclude fails --exclude later
expect "--exclude" 0 '^3 passed, 0 failed$'
run "$work/specs" --list
expect "--list names every test" 0 'alpha passes' 'gamma is isolated from other files'
run "$work/specs" --fail-fast
expect "--fail-fast" 1 'failed'
run "$work/specs" --format tap
expect "tap" 1 '^1\.\.[0-9]+' '^not ok [0-9]+ - alpha fails' '^ok [0-9]+ - beta sees the engine' '3 passed, 1 failed'
run "$work/specs" --format junit -o "$work/report.xml"
expect "junit" 1 '<testsuites' '<failure'
python3 -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); assert d.getElementsByTagName('testcase').length == 5" "$work/report.xml" \
  && ok "junit document is well-formed XML with every test" || bad "junit document" "$(cat "$work/report.xml")"
run "$work/specs" --format json -o "$work/report.json"
expect "json" 1 '"status":"failed"'
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); assert d['passed'] == 3 and d['failed'] == 1" "$work/report.json" \
  && ok "json document parses with the counts" || bad "json document" "$(cat "$work/report.json")"
run "$work/specs" -j 2
expect "-j 2 workers merge results" 1 '^3 passed, 1 failed, 1 skipped$'
run "$work/specs" --shuffle --seed 7
expect "--shuffle --seed" 1 '3 passed, 1 failed'

cat > "$work/hang_spec.lua" <<'LUA'
describe("timeouts", function()
  it("hangs", function() while true do end end)
  it("hides in pcall", function() while true do pcall(function() while true do end end) end end)
  it("runs after", function() assert.is_true(true) end)
end)
LUA
start=$(date +%s)
run "$work/hang_spec.lua" --timeout 0.5
elapsed=$(( $(date +%s) - start ))
expect "--timeout stops hung tests and goes on" 1 'timed out after 0.5 seconds' '^1 passed, 2 failed$'
[ "$elapsed" -le 10 ] && ok "timeouts are prompt (${elapsed}s)" || bad "timeouts took ${elapsed}s"

printf 'describe("x", function() it("y", function() end)\n' > "$work/broken_spec.lua"
run "$work/broken_spec.lua"
expect "a spec that does not load is an error, not a crash" 1 'broken_spec.lua' '0 passed, 1 failed'

run "$work/nope"
expect "missing path is a usage error" 2 'no such file'
run --format xml "$work/specs"
expect "unknown format is a usage error" 2 'unknown format'
run --bogus
expect "unknown option is a usage error" 2 'unknown option'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

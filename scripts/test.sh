#!/usr/bin/env bash
# One command for every test: set up, build, then run each suite and add up
# what they report. The last line is "N passed, N failed"; the exit status is 0
# only when every suite passed.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh || exit 1
# setup.sh runs with -e; a failing suite must not end this script.
set +e
run_start=$(date +%s.%N)

swift build 2>&1 | tail -n 20
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
bin="$(swift build --show-bin-path)"
export TRAITLAB="$bin/traitlab"

total_pass=0
total_fail=0
failed_suites=()
timings=()

# Seconds since $1 (a `date +%s.%N`), to a tenth.
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# Runs one suite, echoing its output, and adds the counts from its
# "N passed, N failed" line (or from XCTest's summary) to the totals.
suite() {
  local name=$1; shift
  echo
  echo "=== $name"
  local log start
  log=$(mktemp)
  start=$(date +%s.%N)
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local secs
  secs=$(elapsed "$start")
  echo "--- $name: ${secs} s"
  timings+=("$(printf '%8s s  %s' "$secs" "$name")")
  local pass fail
  read -r pass fail < <(python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
m = re.findall(r"^(?:\w+: )?(\d+) passed, (\d+) failed", text, re.M)
if m:
    print(m[-1][0], m[-1][1])
else:
    x = re.findall(r"Executed (\d+) tests?, with (\d+) failures?", text)
    t = re.findall(r"Test run with (\d+) tests? in \d+ suites? passed", text)
    p = sum(int(a) - int(b) for a, b in x[-1:]) + sum(int(a) for a in t[-1:])
    f = sum(int(b) for a, b in x[-1:])
    print(p, f)
PY
)
  rm -f "$log"
  if [ "$status" -ne 0 ] && [ "${fail:-0}" -eq 0 ]; then fail=1; fi
  total_pass=$((total_pass + ${pass:-0}))
  total_fail=$((total_fail + ${fail:-0}))
  [ "$status" -eq 0 ] || failed_suites+=("$name")
}

suite "Swift unit tests" swift test
suite "Swift tests (AddressSanitizer)" bash scripts/test-asan.sh
suite "Lua scenarios" "$TRAITLAB" test Tests/scenarios
for t in Tests/cli/*_test.sh; do
  [ -f "$t" ] && suite "$(basename "$t" .sh)" bash "$t" "$TRAITLAB"
done
suite "examples" bash Tests/examples_test.sh "$TRAITLAB"
suite "luacheck" bash Tests/lint_test.sh
suite "DocC (TraitEngine)" bash Tests/docc_test.sh
suite "benchmark (quick)" "$bin/traitlab-bench" --quick --no-targets

echo
echo "Wall time per suite:"
printf '%s\n' "${timings[@]}"
printf '%8s s  %s\n' "$(elapsed "$run_start")" "in all (with the build)"
if [ ${#failed_suites[@]} -gt 0 ]; then echo "failed suites: ${failed_suites[*]}"; fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ ${#failed_suites[@]} -eq 0 ]

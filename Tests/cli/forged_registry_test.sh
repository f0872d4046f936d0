#!/usr/bin/env bash
# Outside the sandbox a script reaches the registry (debug.getregistry()) and
# can replace any of the host's tables there. Forging must cost the host its
# state in that slot, never its memory safety: for every registry slot and
# several kinds of value, a workload that uses trees, handlers, target-action,
# layout, collections, colors, SwiftUI and dumps ends with status 0 or 1.
# Usage: Tests/cli/forged_registry_test.sh path/to/traitlab
set -u
TL=${1:?usage: forged_registry_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
work=$(cd "$(dirname "$0")/../redteam/forged" && pwd)/registry_workload.lua
max=$("$TL" -e 'local n = 0 for k in pairs(debug.getregistry()) do if math.type(k) == "integer" and k > n then n = k end end print(n)')
[ -n "$max" ] && [ "$max" -gt 10 ] || { echo "FAIL cannot count the registry's slots ($max)"; echo "0 passed, 1 failed"; exit 1; }
pass=0; fail=0
for kind in zero str tbl fn ud; do
  bad=""
  for slot in $(seq 1 $((max + 8))); do
    out=$(timeout 30 "$TL" "$work" "$slot" "$kind" 2>&1); rc=$?
    [ $rc -le 1 ] || bad+=" $slot(exit $rc)"
  done
  if [ -z "$bad" ]; then echo "ok   every registry slot (1..$((max + 8))) forged as $kind"; pass=$((pass + 1))
  else echo "FAIL registry slots forged as $kind:$bad"; fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

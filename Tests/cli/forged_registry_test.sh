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
source "$(dirname "$0")/lib/expect.sh"
work=$(cd "$(dirname "$0")/../redteam/forged" && pwd)/registry_workload.lua
run "$TL" -e 'local n = 0 for k in pairs(debug.getregistry()) do if math.type(k) == "integer" and k > n then n = k end end print(n)'
max=$out
[ -n "$max" ] && [ "$max" -gt 10 ] 2>/dev/null || { bad "cannot count the registry's slots"; finish; exit 1; }
for kind in zero str tbl fn ud; do
  crashed=""
  for slot in $(seq 1 $((max + 8))); do
    run timeout 30 "$TL" "$work" "$slot" "$kind"
    [ "$status" -le 1 ] || crashed+=" $slot(exit $status)"
  done
  if [ -z "$crashed" ]; then ok "every registry slot (1..$((max + 8))) forged as $kind"
  else out=""; bad "registry slots forged as $kind:$crashed"; fi
done
finish

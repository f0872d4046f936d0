#!/usr/bin/env bash
# Golden text: the examples that print trait trees (ui.dump) must print
# exactly what Tests/golden/NAME.txt holds, at 100 columns.
#
# usage: Tests/cli/golden_test.sh path/to/traitlab [--update]
# With --update, rewrites the golden files from the current output (check the
# diff before committing). The last line is "N passed, N failed".
set -u
TL=${1:?usage: golden_test.sh path/to/traitlab [--update]}
update=${2:-}
cd "$(dirname "$0")/../.."
examples=(tour 04_overrides 05_hierarchy_modes)
passed=0; failed=0
for name in "${examples[@]}"; do
  golden="Tests/golden/$name.txt"
  out=$(env -u NO_COLOR COLUMNS=100 "$TL" "examples/$name.lua" 2>&1; echo "exit status $?")
  if [ "$update" = "--update" ]; then
    printf '%s\n' "$out" > "$golden"
    echo "updated $golden"
    continue
  fi
  if diff -u "$golden" <(printf '%s\n' "$out") > /tmp/golden_diff.$$; then
    echo "ok   $name matches $golden"; passed=$((passed + 1))
  else
    echo "FAIL $name differs from $golden (update with: bash $0 $TL --update):"
    sed 's/^/    /' /tmp/golden_diff.$$ | head -60
    failed=$((failed + 1))
  fi
  rm -f /tmp/golden_diff.$$
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

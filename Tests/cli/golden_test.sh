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
source Tests/cli/lib/expect.sh
for name in "${examples[@]}"; do
  golden="Tests/golden/$name.txt"
  printed=$(env -u NO_COLOR COLUMNS=100 "$TL" "examples/$name.lua" 2>&1; echo "exit status $?")
  if [ "$update" = "--update" ]; then
    printf '%s\n' "$printed" > "$golden"
    echo "updated $golden"
    continue
  fi
  if out=$(diff -u "$golden" <(printf '%s\n' "$printed")); then ok "$name matches $golden"
  else bad "$name differs from $golden (update with: bash $0 $TL --update)"; fi
done
finish

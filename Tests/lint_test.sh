#!/usr/bin/env bash
# luacheck (Debian's lua-check) over the Lua written in this repository:
# examples, plugins, scenario specs and the busted feature specs (with their
# helper, handler, modules and configuration files), with the globals
# .luacheckrc declares. Every warning counts: an undefined global, an unknown
# member of traits, ui, swiftui or plugins, a write to one of them, and also
# unused variables and values, shadowing and the rest of luacheck's checks.
# (A warning a file means, such as a value assigned to drop a reference, is
# silenced on its line with `-- luacheck: ignore NNN` and a reason.)
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0

if ! command -v luacheck >/dev/null; then
  echo "FAIL luacheck is missing (Debian package lua-check; scripts/setup.sh installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi

files=(examples/*.lua examples/plugins/*.lua Tests/scenarios/*.lua)
while IFS= read -r f; do files+=("$f"); done < <(find Tests/busted_features -name '*.lua' | sort)
files+=(Tests/busted_features/.busted)
for f in "${files[@]}"; do
  if out=$(luacheck "$f" --no-color 2>&1); then
    echo "ok   $f"; pass=$((pass+1))
  else
    echo "FAIL $f"; echo "$out" | grep -E '^ +[^ ]+:[0-9]+:'; fail=$((fail+1))
  fi
done

# The configuration catches what it is there for, and lets through the
# members scripts assign (the trait flow, a rotation of the main screen).
out=$(printf 'ui.updat()\ntraits.x = 1\nui.hierarchyMode = "legacy"\nui.Screen.main.orientation = "landscapeLeft"\n' | luacheck - --no-color --only 1 2>&1)
if grep -q "undefined field 'updat'" <<<"$out" && grep -q "undefined field 'x'" <<<"$out" && ! grep -q 'hierarchyMode\|orientation' <<<"$out"; then
  echo "ok   .luacheckrc flags unknown members of TraitLab's globals"; pass=$((pass+1))
else
  echo "FAIL .luacheckrc does not flag unknown members of TraitLab's globals as expected"; echo "$out"; fail=$((fail+1))
fi

# Unused variables fail the check too (not only globals).
out=$(printf 'local unused = 1\n' | luacheck - --no-color 2>&1)
if grep -q "unused variable 'unused'" <<<"$out"; then
  echo "ok   luacheck reports unused variables with this configuration"; pass=$((pass+1))
else
  echo "FAIL luacheck does not report an unused variable"; echo "$out"; fail=$((fail+1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# luacheck (Debian's lua-check) over the Lua people write against TraitLab:
# examples, plugins and scenario specs, with the globals .luacheckrc declares.
# Only global warnings count here (an undefined global, an unknown member of
# traits, ui, swiftui or plugins, a write to one of them): that is what the
# editor definitions promise. Style is luacheck's to show, not this test's to fail.
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0

if ! command -v luacheck >/dev/null; then
  echo "FAIL luacheck is missing (Debian package lua-check; scripts/setup.sh installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi

for f in examples/*.lua examples/plugins/*.lua Tests/scenarios/*.lua; do
  if out=$(luacheck "$f" --no-color --only 1 2>&1); then
    echo "ok   $f"; pass=$((pass+1))
  else
    echo "FAIL $f"; echo "$out" | grep -E '^ +[^ ]+:[0-9]+:'; fail=$((fail+1))
  fi
done

# The configuration catches what it is there for, and lets through the one
# member scripts assign.
out=$(printf 'ui.updat()\ntraits.x = 1\nui.hierarchyMode = "legacy"\n' | luacheck - --no-color --only 1 2>&1)
if grep -q "undefined field 'updat'" <<<"$out" && grep -q "undefined field 'x'" <<<"$out" && ! grep -q hierarchyMode <<<"$out"; then
  echo "ok   .luacheckrc flags unknown members of TraitLab's globals"; pass=$((pass+1))
else
  echo "FAIL .luacheckrc does not flag unknown members of TraitLab's globals as expected"; echo "$out"; fail=$((fail+1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# `traitlab swift export`: the Swift it prints for the examples' plugins and
# Tests/fixtures/swift/kinds.lua compiles against UIKit- and SwiftUI-shaped
# modules over TraitEngine (the Tests/SwiftExport package) and passes the
# checks in Tests/SwiftExport/Sources/ExportCheck/main.swift; and the command
# line: --only, --module-header, -o, what is not exportable, errors, sandbox.
#
# usage: Tests/cli/swift_export_test.sh path/to/traitlab
# Builds the fixture package (.build-swift-export). Last line: "N passed, N failed".
set -u

TL=${1:?usage: swift_export_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
[ -x "$TL" ] || { echo "not executable: $TL"; echo "0 passed, 1 failed"; exit 1; }
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
unset TRAITLAB_PLUGIN_PATH

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() {
  failed=$((failed + 1)); echo "FAIL $1"
  echo "     rc=$RC"; echo "     stdout: ${OUT:0:600}"; echo "     stderr: ${ERR:0:600}"
}
run() {
  OUT=$(timeout 60 "$@" 2>"$tmp/stderr" </dev/null)
  RC=$?
  ERR=$(cat "$tmp/stderr")
}
expect() { local name=$1; shift; if eval "$*"; then pass "$name"; else fail "$name"; fi; }

plugins=(examples/plugins/theme.lua examples/plugins/featureflags.lua Tests/fixtures/swift/kinds.lua Tests/fixtures/swift/hostile.lua)

# --- The exported Swift compiles and behaves (checked in Swift) -------------
exported=Tests/SwiftExport/Sources/ExportCheck/Exported.swift
run "$TL" swift export "${plugins[@]}" -o "$exported"
expect "export of the examples' plugins and kinds.lua succeeds" '[ $RC -eq 0 ] && [ -z "$OUT" ] && [ -s $exported ]'
expect "a table that is no struct is reported, naming the trait and why" \
  'grep -q "trait '"'"'Matrix'"'"' is not exportable: its default table has a non-string key" <<<"$ERR"'
expect "a bridge that is no plain mapping is reported with what it does" \
  'grep -q "the bridge of environment key '"'"'doubled'"'"' is not exportable: its write of 1 stores 0 in '"'"'badgeCount'"'"'" <<<"$ERR"'
expect "the module header imports UIKit and SwiftUI" 'head -3 $exported | grep -q "^import UIKit" && head -3 $exported | grep -q "^import SwiftUI"'

if swift build --package-path Tests/SwiftExport --scratch-path .build-swift-export >"$tmp/build.log" 2>&1; then
  pass "the exported source compiles unchanged (import UIKit, import SwiftUI)"
  check_out=$(.build-swift-export/debug/ExportCheck 2>&1)
  check_rc=$?
  echo "$check_out" | sed 's/^/     /'
  read -r cp cf < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' <<<"$check_out" | tail -1)
  passed=$((passed + ${cp:-0}))
  failed=$((failed + ${cf:-0}))
  if [ "$check_rc" -ne 0 ] && [ "${cf:-0}" -eq 0 ]; then RC=$check_rc; OUT=$check_out; ERR=""; fail "ExportCheck exited with $check_rc"; fi
else
  RC=1; OUT=""; ERR=$(grep -E "error" "$tmp/build.log" | head -20); fail "the exported source compiles unchanged"
  cat "$tmp/build.log" | tail -30
fi

# --- Options ------------------------------------------------------------------
run "$TL" swift export --only NewCheckoutEnabled "${plugins[@]:0:2}"
expect "--only exports just the named trait" \
  '[ $RC -eq 0 ] && grep -q "struct NewCheckoutEnabledTrait" <<<"$OUT" && ! grep -q ThemeTrait <<<"$OUT" && ! grep -q "enum MyAppTheme" <<<"$OUT"'
run "$TL" swift export --only density "${plugins[2]}"
expect "--only with a key brings the key's trait and enum, but not the rest" \
  '[ $RC -eq 0 ] && grep -q "struct DensityKey: EnvironmentKey" <<<"$OUT" && grep -q "struct DensityTrait" <<<"$OUT" && grep -q "enum Density:" <<<"$OUT" && ! grep -q BadgeCount <<<"$OUT"'
run "$TL" swift export --only MyAppTheme,NewCheckoutEnabledTrait "${plugins[@]:0:2}"
expect "--only takes comma-separated names, enum and Swift type names" \
  '[ $RC -eq 0 ] && grep -q "struct ThemeTrait" <<<"$OUT" && grep -q "struct NewCheckoutEnabledTrait" <<<"$OUT"'
run "$TL" swift export --only Nope "${plugins[0]}"
expect "--only with a name nothing defined is an error naming it" '[ $RC -eq 1 ] && grep -q "nothing named '"'"'Nope'"'"'" <<<"$ERR" && [ -z "$OUT" ]'
run "$TL" swift export --module-header off "${plugins[0]}"
expect "--module-header off leaves out the comment and the imports" \
  '[ $RC -eq 0 ] && ! grep -q "^import" <<<"$OUT" && head -1 <<<"$OUT" | grep -q "^enum MyAppTheme"'
run "$TL" swift export --module-header maybe "${plugins[0]}"
expect "a bad --module-header value is a usage error" '[ $RC -eq 2 ] && grep -q "on or off" <<<"$ERR"'
run "$TL" swift export
expect "no file is a usage error" '[ $RC -eq 2 ] && grep -q "usage: traitlab swift export" <<<"$ERR"'
run "$TL" swift frobnicate
expect "an unknown swift subcommand is a usage error" '[ $RC -eq 2 ] && grep -q "unknown subcommand" <<<"$ERR"'
run "$TL" swift export -o "$tmp/out.swift" "${plugins[0]}"
expect "-o writes the file and nothing to standard output" '[ $RC -eq 0 ] && [ -z "$OUT" ] && grep -q "struct ThemeTrait" "$tmp/out.swift"'
run "$TL" swift export -o "$tmp/no/such/dir/out.swift" "${plugins[0]}"
expect "-o into a missing folder is an error" '[ $RC -eq 1 ] && grep -q "cannot write" <<<"$ERR"'

run "$TL" swift export --plugin-path examples/plugins featureflags
expect "a plugin name is found on the plugin path, with its requirements" \
  '[ $RC -eq 0 ] && grep -q "struct NewCheckoutEnabledTrait" <<<"$OUT" && grep -q "struct ThemeTrait" <<<"$OUT"'
run "$TL" swift export nosuchplugin
expect "an unknown plugin name is an error naming it" '[ $RC -eq 1 ] && grep -q "plugin '"'"'nosuchplugin'"'"' not found" <<<"$ERR"'

# --- Scripts, errors and the sandbox ------------------------------------------
cat > "$tmp/script.lua" <<'LUA'
print("from the script")
local Size = traits.enum("Size", { "small", "large" })
traits.define { name = "Size", default = Size.small }
LUA
run "$TL" swift export "$tmp/script.lua"
expect "a plain script's definitions export; what it prints goes to standard error" \
  '[ $RC -eq 0 ] && grep -q "struct SizeTrait" <<<"$OUT" && ! grep -q "from the script" <<<"$OUT" && grep -q "from the script" <<<"$ERR"'
printf 'traits.define { name = "X", default = 1 }\nerror("boom")\n' > "$tmp/bad.lua"
run "$TL" swift export "$tmp/bad.lua"
expect "a failing script is an error with its position; no Swift is printed" '[ $RC -eq 1 ] && grep -q "bad.lua:2: boom" <<<"$ERR" && [ -z "$OUT" ]'
printf 'local f = io.open("/etc/passwd")\n' > "$tmp/io.lua"
run "$TL" swift export "$tmp/io.lua"
expect "scripts run sandboxed (no io)" '[ $RC -eq 1 ] && grep -q "global .io." <<<"$ERR"'
printf 'local x = 1\n' > "$tmp/empty.lua"
run "$TL" swift export "$tmp/empty.lua"
expect "a script that defines nothing exportable is an error saying so" '[ $RC -eq 1 ] && grep -q "nothing to export" <<<"$ERR"'
cat > "$tmp/hostile.lua" <<'LUA'
local K = swiftui.EnvironmentKey { name = "k", default = 0 }
traits.define { name = "T", default = 0, property = "t" }
swiftui.bridge(K, { read = function() error("no reading") end, write = function(m, v) m.t = v end })
LUA
run "$TL" swift export "$tmp/hostile.lua"
expect "a bridge that raises is reported and the key exported without it" \
  '[ $RC -eq 0 ] && grep -q "struct KKey: EnvironmentKey" <<<"$OUT" && ! grep -q UITraitBridgedEnvironmentKey <<<"$OUT" && grep -q "its read failed" <<<"$ERR"'

evil="$tmp/evil"$'\n'"import Evil.lua"
cp "$tmp/script.lua" "$evil"
run "$TL" swift export "$evil"
expect "a file name with a newline cannot put code in the header" '[ $RC -eq 0 ] && ! grep -q "^import Evil" <<<"$OUT" && grep -q "evil?import Evil.lua" <<<"$OUT"'
printf 'while true do end\n' > "$tmp/loop.lua"
run "$TL" swift export --timeout 1 "$tmp/loop.lua"
expect "--timeout stops a script that never ends" '[ $RC -eq 1 ] && grep -q "timed out after 1 second" <<<"$ERR"'
cat > "$tmp/bridge_loop.lua" <<'LUA'
local K = swiftui.EnvironmentKey { name = "k", default = 0 }
traits.define { name = "T", default = 0, property = "t" }
swiftui.bridge(K, { read = function() while true do end end, write = function(m, v) m.t = v end })
LUA
run "$TL" swift export --timeout 1 "$tmp/bridge_loop.lua"
expect "--timeout also covers the bridges export runs" '[ $RC -eq 1 ] && grep -q "timed out after 1 second while running the bridges" <<<"$ERR" && [ -z "$OUT" ]'
printf 'local t = {} for i = 1, 1e8 do t[i] = i end\n' > "$tmp/mem.lua"
run "$TL" swift export --memory-limit 1M "$tmp/mem.lua"
expect "--memory-limit caps a script" '[ $RC -eq 1 ] && grep -q "not enough memory" <<<"$ERR"'
# Four 1 MB names, each written six times over (type name, name, subscripts):
# without asking the cap as the source grows, 86 MB under a 16 MB cap. The
# memory cap's promise: peak RSS within 3 x the cap plus an empty export's.
printf 'local n = ("n"):rep(1e6)\nfor i = 1, 4 do traits.define { name = n .. i, default = 0, property = "p" .. i } end\n' > "$tmp/names.lua"
/usr/bin/time -f %M -o "$tmp/rss0" "$TL" swift export --memory-limit 16M "$tmp/script.lua" >/dev/null 2>&1
run /usr/bin/time -f %M -o "$tmp/rss" "$TL" swift export --memory-limit 16M "$tmp/names.lua"
expect "--memory-limit counts the source as it is written, within 3 x the cap plus an empty export" \
  '[ $RC -eq 1 ] && [ -z "$OUT" ] && grep -q "^traitlab: swift export: not enough memory (--memory-limit of 16M reached)" <<<"$ERR" && [ "$(tail -1 "$tmp/rss")" -le $((3 * 16 * 1024 + $(tail -1 "$tmp/rss0"))) ]'

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

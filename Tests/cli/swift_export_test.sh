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

source "$(dirname "$0")/lib/swift.sh"
swift_test_start swift_export_test.sh "${1-}"
# run_apart and holds: Tests/cli/lib/expect.sh (60 s at most a run).

plugins=(examples/plugins/theme.lua examples/plugins/featureflags.lua Tests/fixtures/swift/kinds.lua Tests/fixtures/swift/hostile.lua)

# --- The exported Swift compiles and behaves (checked in Swift) -------------
exported=Tests/SwiftExport/Sources/ExportCheck/Exported.swift
run_apart "$TL" swift export --case-iterable "${plugins[@]}" -o "$exported"
holds "export of the examples' plugins and kinds.lua succeeds" '[ $RC -eq 0 ] && [ -z "$OUT" ] && [ -s $exported ]'
holds "a table that is no struct is reported, naming the trait and why" \
  'grep -q "trait '"'"'Matrix'"'"' is not exportable: its default table has a non-string key" <<<"$ERR"'
holds "a bridge that is no plain mapping is reported with what it does" \
  'grep -q "the bridge of environment key '"'"'doubled'"'"' is not exportable: its write of 1 stores 0 in '"'"'badgeCount'"'"'" <<<"$ERR"'
holds "the module header imports UIKit and SwiftUI" 'head -3 $exported | grep -q "^import UIKit" && head -3 $exported | grep -q "^import SwiftUI"'

if swift build --package-path Tests/SwiftExport --scratch-path .build-swift-export >"$tmp/build.log" 2>&1; then
  ok "the exported source compiles unchanged (import UIKit, import SwiftUI)"
  check_out=$(.build-swift-export/debug/ExportCheck 2>&1)
  check_rc=$?
  echo "$check_out" | sed 's/^/     /'
  read -r cp cf < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' <<<"$check_out" | tail -1)
  passed=$((passed + ${cp:-0}))
  failed=$((failed + ${cf:-0}))
  if [ "$check_rc" -ne 0 ] && [ "${cf:-0}" -eq 0 ]; then RC=$check_rc; OUT=$check_out; ERR=""; bad_apart "ExportCheck exited with $check_rc"; fi
else
  RC=1; OUT=""; ERR=$(grep -E "error" "$tmp/build.log" | head -20); bad_apart "the exported source compiles unchanged"
  cat "$tmp/build.log" | tail -30
fi

# --- Options ------------------------------------------------------------------
run_apart "$TL" swift export --only NewCheckoutEnabled "${plugins[@]:0:2}"
holds "--only exports just the named trait" \
  '[ $RC -eq 0 ] && grep -q "struct NewCheckoutEnabledTrait" <<<"$OUT" && ! grep -q ThemeTrait <<<"$OUT" && ! grep -q "enum MyAppTheme" <<<"$OUT"'
run_apart "$TL" swift export --only density "${plugins[2]}"
holds "--only with a key brings the key's trait and enum, but not the rest" \
  '[ $RC -eq 0 ] && grep -q "struct DensityKey: EnvironmentKey" <<<"$OUT" && grep -q "struct DensityTrait" <<<"$OUT" && grep -q "enum Density:" <<<"$OUT" && ! grep -q BadgeCount <<<"$OUT"'
run_apart "$TL" swift export --only MyAppTheme,NewCheckoutEnabledTrait "${plugins[@]:0:2}"
holds "--only takes comma-separated names, enum and Swift type names" \
  '[ $RC -eq 0 ] && grep -q "struct ThemeTrait" <<<"$OUT" && grep -q "struct NewCheckoutEnabledTrait" <<<"$OUT"'
run_apart "$TL" swift export --only Nope "${plugins[0]}"
holds "--only with a name nothing defined is an error naming it" '[ $RC -eq 1 ] && grep -q "nothing named '"'"'Nope'"'"'" <<<"$ERR" && [ -z "$OUT" ]'
run_apart "$TL" swift export --module-header off "${plugins[0]}"
holds "--module-header off leaves out the comment and the imports" \
  '[ $RC -eq 0 ] && ! grep -q "^import" <<<"$OUT" && head -1 <<<"$OUT" | grep -q "^enum MyAppTheme"'
run_apart "$TL" swift export --module-header maybe "${plugins[0]}"
holds "a bad --module-header value is a usage error" '[ $RC -eq 2 ] && grep -q "on or off" <<<"$ERR"'
run_apart "$TL" swift export
holds "no file is a usage error" '[ $RC -eq 2 ] && grep -q "usage: traitlab swift export" <<<"$ERR"'
run_apart "$TL" swift frobnicate
holds "an unknown swift subcommand is a usage error" '[ $RC -eq 2 ] && grep -q "unknown subcommand" <<<"$ERR"'
run_apart "$TL" swift export -o "$tmp/out.swift" "${plugins[0]}"
holds "-o writes the file and nothing to standard output" '[ $RC -eq 0 ] && [ -z "$OUT" ] && grep -q "struct ThemeTrait" "$tmp/out.swift"'
run_apart "$TL" swift export -o "$tmp/no/such/dir/out.swift" "${plugins[0]}"
holds "-o into a missing folder is an error" '[ $RC -eq 1 ] && grep -q "cannot write" <<<"$ERR"'

run_apart "$TL" swift export --plugin-path examples/plugins featureflags
holds "a plugin name is found on the plugin path, with its requirements" \
  '[ $RC -eq 0 ] && grep -q "struct NewCheckoutEnabledTrait" <<<"$OUT" && grep -q "struct ThemeTrait" <<<"$OUT"'
run_apart "$TL" swift export nosuchplugin
holds "an unknown plugin name is an error naming it" '[ $RC -eq 1 ] && grep -q "plugin '"'"'nosuchplugin'"'"' not found" <<<"$ERR"'

# --- Scripts, errors and the sandbox ------------------------------------------
cat > "$tmp/script.lua" <<'LUA'
print("from the script")
local Size = traits.enum("Size", { "small", "large" })
traits.define { name = "Size", default = Size.small }
LUA
run_apart "$TL" swift export "$tmp/script.lua"
holds "a plain script's definitions export; what it prints goes to standard error" \
  '[ $RC -eq 0 ] && grep -q "struct SizeTrait" <<<"$OUT" && ! grep -q "from the script" <<<"$OUT" && grep -q "from the script" <<<"$ERR"'
printf 'traits.define { name = "X", default = 1 }\nerror("boom")\n' > "$tmp/bad.lua"
run_apart "$TL" swift export "$tmp/bad.lua"
holds "a failing script is an error with its position; no Swift is printed" '[ $RC -eq 1 ] && grep -q "bad.lua:2: boom" <<<"$ERR" && [ -z "$OUT" ]'
printf 'local f = io.open("/etc/passwd")\n' > "$tmp/io.lua"
run_apart "$TL" swift export "$tmp/io.lua"
holds "scripts run sandboxed (no io)" '[ $RC -eq 1 ] && grep -q "global .io." <<<"$ERR"'
printf 'local x = 1\n' > "$tmp/empty.lua"
run_apart "$TL" swift export "$tmp/empty.lua"
holds "a script that defines nothing exportable is an error saying so" '[ $RC -eq 1 ] && grep -q "nothing to export" <<<"$ERR"'
cat > "$tmp/hostile.lua" <<'LUA'
local K = swiftui.EnvironmentKey { name = "k", default = 0 }
traits.define { name = "T", default = 0, property = "t" }
swiftui.bridge(K, { read = function() error("no reading") end, write = function(m, v) m.t = v end })
LUA
run_apart "$TL" swift export "$tmp/hostile.lua"
holds "a bridge that raises is reported and the key exported without it" \
  '[ $RC -eq 0 ] && grep -q "struct KKey: EnvironmentKey" <<<"$OUT" && ! grep -q UITraitBridgedEnvironmentKey <<<"$OUT" && grep -q "its read failed" <<<"$ERR"'

evil="$tmp/evil"$'\n'"import Evil.lua"
cp "$tmp/script.lua" "$evil"
run_apart "$TL" swift export "$evil"
holds "a file name with a newline cannot put code in the header" '[ $RC -eq 0 ] && ! grep -q "^import Evil" <<<"$OUT" && grep -q "evil?import Evil.lua" <<<"$OUT"'
printf 'while true do end\n' > "$tmp/loop.lua"
run_apart "$TL" swift export --timeout 1 "$tmp/loop.lua"
holds "--timeout stops a script that never ends" '[ $RC -eq 1 ] && grep -q "timed out after 1 second" <<<"$ERR"'
cat > "$tmp/bridge_loop.lua" <<'LUA'
local K = swiftui.EnvironmentKey { name = "k", default = 0 }
traits.define { name = "T", default = 0, property = "t" }
swiftui.bridge(K, { read = function() while true do end end, write = function(m, v) m.t = v end })
LUA
run_apart "$TL" swift export --timeout 1 "$tmp/bridge_loop.lua"
holds "--timeout also covers the bridges export runs" '[ $RC -eq 1 ] && grep -q "timed out after 1 second while running the bridges" <<<"$ERR" && [ -z "$OUT" ]'
printf 'local t = {} for i = 1, 1e8 do t[i] = i end\n' > "$tmp/mem.lua"
run_apart "$TL" swift export --memory-limit 1M "$tmp/mem.lua"
holds "--memory-limit caps a script" '[ $RC -eq 1 ] && grep -q "not enough memory" <<<"$ERR"'
# Four 1 MB names, each written six times over (type name, name, subscripts):
# without asking the cap as the source grows, 86 MB under a 16 MB cap. The
# memory cap's promise: peak RSS within 3 x the cap plus an empty export's.
printf 'local n = ("n"):rep(1e6)\nfor i = 1, 4 do traits.define { name = n .. i, default = 0, property = "p" .. i } end\n' > "$tmp/names.lua"
/usr/bin/time -f %M -o "$tmp/rss0" "$TL" swift export --memory-limit 16M "$tmp/script.lua" >/dev/null 2>&1
run_apart /usr/bin/time -f %M -o "$tmp/rss" "$TL" swift export --memory-limit 16M "$tmp/names.lua"
holds "--memory-limit counts the source as it is written, within 3 x the cap plus an empty export" \
  '[ $RC -eq 1 ] && [ -z "$OUT" ] && grep -q "^traitlab: swift export: not enough memory (--memory-limit of 16M reached)" <<<"$ERR" && [ "$(tail -1 "$tmp/rss")" -le $((3 * 16 * 1024 + $(tail -1 "$tmp/rss0"))) ]'
printf 'describe("x", function() it("y", function() end) end)\n' > "$tmp/a_spec.lua"
run_apart "$TL" swift export "$tmp/a_spec.lua"
holds "a spec file is named as one, in one line, not with a raw error" '[ $RC -eq 1 ] && [ -z "$OUT" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] && grep -q "is a spec file (it calls describe)" <<<"$ERR"'

echo
finish

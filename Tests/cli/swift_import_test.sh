#!/usr/bin/env bash
# `traitlab swift import` (docs/swift.md): the app sources of
# Tests/fixtures/swift/app (UIKit traits, an enum, SwiftUI keys, a bridge)
# import into a plugin that loads and behaves (the bridge included); what
# cannot be translated is listed with file:line and skipped; and the
# examples' plugins exported to Swift and imported back define the same
# traits, and export -> import -> export gives the same Swift again (keys and
# bridges included).
#
# usage: Tests/cli/swift_import_test.sh path/to/traitlab
# Builds traitlab-swift-import (scripts/build-swift-import.sh; swift-syntax).
# Last line: "N passed, N failed".
set -u

source "$(dirname "$0")/lib/swift.sh"
swift_test_start swift_import_test.sh "${1-}" TRAITLAB_SWIFT_IMPORT
# run_apart and holds: Tests/cli/lib/expect.sh (60 s at most a run).

use_swift_import

# --- The importer's unit tests (SwiftImport/Tests) ---------------------------
unit=$(swift test --package-path SwiftImport --scratch-path .build-swift-import 2>&1)
unit_rc=$?
summary=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" <<<"$unit" | tail -1)
ran=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
unit_failed=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$summary")
grep -E "error:|passed \(|failed \(" <<<"$unit" | sed 's/^/     /'
if [ -n "$summary" ]; then
  passed=$((passed + ran - unit_failed)); failed=$((failed + unit_failed))
fi
if [ "$unit_rc" -ne 0 ] && [ "${unit_failed:-0}" -eq 0 ]; then RC=$unit_rc; OUT=$(tail -20 <<<"$unit"); ERR=""; bad_apart "swift test of SwiftImport"; fi

# --- An app's definitions (Tests/fixtures/swift/app) -----------------------
run_apart "$TL" swift import Tests/fixtures/swift/app -o "$tmp/MyTraits.lua"
holds "the app's sources import into a plugin file" '[ $RC -eq 0 ] && [ -z "$OUT" ] && [ -s "$tmp/MyTraits.lua" ]'
skipped() { grep -q "^Tests/fixtures/swift/app/Untranslatable.swift:$1: $2: $3" <<<"$ERR"; }
holds "a computed default is listed with file:line and skipped" 'skipped 10 DraftIDTrait "its default value is computed (\`UUID()\`)"'
holds "a class-typed value is listed and skipped" 'skipped 19 LogbookTrait "its value is class-typed (Logbook)"'
holds "a custom Equatable is listed and skipped" 'skipped 30 ToleranceTrait "its value type Tolerance has a custom Equatable"'
holds "a bridge that is no property mapping is listed; its key still imports" \
  'skipped 63 "UnitScaleKey'"'"'s bridge" "read(from:) does more than return one trait property" && grep -q "name = \"unitScale\"" "$tmp/MyTraits.lua"'
if command -v luacheck >/dev/null; then
  holds "the plugin is luacheck-clean" 'luacheck "$tmp/MyTraits.lua" --no-color >/dev/null'
fi
holds "the plugin header lists what was not translated" 'grep -c "^--   Tests/fixtures/swift/app/Untranslatable.swift:" "$tmp/MyTraits.lua" | grep -qx 4'

cat > "$tmp/check_app.lua" <<'LUA'
-- What each fixture declares (its comment says which documented behaviour).
local function def(p) return assert(traits.named(p), "no trait " .. p) end
local t = def("mapPalette")
assert(t.name == "Map palette" and t.identifier == "app.fieldnote.map-palette" and t.affectsColorAppearance == true,
  "MapPaletteTrait's name, identifier and affectsColorAppearance")
assert(t.default == "topographic" and table.concat(t.cases, ",") == "topographic,aerial,nightVision,highContrast",
  "MapPalette's cases, declared after the trait")
local c = def("isInComposeFlow")
assert(c.name == "ComposeFlowTrait" and c.default == false and c.identifier == nil and not c.affectsColorAppearance,
  "ComposeFlowTrait: UIKit's defaults (the type's name, no identifier)")
assert(def("offlineMaps").default == false, "OfflineMapsTrait, from its UIMutableTraits accessor")
local u = def("distanceUnit")
assert(table.concat(u.cases, ",") == "kilometres,miles" and u.default == "kilometres", "an Int enum imports its case names")
assert(def("marker").default == "map-pin", "a String raw value is the Lua case")
local inset = def("trailInset")
assert(inset.identifier == "app.fieldnote.trail-inset", "TrailInsetTrait's identifier")
local s = inset.default
assert(s.leading == 6.0 and s.trailing == 12.0 and math.type(s.leading) == "float", "a memberwise struct default is a table")
assert(traits.named("draftID") == nil and traits.named("logbook") == nil and traits.named("tolerance") == nil,
  "skipped traits are not defined")
-- The bridge works in TraitLab: a SwiftUI view hosted below a scene override
-- sees the trait through EnvironmentValues.mapPalette.
local scene = ui.WindowScene { screen = ui.Screen {} }
local window = ui.Window { windowScene = scene }
local view = swiftui.View { name = "V", body = function(env) return env.mapPalette .. "/" .. env.trailColor end }
window.rootViewController = ui.HostingController { rootView = view }
scene.traitOverrides.mapPalette = "nightVision"
ui.update()
assert(view.rendered == "nightVision/ochre", "bridged read: " .. tostring(view.rendered))
print("app checks passed")
LUA
run_apart "$TL" --plugin "$tmp/MyTraits.lua" "$tmp/check_app.lua"
holds "the imported plugin loads and defines the app's traits, enums, keys and bridge" '[ $RC -eq 0 ] && [ "$OUT" = "app checks passed" ]'
OUT=$(printf 'print(traits.collection { mapPalette = "aerial" }.mapPalette)\n' | "$TL" --plugin "$tmp/MyTraits.lua" 2>&1); RC=$?; ERR=""
holds "traitlab --plugin MyTraits.lua explores the app's traits" '[ $RC -eq 0 ] && [ "$OUT" = "aerial" ]'

# The REPL, as a person would use it (tmux: type, read the screen).
if command -v tmux >/dev/null; then
  sock="$tmp/tmux.sock"
  screen() { tmux -S "$sock" capture-pane -p -S -100 -t repl 2>/dev/null; }
  wait_for() { local n=100; while [ $n -gt 0 ]; do screen | grep -qF -- "$1" && return 0; sleep 0.05; n=$((n - 1)); done; return 1; }
  type_line() { tmux -S "$sock" send-keys -t repl -l -- "$1"; tmux -S "$sock" send-keys -t repl Enter; }
  HOME="$tmp" tmux -S "$sock" new-session -d -s repl -x 160 -y 40 "$TL --plugin $tmp/MyTraits.lua; sleep 30"
  wait_for "Type :help"
  type_line 'traits.named("mapPalette").identifier'
  if wait_for "app.fieldnote.map-palette"; then ok "the REPL with --plugin MyTraits.lua sees the app's traits"; else RC=1; OUT=$(screen); ERR=""; bad_apart "the REPL with --plugin MyTraits.lua sees the app's traits"; fi
  type_line 'tc = traits.collection {}'
  tmux -S "$sock" send-keys -t repl -l -- 'tc.isInCompose'
  tmux -S "$sock" send-keys -t repl Tab
  if wait_for "> tc.isInComposeFlow"; then ok "... and completes their property names"; else RC=1; OUT=$(screen); ERR=""; bad_apart "... and completes their property names"; fi
  tmux -S "$sock" kill-server 2>/dev/null
fi

run_apart "$TL" swift import Tests/fixtures/swift/app/Flags.swift
holds "without -o the plugin goes to standard output, named 'imported'; standard error has the count alone" \
  '[ $RC -eq 0 ] && grep -q "name = \"imported\"" <<<"$OUT" && [ "$ERR" = "traitlab: swift import: 1 Swift file for iOS: translated 2 traits, 1 enum; skipped nothing" ]'
run_apart "$TL" swift import --name AppTraits Tests/fixtures/swift/app/Flags.swift
holds "--name names the plugin" '[ $RC -eq 0 ] && grep -q "name = \"AppTraits\"" <<<"$OUT"'
printf 'struct Plain { var x = 1 }\n' > "$tmp/plain.swift"
run_apart "$TL" swift import "$tmp/plain.swift"
holds "sources with no trait or key are an error saying so" '[ $RC -eq 1 ] && grep -q "found no UITraitDefinition or EnvironmentKey" <<<"$ERR" && [ -z "$OUT" ]'
run_apart "$TL" swift import "$tmp/missing.swift"
holds "an unreadable source is an error naming it" '[ $RC -eq 1 ] && grep -q "cannot read $tmp/missing.swift" <<<"$ERR"'
run_apart "$TL" swift import
holds "no source is a usage error" '[ $RC -eq 2 ] && grep -q "usage: traitlab swift import" <<<"$ERR"'
printf 'struct Broken: UITraitDefinition { static let defaultValue = \n' > "$tmp/broken.swift"
run_apart "$TL" swift import "$tmp/broken.swift"
holds "source that does not parse gives no definitions, not a crash" '[ $RC -eq 1 ] && grep -q "Broken: its default value does not parse" <<<"$ERR"'
mkdir -p "$tmp/evil"
cp Tests/fixtures/swift/app/Flags.swift "$tmp/evil/x"$'\n'"error('injected')--.swift"
run_apart "$TL" swift import "$tmp/evil" -o "$tmp/evil.lua"
OUT=$("$TL" --plugin "$tmp/evil.lua" -e 'print(traits.named("offlineMaps").default)' 2>&1); RC=$?
holds "a file name with a newline cannot put code in the plugin's comments" '[ $RC -eq 0 ] && [ "$OUT" = "false" ]'
mkdir -p "$tmp/bin"
cp "$TL" "$tmp/bin/traitlab"
OUT=$(env -u TRAITLAB_SWIFT_IMPORT PATH=/usr/bin:/bin "$tmp/bin/traitlab" swift import x.swift 2>&1); RC=$?; ERR=""
holds "without traitlab-swift-import beside it or on PATH, traitlab says how to build it" \
  '[ $RC -eq 1 ] && grep -q "traitlab-swift-import is not in $tmp/bin nor on PATH; build it with scripts/build-swift-import.sh" <<<"$OUT"'

# --- Round trips ---------------------------------------------------------------
describe() { sed -n '/^--- custom traits$/,$p' <<<"$1"; }
# 1. The examples' plugins -> Swift -> plugin: the same traits, field by field.
run_apart "$TL" --plugin examples/plugins/theme.lua --plugin examples/plugins/featureflags.lua Tests/fixtures/swift/describe.lua
before=$(describe "$OUT")
"$TL" swift export examples/plugins/theme.lua examples/plugins/featureflags.lua -o "$tmp/Examples.swift" 2>"$tmp/err1"
"$TL" swift import "$tmp/Examples.swift" -o "$tmp/examples_back.lua" 2>"$tmp/err2"
run_apart "$TL" --plugin "$tmp/examples_back.lua" Tests/fixtures/swift/describe.lua
after=$(describe "$OUT")
holds "examples' plugins -> Swift -> plugin define the same traits (names, defaults, identifiers, flags, enum cases)" \
  '[ -n "$before" ] && [ "$(wc -l <<<"$before")" -eq 3 ] && [ "$before" = "$after" ] && grep -qx "traitlab: swift import: .*; skipped nothing" "$tmp/err2" && [ "$(wc -l <"$tmp/err2")" -eq 1 ]'
[ "$before" = "$after" ] || diff <(echo "$before") <(echo "$after") | sed 's/^/     /'

# 2. The SwiftUI cell example (a key bridged to a trait) the same way.
run_apart "$TL" Tests/fixtures/swift/describe.lua
run_apart "$TL" -e "dofile('examples/swiftui_cell.lua')" Tests/fixtures/swift/describe.lua
before=$(describe "$OUT")
"$TL" swift export examples/swiftui_cell.lua -o "$tmp/Cell.swift" 2>/dev/null
"$TL" swift import "$tmp/Cell.swift" -o "$tmp/cell_back.lua" 2>"$tmp/err3"
run_apart "$TL" --plugin "$tmp/cell_back.lua" Tests/fixtures/swift/describe.lua
after=$(describe "$OUT")
holds "the SwiftUI cell example -> Swift -> plugin defines the same trait" '[ -n "$before" ] && [ "$before" = "$after" ] && grep -qx "traitlab: swift import: .*; skipped nothing" "$tmp/err3" && [ "$(wc -l <"$tmp/err3")" -eq 1 ]'
holds "... and its key comes back bridged to the trait's property" \
  'grep -q "swiftui.bridge(myAppThemeKey" "$tmp/cell_back.lua" && grep -q "return traitCollection.myAppTheme end" "$tmp/cell_back.lua"'

# 3. Export -> import -> export is a fixed point, for every kind of definition
#    (kinds.lua: enums needing Swift names, optional, number, string, struct,
#    keys bridged, unbridged and with a bridge that is no plain mapping).
"$TL" swift export Tests/fixtures/swift/kinds.lua Tests/fixtures/swift/hostile.lua examples/swiftui_settings.lua --module-header off -o "$tmp/A.swift" 2>/dev/null
run_apart "$TL" swift import "$tmp/A.swift" -o "$tmp/back.lua"
holds "the export of every kind imports with nothing left out" '[ $RC -eq 0 ] && grep -qx "traitlab: swift import: .*; skipped nothing" <<<"$ERR"'
run_apart "$TL" swift export "$tmp/back.lua" --module-header off -o "$tmp/B.swift"
holds "export -> import -> export gives the same Swift (traits, enums, keys, bridges)" '[ $RC -eq 0 ] && cmp -s "$tmp/A.swift" "$tmp/B.swift"'
cmp -s "$tmp/A.swift" "$tmp/B.swift" || diff "$tmp/A.swift" "$tmp/B.swift" | head -20 | sed 's/^/     /'
holds "... with every plain bridge kept (density, badgeCount, in, environment, myAppTheme)" \
  '[ "$(grep -c ": UITraitBridgedEnvironmentKey {" "$tmp/B.swift")" -eq 5 ]'

echo
finish

#!/usr/bin/env bash
# Golden round trips of `traitlab swift import` and `traitlab swift export`
# (docs/swift.md, "Round trips"): each folder of Tests/fixtures/swift/roundtrip
# holds one shape an app writes (namespace constants, #if per platform,
# foreign enums, raw-typed enums, availability, access levels, nested
# declarations in extensions, @Entry keys, a bridge of a custom property,
# named colours and images).
# Its Traits.swift is imported (with Support.swift beside it, read and not
# exported; with each line of its `args` file as the options of one run),
# the plugin is loaded in traitlab, and export must give Traits.swift back
# byte for byte. Traits.swift is itself as swift-format writes it, so the
# export is too. Then what import reports, and the last line it ends with;
# export's choices for definitions born in Lua; and, when
# TRAITLAB_SWIFT_APPS names a folder of real apps' sources (one folder per
# app, kept out of the repository), import over each of them.
#
# usage: Tests/cli/swift_roundtrip_test.sh path/to/traitlab
# Builds traitlab-swift-import (scripts/build-swift-import.sh; swift-syntax).
# Last line: "N passed, N failed".
set -u

source "$(dirname "$0")/lib/swift.sh"
swift_test_start swift_roundtrip_test.sh "${1-}" TRAITLAB_SWIFT_IMPORT

use_swift_import

# --- Golden round trips --------------------------------------------------------
for dir in Tests/fixtures/swift/roundtrip/*/; do
  shape=$(basename "$dir")
  golden="$dir/Traits.swift"
  if command -v swift-format >/dev/null; then
    holds "$shape: Traits.swift is as swift-format writes it" 'swift-format format "$golden" | cmp -s - "$golden"'
  fi
  runs=("")
  [ -f "$dir/args" ] && mapfile -t runs <"$dir/args"
  for args in "${runs[@]}"; do
    label="$shape${args:+ ($args)}"
    # shellcheck disable=SC2086  # the args file holds words
    run_apart "$TL" swift import "$dir" $args -o "$tmp/$shape.lua"
    holds "$label: imports with nothing skipped" '[ $RC -eq 0 ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] && grep -q "skipped nothing$" <<<"$ERR"'
    run_apart "$TL" --plugin "$tmp/$shape.lua" -e 'io.write("loaded")'
    holds "$label: the plugin loads in traitlab" '[ $RC -eq 0 ] && [ "$OUT" = loaded ]'
    run_apart "$TL" swift export --module-header off "$tmp/$shape.lua"
    if [ "$RC" -eq 0 ] && [ "$OUT" = "$(cat "$golden")" ]; then
      ok "$label: export gives Traits.swift back unchanged"
    else
      bad_apart "$label: export gives Traits.swift back unchanged" "$(diff <(printf '%s\n' "$OUT") "$golden" | head -40)"
    fi
  done
done

# A changed default is written as a literal: the expression the app wrote stood for the old one.
sed 's/default = "system",/default = "dark",/' "$tmp/namespace.lua" >"$tmp/changed.lua"
run_apart "$TL" swift export --module-header off "$tmp/changed.lua"
holds "a default changed in Lua is exported as its literal, not as the constant the app named" \
  '[ $RC -eq 0 ] && grep -q "static let defaultValue: String = \"dark\"" <<<"$OUT" && grep -q "defaultValue: CGFloat = Layout.cardRadius" <<<"$OUT"'

# --- What import reports ------------------------------------------------------
run_apart "$TL" swift import Tests/fixtures/swift/roundtrip/foreign
holds "a case of an enum nobody declared says which and how to pass it" \
  '[ $RC -eq 1 ] && grep -q "^Tests/fixtures/swift/roundtrip/foreign/Traits.swift:1: PopupBarStyleTrait: its default is \`.compact\` of LNPopupBar.Style, an enum not declared in the Swift sources read (an Objective-C enum, or one from another module): pass its cases with --enum LNPopupBar.Style=compact,... or its declaration with --types FILE|DIR$" <<<"$ERR"'
holds "when every declaration was found and none translated, the last line says so" \
  '[ "$(tail -1 <<<"$ERR")" = "traitlab: swift import: 1 Swift file: found 2 trait or key declarations, translated none; skipped 2 (listed above)" ]'
run_apart "$TL" swift import Tests/fixtures/swift/roundtrip/foreign --enum LNPopupBar.Style=prominent
holds "a case missing from --enum is named with the cases given" \
  'grep -q "LNPopupBar.Style has no case .compact (the cases given with --enum: prominent)" <<<"$ERR"'

cat >"$tmp/Undecided.swift" <<'SWIFT'
#if canImport(LNPopupController)
  struct PopupTrait: UITraitDefinition {
    static let defaultValue = 1
  }
#endif

#if DEBUG
  struct DebugTrait: UITraitDefinition {
    static let defaultValue = true
  }
#endif

struct ShownTrait: UITraitDefinition {
  static let defaultValue = ThemeSpace.system
}

enum ThemeSpace {
  static let system = "system"
}
SWIFT
run_apart "$TL" swift import "$tmp/Undecided.swift"
holds "an #if that cannot be decided is reported with what to pass, never resolved silently" \
  'grep -q "Undecided.swift:1: \`#if canImport(LNPopupController)\`: cannot be decided for iOS: whether LNPopupController can be imported depends on the app.s packages: pass --can-import LNPopupController or --cannot-import LNPopupController; nothing in it is read" <<<"$ERR"'
holds "without --define DEBUG, #if DEBUG is false as for a release build" '! grep -q DebugTrait "$tmp/Undecided.lua" 2>/dev/null && ! grep -q "DebugTrait" <<<"$OUT"'
holds "the last line counts what was translated and what was skipped" \
  '[ $RC -eq 0 ] && [ "$(tail -1 <<<"$ERR")" = "traitlab: swift import: 1 Swift file for iOS: translated 1 trait; skipped 1 (listed above)" ]'
run_apart "$TL" swift import "$tmp/Undecided.swift" --can-import LNPopupController --define DEBUG
holds "--can-import and --define decide them" \
  '[ $RC -eq 0 ] && grep -q PopupTrait <<<"$OUT" && grep -q DebugTrait <<<"$OUT" && grep -q "translated 3 traits; skipped nothing$" <<<"$ERR"'
run_apart "$TL" swift import "$tmp/Undecided.swift" --platform watchos
holds "an unknown platform is a usage error" '[ $RC -eq 2 ] && grep -q "unknown platform .watchos. (ios, tvos, visionos or maccatalyst)" <<<"$ERR"'

# --- Export of definitions born in Lua -----------------------------------------
cat >"$tmp/lua_born.lua" <<'LUA'
local Mood = traits.enum("Mood", { "calm", "busy" })
traits.define { name = "Mood", default = Mood.calm }
LUA
run_apart "$TL" swift export --module-header off "$tmp/lua_born.lua"
holds "a trait born in Lua is marked iOS 17 API, and its enum is not CaseIterable unless asked" \
  '[ $RC -eq 0 ] && grep -q "^enum Mood: String {" <<<"$OUT" && [ "$(grep -c "^@available(iOS 17, tvOS 17, \*)$" <<<"$OUT")" -eq 3 ]'
run_apart "$TL" swift export --module-header off --case-iterable --deployment-target 17.0 "$tmp/lua_born.lua"
holds "--case-iterable asks for CaseIterable; a deployment target of 17 needs no @available" \
  '[ $RC -eq 0 ] && grep -q "^enum Mood: String, CaseIterable {" <<<"$OUT" && ! grep -q "@available" <<<"$OUT"'
cat >"$tmp/resources.lua" <<'LUA'
traits.define { name = "Tint", default = ui.Color.systemIndigo, property = "tint" }
traits.define { name = "Brand", type = "color", default = "Brand/Accent", property = "brand" }
traits.define { name = "Badge", type = "image", default = "Icon", property = "badge" }
LUA
run_apart "$TL" swift export --module-header off --deployment-target 17 "$tmp/resources.lua"
holds "colour and image traits export as UIKit's system colours, UIColor(named:) and UIImage(named:)" \
  '[ $RC -eq 0 ] && grep -q "static let defaultValue = UIColor.systemIndigo$" <<<"$OUT" && grep -q "static let defaultValue = UIColor(named: \"Brand/Accent\")!$" <<<"$OUT" && grep -q "static let defaultValue = UIImage(named: \"Icon\")!$" <<<"$OUT" && grep -q "var badge: UIImage { self\[BadgeTrait.self\] }" <<<"$OUT"'
run_apart "$TL" --assets examples/Resources.xcassets -e '
  local t = traits.define { name = "Card tint", default = ui.Color.named("AccentColor"), property = "cardTint" }
  local tc = traits.collection { cardTint = ui.Color.named("CardBackground") }
  io.write(t.type, " ", t.default, " ", tc.cardTint, " ", tostring(ui.Color.named(tc.cardTint) ~= nil))'
holds "a trait defined with a named colour holds the colour's name, which ui.Color.named resolves" \
  '[ $RC -eq 0 ] && [ "$OUT" = "color AccentColor CardBackground true" ]'

printf 'swiftui.EnvironmentKey { name = "compactRows", default = false }\n' >"$tmp/keys.lua"
run_apart "$TL" swift export "$tmp/keys.lua"
holds "key-only output imports SwiftUI and not UIKit" \
  '[ $RC -eq 0 ] && grep -q "^import SwiftUI$" <<<"$OUT" && ! grep -q "^import UIKit" <<<"$OUT" && ! grep -q "@available" <<<"$OUT"'

# --- Real apps' sources (TRAITLAB_SWIFT_APPS) -----------------------------------
if [ -n "${TRAITLAB_SWIFT_APPS:-}" ]; then
  for app in "$TRAITLAB_SWIFT_APPS"/*/; do
    name=$(basename "$app")
    run_apart "$TL" swift import "$app" -o "$tmp/app.lua"
    last=$(tail -1 <<<"$ERR")
    echo "     $name: $last"
    # Every line but the last is one skipped declaration, FILE:LINE: what: reason.
    holds "$name: imports, every report is FILE:LINE: reason, the last line counts" \
      '{ [ $RC -eq 0 ] || grep -q "found no UITraitDefinition\|translated none" <<<"$last"; } && ! head -n -1 <<<"$ERR" | grep -qv "^[^:]*\.swift:[0-9]*: " && grep -q "^traitlab: swift import: [0-9]* Swift files\?" <<<"$last"'
    if [ "$RC" -eq 0 ]; then
      run_apart "$TL" --plugin "$tmp/app.lua" -e 'io.write("loaded")'
      holds "$name: the plugin loads" '[ $RC -eq 0 ] && [ "$OUT" = loaded ]'
      run_apart "$TL" swift export "$tmp/app.lua" -o "$tmp/app.swift"
      holds "$name: and exports back" '[ $RC -eq 0 ]'
    fi
  done
else
  echo "skip real apps' sources (set TRAITLAB_SWIFT_APPS to a folder with one app's sources per subfolder)"
fi

echo
finish

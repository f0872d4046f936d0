#!/usr/bin/env bash
# Runs every example and checks that it exits 0 and prints what it claims.
set -u
bin=${1:?usage: examples_test.sh path/to/traitlab}
cd "$(dirname "$0")/.."
pass=0; fail=0
check() {  # check NAME EXPECTED-REGEX... (output of the example in $out)
  local name=$1; shift
  for re in "$@"; do
    if ! grep -Eq -- "$re" <<<"$out"; then
      echo "FAIL $name: output lacks /$re/"; echo "$out" | sed 's/^/    /'; fail=$((fail+1)); return
    fi
  done
  echo "ok   $name"; pass=$((pass+1))
}
in_order() {  # in_order NAME PREFIX...: lines starting with these prefixes come in this order
  local name=$1; shift
  local last=0 n w
  for w in "$@"; do
    n=$(awk -v w="$w" -v after="$last" 'NR > after && index($0, w) == 1 { print NR; exit }' <<<"$out")
    if [ -z "$n" ]; then
      echo "FAIL $name: no line starting with '$w' after line $last (expected order: $*)"; echo "$out" | sed 's/^/    /'
      fail=$((fail+1)); return
    fi
    last=$n
  done
  echo "ok   $name (order)"; pass=$((pass+1))
}
run() { out=$("$bin" "$@" 2>&1); status=$?; [ $status -eq 0 ] || out="$out"$'\n'"EXIT STATUS $status"; }

run examples/01_collections.lua
check 01_collections 'modified: .*horizontalSizeClass = "compact"' 'changed: +UserInterfaceStyle, HorizontalSizeClass' 'unset style reads as: unspecified' "did you mean 'horizontalSizeClass'"
run examples/02_contained_in_settings.lua
check 02_contained_in_settings 'row.traitCollection.isContainedInSettings = true' 'window \(above the override\): +false'
run examples/03_theme_trait.lua
check 03_theme_trait 'identifier: +com.myapp.theme' 'encoded: +\{"com.myapp.theme":"pastel"\}' 'wrong case: .*standard, pastel, bold, monochrome'
run examples/04_overrides.lua
check 04_overrides 'after scene override: root.view=pastel label=pastel' 'after card override: +root.view=pastel label=monochrome' 'toggled off: +label=pastel \(contains=false\)' 'toggled on: +label=monochrome \(contains=true\)'
run examples/13_resources.lua
check 13_resources 'iPhone, dark, sheet +#2C2A28 +icon-dark@3x.png +#1C1C1E' 'iPad, dark +#1C202E +icon-ipad-dark@2x.png' 'backgroundColor systemBackground → #1C1C1E \(dark, elevated\)'
run --assets examples/Resources.xcassets examples/13_resources.lua
check 13_resources_assets 'iPhone, high contrast +#FFFFFF +icon-hc@3x.png'
run examples/14_dynamic_type.lua
check 14_dynamic_type 'accessibilityExtraExtraExtraLarge +title 58 pt +body 53 pt' '^clamped to small' 'accessibilityExtraExtraExtraLarge +title 32 pt +body 21 pt' 'compare large with accessibilityMedium: -1' 'font body 21 pt'
run examples/11_devices.lua
check 11_devices '^iPad Pro 12.9-inch \(6th generation\), iOS 26.0' 'Split View, half +1/2 +678x1024 +regular width' 'Split View, one third +1/3 +375x1024 +compact width.*single column' 'Slide Over +slideOver +375x1024 +compact width' 'turned to portrait +full +1024x1366 +regular width' 'WindowScene "mail"  \(2/3: 639x1366 pt, compact width, regular height\)'
run --ios 17 examples/11_devices.lua
check "11_devices --ios 17" '^iPad Pro 12.9-inch \(6th generation\), iOS 17.0' 'Split View, one third +1/3 +375x1024 +compact width.*single column' 'portrait, two thirds +2/3 +639x1366 +compact width.*single column'
run examples/05_hierarchy_modes.lua
check 05_hierarchy_modes 'ios17 +parent=compact +container=regular +child=regular' 'legacy +parent=compact +container=regular +child=compact'
run examples/06_appearance.lua
check 06_appearance 'viewDidLoad: +horizontalSizeClass = compact \(predicted\)' 'viewWillAppear: +horizontalSizeClass = compact' 'viewIsAppearing: +horizontalSizeClass = regular'
in_order 06_appearance viewDidLoad viewWillAppear viewIsAppearing viewWillLayoutSubviews layoutSubviews viewDidLayoutSubviews viewDidAppear
run examples/10_layout_configures_child.lua
check 10_layout_configures_child 'badge layoutSubviews: theme = bold' 'card layoutSubviews ran 1 time, badge layoutSubviews ran 1 time' 'badge handler: standard -> bold, after card.layoutSubviews'
in_order 10_layout_configures_child '-- the device rotates' 'card layoutSubviews' 'badge handler' 'badge layoutSubviews'
run examples/12_presentations.lua
check 12_presentations 'iPad +popover +asked popover +shown popover +style=light level=elevated' 'iPhone +popover +asked popover +shown pageSheet' 'iPhone +sheet +asked formSheet shown pageSheet' 'root.s own view: style=dark' 'PresentationController +userInterfaceLevel=elevated +<- set here'
run examples/tour.lua
check tour 'before ui.update\(\): standard' 'after  ui.update\(\): pastel' 'card: theme pastel -> monochrome' 'handler calls: 1'
run examples/07_registration.lua
check 07_registration 'closure on header: sizeClass compact -> compact, theme standard -> bold' 'header sees label change theme to bold' 'closure on header: sizeClass compact -> regular' 'target-action updateColors on label \(style was light\)' 'label redrawn: true' 'handlers called in total: 6'
flags=$(mktemp -u)
run examples/08_feature_flag.lua "$flags"
check "08_feature_flag (first run)" 'first run' 'saved \{"com.example.feature.newCheckout":true\}' 'now sees newCheckoutEnabled = true'
run examples/08_feature_flag.lua "$flags"
check "08_feature_flag (second run)" 'restored from .*: newCheckoutEnabled = true' 'checkout sees newCheckoutEnabled = true' 'now sees newCheckoutEnabled = false'
rm -f "$flags"
run examples/09_override_placement.lua
check 09_override_placement 'window scene: +visited +[0-9]+ environments, +1054 collections changed' 'nearest ancestor: +visited +[0-9]+ environments, +21 collections changed'
run examples/swiftui_cell.lua
check swiftui_cell 'before ui.update\(\): CellView 1 rendered nil \(body ran 0 times\)' 'first update: +CellView 1 rendered blue \(body ran 1 time\)' 'cell 1: myAppTheme = monochrome' 'CellView 1 environment.myAppTheme = monochrome' 'SwiftUI: CellView 1 rendered gray \(body ran 2 times\)' 'CellView 2 rendered blue .*; CellView 1 rendered gray' 'sees colorScheme = dark, but its body never read it: CellView 1 rendered gray \(body ran 2 times\)'
run examples/swiftui_settings.lua
check swiftui_settings 'makeViewController, context.environment.myAppTheme = standard' 'viewIsAppearing sees myAppTheme = standard' 'window scene myAppTheme = pastel' 'SettingsViewController.traitCollection.myAppTheme = standard' 'theme changed standard -> bold' 'SettingsViewController.traitCollection.myAppTheme = bold' 'unbridged key accent: Settings sees red' 'userInterfaceStyle = dark \(window: light\)'
for f in examples/*.lua; do
  case "$f" in examples/[0-9][0-9]_*|examples/tour.lua) continue;; esac
  run "$f"; check "$(basename "$f" .lua) (runs)" '.'
  grep -q "EXIT STATUS" <<<"$out" && { echo "FAIL $f exited non-zero"; fail=$((fail+1)); pass=$((pass-1)); }
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

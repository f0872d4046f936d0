#!/usr/bin/env bash
# Devices, OS versions and matrices from the command line (docs/devices.md, "Matrices"):
# --device, --ios and --screen for scripts, and `traitlab test` running every
# spec file once per combination with the combination named in every format.
# usage: Tests/cli/matrix_test.sh path/to/traitlab
set -u
TL=${1:?usage: matrix_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib/expect.sh"

# ------------------------------------------------------------ scripts
run "$TL" --device "iPhone SE (3rd generation)" -e 'print(ui.Screen.main.device, ui.Screen.main.traitCollection.displayScale)'
expect "--device configures ui.Screen.main" 0 '^iPhone SE \(3rd generation\)	2'
run "$TL" --screen userInterfaceStyle=dark --screen preferredContentSizeCategory=accessibilityLarge \
  -e 'local tc = ui.Screen.main.traitCollection print(tc.userInterfaceStyle, tc.preferredContentSizeCategory, tc.userInterfaceIdiom)'
expect "--screen sets system traits of ui.Screen.main" 0 '^dark	accessibilityLarge	phone$'
run "$TL" --ios 17 -e 'print(ui.ios, ui.available("18.0"), ui.hierarchyMode)'
expect "--ios 17" 0 '^17.0	false	ios17$'
run "$TL" --ios 16 -e 'print(ui.hierarchyMode) print(pcall(traits.define, { name = "X", default = 1 }))'
expect "--ios 16: the legacy flow, and custom traits name iOS 17" 0 '^legacy$' 'available from iOS 17'
run "$TL" --ios 15 -e 'print(1)'
expect "--ios 15 is a usage error" 2 "invalid --ios value '15'"
run "$TL" --device "iPhone 99" -e 'print(1)'
expect "an unknown --device is a usage error" 2 'no device named "iPhone 99"'
run "$TL" --screen userInterfaceStyle=purple -e 'print(1)'
expect "a bad --screen value is a usage error" 2 'purple'
run "$TL" --screen colour=dark -e 'print(1)'
expect "--screen names a system trait" 2 "'colour' is not a system trait"

# ------------------------------------------------------------ matrices
mkdir -p "$tmp/specs"
cat > "$tmp/specs/style_spec.lua" <<'LUA'
describe('style', function()
  it('is dark', function()
    assert.equal('dark', ui.Screen.main.traitCollection.userInterfaceStyle)
  end)
  it('runs on the device asked for', function()
    assert.is_string(ui.Screen.main.device)
  end)
end)
LUA
cat > "$tmp/specs/other_spec.lua" <<'LUA'
describe('other', function() it('passes', function() assert.truthy(ui.ios) end) end)
LUA
cd "$tmp/specs" || exit 1
combo='\[iPhone SE \(3rd generation\), iOS 17, userInterfaceStyle=dark\]'
run "$TL" test --device "iPhone SE (3rd generation),iPad Pro 13-inch (M5)" --ios 17,26 --screen userInterfaceStyle=light,dark .
expect "a matrix runs every file once per combination; the closing line counts every run test" 1 \
  '^20 passed, 4 failed$' "^$combo +3 +0 +0$" \
  '^\[iPad Pro 13-inch \(M5\), iOS 26, userInterfaceStyle=light\] +2 +1 +0$' \
  '^\[iPhone SE \(3rd generation\), iOS 17, userInterfaceStyle=light\] style is dark$'
run "$TL" test --ios 17,26 -j 2 .
expect "-j 2 spreads files and combinations over workers" 1 '^4 passed, 2 failed$' '^\[iOS 17\] +2 +1 +0$'
run "$TL" test --ios 17,26 --sandbox .
expect "--sandbox runs each combination's files sandboxed" 1 '^4 passed, 2 failed$'
run "$TL" test --ios 17,26 --format tap .
expect "TAP prefixes the test name" 1 '^not ok [0-9]+ - \[iOS 17\] style is dark$' '^ok [0-9]+ - \[iOS 26\] other passes$' '^4 passed, 2 failed$'
"$TL" test --ios 17,26 --screen userInterfaceStyle=dark --format junit . >"$tmp/junit.xml" 2>"$tmp/err"
status=$?
out=$(python3 - "$tmp/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
doc = ET.parse(sys.argv[1]).getroot()
for s in doc.findall('testsuite'):
    props = {p.get('name'): p.get('value') for p in s.findall('properties/property')}
    print(s.get('name'), s.get('tests'), s.get('failures'), props.get('ios'), props.get('userInterfaceStyle'))
print('total', doc.get('tests'))
PY
)
expect "JUnit: one testsuite per combination and file, with properties" 0 \
  '^\[iOS 17, userInterfaceStyle=dark\] \./style_spec\.lua 2 0 17 dark$' '^\[iOS 26, userInterfaceStyle=dark\] \./other_spec\.lua 1 0 26 dark$' '^total 6$'
run "$TL" test --ios 17,26 --format json .
expect "JSON: each test's element carries its combination" 1 '"combination":"\[iOS 17\]"' '"combination":"\[iOS 26\]"'

# ------------------------------------------------------------ OS versions
cd "$root" || exit 1
run "$TL" test --ios 16,17,18,26 Tests/os_versions
expect "each OS version's trait system (Tests/os_versions)" 0 '^132 passed, 0 failed$' '^\[iOS 16\] +32 +0 +0$' '^\[iOS 26\] +34 +0 +0$'

finish

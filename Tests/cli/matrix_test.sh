#!/usr/bin/env bash
# Devices, OS versions and matrices from the command line (docs/devices.md, "Matrices"):
# --device, --orientation, --scene-size, --ios and --screen for scripts, and
# `traitlab test` running every spec file once per combination with the
# combination named in every format, snapshots kept per combination, and
# --shard slicing a run for CI (docs/ci.md).
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

# --orientation: the device size-class table of Apple's layout guidelines
# (https://developer.apple.com/design/human-interface-guidelines/layout#Specifications)
# makes the Pro Max iPhones regular width, compact height in landscape.
run "$TL" --device "iPhone 15 Pro Max" --orientation landscapeLeft \
  -e 'local s = ui.Screen.main print(s.orientation, s.size.width, s.size.height, s.traitCollection.horizontalSizeClass, s.traitCollection.verticalSizeClass)'
expect "--orientation turns ui.Screen.main" 0 '^landscapeLeft	932	430	regular	compact$'
# --scene-size: a scene on ui.Screen.main starts at that size. The size
# classes of Split View are the multitasking table of the layout guidelines'
# revision of June 21, 2023 (12.9-inch iPad Pro, landscape, 1/2: regular
# width); Slide Over is compact width (Apple's "Adopting Multitasking
# Enhancements on iPad", Figure 2-1). Apple gives no widths for either: 678
# and 375 points are TraitLab's rule from measured widths (docs/devices.md,
# "Split View widths"), checked here as that rule's output, not as Apple's.
scene='local sc = ui.WindowScene {} ui.update() local tc = sc.traitCollection print(sc.size, sc.bounds.width, tc.horizontalSizeClass, tc.verticalSizeClass)'
run "$TL" --device "iPad Pro 12.9-inch (6th generation)" --orientation landscapeLeft --scene-size 1/2 -e "$scene"
expect "--scene-size 1/2: a new scene is half of Split View" 0 '^1/2	678	regular	regular$'
run "$TL" --device "iPad Pro 12.9-inch (6th generation)" --scene-size slideOver -e "$scene"
expect "--scene-size slideOver: compact width, regular height" 0 '^slideOver	375	compact	regular$'
run "$TL" --device "iPad Pro 13-inch (M5)" --scene-size 700x900 -e 'local sc = ui.WindowScene {} ui.update() print(sc.size.width, sc.size.height, sc.traitCollection.horizontalSizeClass)'
expect "--scene-size WxH: a window of that many points (Stage Manager), its size classes by the rule" 0 '^700	900	regular$'
run "$TL" --device "iPad Pro 13-inch (M5)" --scene-size 1/3 -e 'print(ui.WindowScene { size = "full" }.size, ui.WindowScene { screen = ui.Screen { device = "iPad Pro 13-inch (M5)" } }.size)'
expect "a scene asked for at a size, or on another screen, is not the --scene-size" 0 '^full	full$'
run_apart_stdin 'print(ui.Screen.main.orientation, ui.WindowScene {}.size)' "$TL" --device "iPad Pro 13-inch (M5)" --orientation landscapeRight --scene-size 1/3 -i
holds "the REPL starts with them too" '[[ $OUT == *"landscapeRight	1/3"* ]]'
run "$TL" --orientation sideways -e 'print(1)'
expect "an orientation that does not exist is a usage error" 2 "invalid --orientation value 'sideways' \(portrait, portraitUpsideDown, landscapeLeft, landscapeRight\)"
for bad_size in 1/4 0x900 700x 700x900x1 '-1x5' 1e3x500 huge; do
  run "$TL" --scene-size "$bad_size" -e 'print(1)'
  expect "a scene size that does not exist ($bad_size) is a usage error" 2 "invalid --scene-size value"
done
run "$TL" --scene-size 1/3 -e 'print(1)'
expect "a size the device does not offer is a usage error naming the device" 2 'iPhone 14 Pro offers no "1/3" scene in "portrait"'
run "$TL" --device "iPhone 15" --orientation portraitUpsideDown -e 'print(1)'
expect "an orientation the device does not turn to is a usage error" 2 'iPhone 15 does not turn to "portraitUpsideDown"'
run "$TL" --orientation portrait,landscapeLeft -e 'print(1)'
expect "a list of orientations is a matrix, for traitlab test" 2 'a list of values makes a matrix'

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

# ------------------------------------------------------------ orientation and scene size as dimensions
mkdir -p "$tmp/dims"
cat > "$tmp/dims/scene_spec.lua" <<'LUA'
describe('a scene', function()
  it('has the width of its combination', function()
    local scene = ui.WindowScene {}
    ui.update()
    -- (fails on purpose, naming what it saw, so every report shows the combination)
    assert.equal(0, scene.bounds.width, ('%s %s %s'):format(ui.Screen.main.orientation, scene.traitCollection.horizontalSizeClass, scene.bounds.width))
  end)
end)
LUA
cd "$tmp/dims" || exit 1
pad='iPad Pro 12.9-inch (6th generation)' padre='iPad Pro 12\.9-inch \(6th generation\)'
run_apart "$TL" test --device "$pad" --orientation portrait,landscapeLeft --scene-size 1/2,slideOver .
holds "--orientation and --scene-size make a matrix; the combination the device does not offer is left out, with a note" \
  '[ $RC -eq 1 ] && [[ $OUT == *"0 passed, 3 failed"* ]] &&
   [[ $OUT == *"[$pad, landscapeLeft, scene 1/2] a scene has the width of its combination"* ]] &&
   [[ $OUT == *"landscapeLeft regular 678"* ]] && [[ $OUT == *"portrait compact 375"* ]] &&
   [[ $ERR == *"1 combination left out, not offered by the device"* ]] &&
   [[ $ERR == *"[$pad, portrait, scene 1/2]: $pad offers no \"1/2\" scene in \"portrait\""* ]] &&
   [[ $OUT != *"portrait, scene 1/2]"* ]]'
run_apart "$TL" test --device "iPhone SE (3rd generation)" --scene-size 1/2,slideOver .
holds "a matrix with no combination its device offers is a usage error" '[ $RC -eq 2 ] && [[ $ERR == *"none of the 2 combinations"* ]]'
run_apart "$TL" test --device "$pad" --orientation portrait,landscapeLeft --scene-size 700x900 --format tap .
holds "TAP names the orientation and the scene size" '[ $RC -eq 1 ] &&
  [[ $OUT == *"not ok 1 - [$pad, portrait, scene 700x900] a scene"* ]] && [[ $OUT == *"not ok 2 - [$pad, landscapeLeft, scene 700x900] a scene"* ]]'
"$TL" test --device "$pad" --orientation landscapeLeft,landscapeRight --scene-size 2/3,1/3 --format junit . >"$tmp/dims.xml" 2>/dev/null
out=$(python3 - "$tmp/dims.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
for s in ET.parse(sys.argv[1]).getroot().findall('testsuite'):
    props = {p.get('name'): p.get('value') for p in s.findall('properties/property')}
    print(s.get('name'), '|', props.get('orientation'), props.get('sceneSize'))
PY
)
status=0
expect "JUnit: a property for the orientation and the scene size" 0 \
  "^\[$padre, landscapeLeft, scene 2/3\] \./scene_spec\.lua \| landscapeLeft 2/3$" "^\[$padre, landscapeRight, scene 1/3\] \./scene_spec\.lua \| landscapeRight 1/3$"
run "$TL" test --device "$pad" --orientation landscapeLeft --scene-size 1/3,slideOver --format json .
expect "JSON: each test's element names the orientation and the scene size" 1 \
  "\"combination\":\"\[$padre, landscapeLeft, scene 1/3\]\"" "\"combination\":\"\[$padre, landscapeLeft, scene slideOver\]\""
run "$TL" test --device "$pad" --orientation portrait,landscapeLeft -o utfTerminal .
expect "the terminal handlers name them" 1 "\[$padre, landscapeLeft\] a scene has the width" "^\[$padre, portrait\] +0 +1 +0$"
run "$TL" test --orientation landscapeLeft --scene-size 500x500 -j 2 .
expect "one combination is the run's own, also in -j's workers" 1 'landscapeLeft compact 500'

# ------------------------------------------------------------ snapshots per combination
# The README's quick start 2, as a reader runs it, then as a matrix: each
# combination keeps its own snapshot file (docs/cli.md, "Snapshots in a matrix").
mkdir -p "$tmp/qs/spec"
sed -n '/^-- spec\/theme_spec\.lua$/,/^```$/p' "$root/README.md" | sed '$d' >"$tmp/qs/spec/theme_spec.lua"
cd "$tmp/qs" || exit 1
snaps=spec/__snapshots__/theme_spec
two='iPhone SE (3rd generation),iPad Pro 13-inch (M4)'
run "$TL" test spec
expect "quick start 2 passes, its snapshot written under today's name" 0 '^2 passed, 0 failed$'
holds "...one file, no combination in its name" '[ "$(ls "$snaps" | wc -l)" -eq 1 ] && ls "$snaps" | grep -qv "\]\.txt$"'
cp "$snaps"/* "$tmp/outside.txt"
run "$TL" test spec --device "$two"
expect "the matrix of two devices passes (each combination writes its own file)" 0 '^4 passed, 0 failed$'
run "$TL" test spec --device "$two" --update-snapshots
expect "--update-snapshots passes" 0 '^4 passed, 0 failed$'
run "$TL" test spec --device "$two"
expect "...and a run after it passes" 0 '^4 passed, 0 failed$'
se_file=$(ls "$snaps" | grep -F '[iPhone SE (3rd generation)].txt')
pad_file=$(ls "$snaps" | grep -F '[iPad Pro 13-inch (M5)].txt')
holds "two files, named after the combinations; the file outside the matrix untouched" \
  '[ -n "$se_file" ] && [ -n "$pad_file" ] && [ "$(ls "$snaps" | grep -c "\]\.txt$")" -eq 2 ] && cmp -s "$tmp/outside.txt" "$snaps/$(ls "$snaps" | grep -v "\]\.txt$")"'
holds "...and each holds its own device's dump" 'grep -q "userInterfaceIdiom = \"phone\"" "$snaps/$se_file" && grep -q "userInterfaceIdiom = \"pad\"" "$snaps/$pad_file"'
printf 'not the dump\n' >"$snaps/$pad_file"
run "$TL" test spec --device "$two"
expect "a changed snapshot fails its own combination only" 1 '^3 passed, 1 failed$' \
  '^\[iPhone SE \(3rd generation\)\] +2 +0 +0$' '^\[iPad Pro 13-inch \(M5\)\] +1 +1 +0$' '^- not the dump$'
cp "$snaps/$se_file" "$tmp/se.txt"
printf 'kept\n' >>"$snaps/$se_file"
run "$TL" test spec --device "iPad Pro 13-inch (M4),iPhone 15" --update-snapshots
expect "--update-snapshots with other combinations" 0 '^4 passed, 0 failed$'
holds "...writes only the combinations that ran" 'tail -1 "$snaps/$se_file" | grep -qx kept && grep -q "userInterfaceIdiom = \"pad\"" "$snaps/$pad_file" && ls "$snaps" | grep -qF "[iPhone 15].txt"'
cp "$tmp/se.txt" "$snaps/$se_file"
run "$TL" test spec --device "$two" -j 2
expect "-j 2 compares each combination with its own file" 0 '^4 passed, 0 failed$'
run "$TL" test spec --device "$two" --sandbox
expect "--sandbox too" 0 '^4 passed, 0 failed$'
run "$TL" test spec --device "$two" --ios 17,26 --sandbox
expect "a combination without its file never reads another's (under --sandbox it fails, writing nothing)" 1 \
  '^4 passed, 4 failed$' 'no snapshot "the theme keeps the tree.s shape" at spec/__snapshots__/theme_spec/the theme keeps the tree_s shape #[0-9a-f]{16} \[iPhone SE \(3rd generation\), iOS 17\]\.txt'
long=(--device "iPad Pro 12.9-inch (6th generation)" --orientation landscapeLeft --scene-size slideOver
      --screen preferredContentSizeCategory=accessibilityExtraExtraExtraLarge,accessibilityExtraExtraLarge --screen legibilityWeight=bold)
run "$TL" test spec "${long[@]}"
expect "combinations with long labels" 0 '^4 passed, 0 failed$'
holds "...get distinct files of a readable part and a hash, short enough for any file system" \
  '[ "$(ls "$snaps" | grep -c "slideOver, preferredContentSizeCategory=.* #[0-9a-f]\{16\}\.txt$")" -eq 2 ] &&
   ! ls "$snaps" | awk "length > 255" | grep -q .'
run "$TL" test spec "${long[@]}"
expect "...compared on the next run" 0 '^4 passed, 0 failed$'

# ------------------------------------------------------------ shards
# --shard K/N runs the K-th of N slices of the run's files x combinations;
# Bazel's TEST_TOTAL_SHARDS and 0-based TEST_SHARD_INDEX do the same
# (https://bazel.build/reference/test-encyclopedia#test-sharding).
mkdir -p "$tmp/shards"
for i in 1 2 3 4 5; do
  printf "describe('file %s', function() it('a', function() end) it('b', function() end) end)\n" "$i" >"$tmp/shards/f${i}_spec.lua"
done
cd "$tmp/shards" || exit 1
names() { grep -E '^(not )?ok [0-9]+ - ' | sed -E 's/^(not )?ok [0-9]+ - //' | sort; }
whole=$("$TL" test --ios 17,26 --format tap . 2>/dev/null | names)
slices=""
counts=""
for k in 1 2 3; do
  run_apart "$TL" test --ios 17,26 --format tap --shard "$k/3" .
  slices+=$(names <<<"$OUT")$'\n'
  counts+=$(sed -n 's/.*runs \([0-9]*\) of the 10 spec file runs.*/\1/p' <<<"$ERR")" "
done
holds "three slices of a matrix run every test of the whole run exactly once" \
  '[ "$(grep -c . <<<"$whole")" -eq 20 ] && [ "$(sed "/^$/d" <<<"$slices" | sort)" = "$whole" ]'
holds "...balanced: 10 file runs dealt 4, 3, 3" '[ "$(tr " " "\n" <<<"$counts" | sed "/^$/d" | sort | tr "\n" " ")" = "3 3 4 " ]'
run_apart "$TL" test --ios 17,26 --format tap --shard 2/3 .
first=$OUT
run_apart "$TL" test --ios 17,26 --format tap --shard 2/3 -j 2 --shuffle .
holds "a slice is the same at every run, whatever -j and --shuffle do" '[ "$(names <<<"$first")" = "$(names <<<"$OUT")" ]'
whole=$("$TL" test --format tap . 2>/dev/null | names)
slices=""
for k in 1 2; do slices+=$("$TL" test --format tap --shard "$k/2" . 2>/dev/null | names)$'\n'; done
holds "without a matrix the slices are of files" '[ "$(grep -c . <<<"$whole")" -eq 10 ] && [ "$(sed "/^$/d" <<<"$slices" | sort)" = "$whole" ]'
run_apart "$TL" test --format tap --shard 2/2 --sandbox .
holds "...in worker processes too" '[ "$(names <<<"$OUT")" = "$("$TL" test --format tap --shard 2/2 . 2>/dev/null | names)" ]'
for k in 1 2 3; do "$TL" test --ios 17,26 --device "iPhone SE (3rd generation)" --format junit --shard "$k/3" . >"$tmp/shard$k.xml" 2>/dev/null; done
"$TL" test --ios 17,26 --device "iPhone SE (3rd generation)" --format junit . >"$tmp/whole.xml" 2>/dev/null
# (the merge docs/ci.md shows, "Running matrices in CI")
{ echo '<testsuites>'
  for f in "$tmp"/shard[123].xml; do sed '/<testsuites[ >\/]/d; /<\/testsuites>/d' "$f"; done
  echo '</testsuites>'; } >"$tmp/merged.xml"
out=$(python3 - "$tmp/whole.xml" "$tmp/merged.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
def cases(root):
    return sorted((s.get('name'), c.get('name')) for s in root.findall('testsuite') for c in s.findall('testcase'))
whole, merged = (ET.parse(p).getroot() for p in sys.argv[1:3])
print('same' if cases(merged) == cases(whole) and len(cases(whole)) == 20 else 'differ')
print('properties' if all(s.find('properties') is not None for s in merged.findall('testsuite')) else 'none')
PY
)
status=0
expect "the slices' JUnit reports merge by concatenating their testsuites" 0 '^same$' '^properties$'
for k in 1 2 3 4 5 6; do "$TL" test --format junit --shard "$k/6" . >"$tmp/plain$k.xml" 2>/dev/null; done
{ echo '<testsuites>'
  for f in "$tmp"/plain[1-6].xml; do sed '/<testsuites[ >\/]/d; /<\/testsuites>/d' "$f"; done
  echo '</testsuites>'; } >"$tmp/merged.xml"
out=$(python3 -c 'import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); print(len(r.findall("testsuite")), sorted(c.get("name") for c in r.iter("testcase")) == sorted("file %d %s" % (i, t) for i in range(1, 6) for t in "ab"))' "$tmp/merged.xml")
expect "...without a matrix too, with a slice that has nothing to run (5 files, 6 slices)" 0 '^6 True$'
"$TL" test --ios 17,26 --format tap --shard 1/3 . 2>/dev/null | names >"$tmp/flag.txt"
rm -f "$tmp/status"
run_apart env TEST_TOTAL_SHARDS=3 TEST_SHARD_INDEX=0 TEST_SHARD_STATUS_FILE="$tmp/status" "$TL" test --ios 17,26 --format tap .
holds "Bazel's TEST_SHARD_INDEX=0 of TEST_TOTAL_SHARDS=3 is --shard 1/3, and TEST_SHARD_STATUS_FILE is touched" \
  '[ "$(names <<<"$OUT")" = "$(cat "$tmp/flag.txt")" ] && [ -f "$tmp/status" ]'
run_apart env TEST_TOTAL_SHARDS=3 TEST_SHARD_INDEX=1 "$TL" test --ios 17,26 --format tap --shard 1/3 .
holds "--shard wins over the environment" '[ "$(names <<<"$OUT")" = "$(cat "$tmp/flag.txt")" ]'
run "$TL" test --shard 20/20 .
expect "a slice with nothing to run passes, saying so" 0 'runs 0 of the 5 spec file runs' '^0 passed, 0 failed$'
for bad_shard in 3/2 0/0 a/b 1/0 0/3 /3 2/ 1/2/3 1.5/2 1/100001; do
  run "$TL" test --shard "$bad_shard" .
  expect "--shard $bad_shard is a usage error" 2 "invalid --shard value '$bad_shard': K/N runs the K-th of N slices"
done
run env TEST_TOTAL_SHARDS=2 TEST_SHARD_INDEX=2 "$TL" test .
expect "a Bazel index past the total is a usage error" 2 "invalid sharding environment: TEST_TOTAL_SHARDS='2', TEST_SHARD_INDEX='2'"
run env TEST_TOTAL_SHARDS=x TEST_SHARD_INDEX=0 "$TL" test .
expect "...and a total that is no number" 2 "invalid sharding environment"
run env TEST_TOTAL_SHARDS= TEST_SHARD_INDEX= "$TL" test .
expect "Bazel's variables set to nothing count as unset" 0 '^10 passed, 0 failed$'
# A slice's table of combinations has a row for each combination it ran a
# file in, and only those.
run "$TL" test --ios 16,17,18,26 --shard 30/30 .
expect "a slice with nothing to run has no row of combinations" 0 '^0 passed, 0 failed$'
holds "...not even 0 0 0" '! grep -q "^\[iOS" <<<"$out"'
rows_ok=yes
for k in 1 2 3 4 5 6 7; do
  tapped=$("$TL" test --ios 16,17,18,26 --format tap --shard "$k/7" . 2>/dev/null | sed -n 's/^ok [0-9]* - \(\[iOS [0-9]*\]\).*/\1/p' | sort -u)
  rows=$("$TL" test --ios 16,17,18,26 --shard "$k/7" . 2>/dev/null | sed -n 's/^\(\[iOS [0-9]*\]\) .*/\1/p' | sort -u)
  [ "$tapped" = "$rows" ] || rows_ok="slice $k ran '$tapped' and shows rows '$rows'"
done
[ "$rows_ok" = yes ] && ok "...and each slice's table has a row for each combination it ran" || bad "the slices' tables" "$rows_ok"

# ------------------------------------------------------------ progress
# A matrix's report is written as each worker run ends, in order; on a
# terminal, while the parent waits for the next run, a line on standard error
# counts the worker runs done, cleared before the report goes on (script(1)
# gives the run a terminal; the report itself goes to a file, as in CI logs).
cd "$tmp/shards" || exit 1
if command -v script >/dev/null; then
  run script -qec "$(printf '%q ' "$TL" test --ios 16,17,18,26 -j 2 .) > $(printf '%q' "$tmp/progress.out")" /dev/null
  expect "on a terminal a matrix shows its workers' progress" 0 'traitlab test: [1-4] of 4 worker runs done'
  holds "...and clears it before the report goes on" '[[ $out == *$'"'"'\r\e[K'"'"'* ]] && [[ $out != *"passed, 0 failed"* ]] && grep -q "passed, 0 failed" "$tmp/progress.out"'
else
  echo "skip progress on a terminal: no script(1) (util-linux)"
fi
run_apart "$TL" test --ios 16,17,18,26 -j 2 .
holds "...and writes nothing of it when standard error is no terminal" '[ $RC -eq 0 ] && [[ $ERR != *"worker runs"* ]] && [[ $OUT != *"worker runs"* ]]'

# ------------------------------------------------------------ bad matrices
all_devices=$("$TL" devices --json | python3 -c 'import json, sys; print(",".join(d["name"] for d in json.load(sys.stdin)))')
run_apart "$TL" test --device "$all_devices" --orientation portrait,portraitUpsideDown,landscapeLeft,landscapeRight \
  --scene-size full,2/3,1/2,1/3,slideOver --ios 16,17,18,26 --screen userInterfaceStyle=light,dark .
holds "every device x every option (9,280 combinations) is a usage error naming its size, before anything runs" \
  '[ $RC -eq 2 ] && [[ $ERR == *"the matrix has 9280 combinations; one run takes at most 1024"* ]]'
run "$TL" test --orientation sideways,portrait .
expect "a dimension value that does not exist is a usage error" 2 "invalid --orientation value 'sideways'"
run "$TL" test --scene-size full,1/5 .
expect "...for the scene size too" 2 "invalid --scene-size value '1/5'"
run "$TL" test --device "iPad Pro 13-inch (M5),iPad Pro 99-inch" .
expect "...and for the device" 2 'no device named "iPad Pro 99-inch"'
run "$TL" test --scene-size 1000000x1 .
expect "...and a window size past the limit names the limit" 2 "invalid --scene-size value '1000000x1'.*at most 100000"
run "$TL" test --screen userInterfaceStyle= .
expect "...and a --screen trait with no value names the trait" 2 "'--screen userInterfaceStyle=' gives userInterfaceStyle no value"

# ------------------------------------------------------------ a killed worker
mkdir -p "$tmp/crash"
cat > "$tmp/crash/crash_spec.lua" <<'LUA'
describe('the worker', function()
  it('is killed on iOS 17', function()
    if ui.ios == '17.0' then
      local pid = io.open('/proc/self/stat'):read('n')   -- (the first field: this process's id)
      os.execute('kill -KILL ' .. math.tointeger(pid))
    end
  end)
end)
LUA
cd "$tmp/crash" || exit 1
run "$TL" test --ios 17,26 .
expect "a killed worker is a failure of its combination, the others run" 1 \
  '\[iOS 17\] \./crash_spec\.lua: the worker process running it was killed by signal 9' '^\[iOS 17\] +0 +1 +0$' '^\[iOS 26\] +1 +0 +0$' '^1 passed, 1 failed$'

# --list in a matrix names each test once per combination, as the run names
# them; under --shard, the slices' lists together are the whole list, each
# line once (and each slice's is what that slice runs).
mkdir -p "$tmp/listing"
printf 'describe("d", function()\n  it("one", function() end)\n  pending("later")\nend)\n' > "$tmp/listing/a_spec.lua"
printf 'it("two", function() end)\n' > "$tmp/listing/b_spec.lua"
cd "$tmp/listing" || exit 1
run_apart "$TL" test --ios 17,26 --list .
holds "--list in a matrix names each test once per combination" \
  '[ $RC -eq 0 ] && [ "$(wc -l <<<"$OUT")" -eq 6 ] && grep -qx "./a_spec.lua:2: \[iOS 17\] d one" <<<"$OUT" && grep -qx "\[iOS 26\] two" <<<"$OUT" && [[ $OUT != *passed* ]]'
full=$(sort <<<"$OUT")
slices="" same=yes
for k in 1 2 3; do
  run_apart "$TL" test --ios 17,26 --list --shard "$k/3" .
  slices+="$OUT"$'\n'
  listed=$(sed 's/^[^ ]*:[0-9]*: //' <<<"$OUT" | grep -v '^$' | sort)
  run_apart "$TL" test --ios 17,26 --shard "$k/3" --format tap .
  ran=$(sed -n 's/^\(not \)\{0,1\}ok [0-9]* - \(# SKIP \)\{0,1\}//p' <<<"$OUT" | sort)
  [ "$listed" = "$ran" ] || same="slice $k lists '$listed' and runs '$ran'"
done
[ "$(grep -v '^$' <<<"$slices" | sort)" = "$full" ] && [ "$same" = yes ] \
  && ok "...and under --shard each slice lists what it runs, the slices' lists together the whole list" \
  || bad "--list under --shard" "$same
full:
$full
slices:
$slices"

# A parent that is ended from outside (SIGTERM, SIGHUP, SIGKILL: no chance
# to stop anything) leaves no worker running: each worker, and each process
# a worker forks, is killed as its parent exits (prctl(2), PR_SET_PDEATHSIG).
mkdir -p "$tmp/forever"
echo 'it("runs forever", function() while true do end end)' > "$tmp/forever/forever_spec.lua"
cd "$tmp/forever" || exit 1
for sig in TERM HUP KILL; do
  "$TL" test --ios 16,17,18,26 -j 2 . >/dev/null 2>&1 &
  parent=$!
  # (the two workers, and the process each has forked for its first group)
  procs=""
  for _ in $(seq 50); do
    workers=$(pgrep -P "$parent" | tr '\n' ' ')
    procs="$workers $(for w in $workers; do pgrep -P "$w"; done | tr '\n' ' ')"
    [ "$(wc -w <<<"$procs")" -ge 4 ] && break
    sleep 0.1
  done
  kill -"$sig" "$parent"; wait "$parent" 2>/dev/null
  left=""
  for _ in $(seq 30); do
    left=$(for p in $procs; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
    [ -z "$left" ] && break
    sleep 0.1
  done
  [ "$(wc -w <<<"$procs")" -ge 4 ] && [ -z "$left" ] && ok "a parent ended by SIG$sig leaves no worker running" \
    || { bad "a parent ended by SIG$sig leaves no worker running" "processes: '$procs', left: '$left'"; kill -KILL $left 2>/dev/null; }
done

# A run keeps its workers' files (plans, statuses, records) in a private
# folder of $TMPDIR that it removes as it ends; a run killed from outside
# cannot, and the next run removes what such runs left.
mkdir -p "$tmp/tmpdir"
run env TMPDIR="$tmp/tmpdir" "$TL" test --ios 17,26 "$tmp/listing"
expect "a matrix leaves nothing in \$TMPDIR (a run)" 0 '^4 passed, 0 failed, 2 skipped$'
holds "...no folder, no file" '[ -z "$(ls -A "$tmp/tmpdir")" ]'
TMPDIR="$tmp/tmpdir" "$TL" test --ios 16,17,18,26 -j 2 . >/dev/null 2>&1 &
parent=$!
for _ in $(seq 50); do [ -n "$(ls -A "$tmp/tmpdir")" ] && [ "$(pgrep -P "$parent" | wc -l)" -ge 2 ] && break; sleep 0.1; done
kill -TERM "$parent"; wait "$parent" 2>/dev/null
left=$(ls -A "$tmp/tmpdir")
mkdir "$tmp/tmpdir/traitlab-test.1.notours" && ln -s "$tmp/listing" "$tmp/tmpdir/traitlab-test.999999999.link"
run env TMPDIR="$tmp/tmpdir" "$TL" test --ios 17,26 "$tmp/listing"
holds "...and the next run removes the folder a killed run left (and only that)" \
  '[[ $left == traitlab-test.$parent.* ]] && [ "$(ls -A "$tmp/tmpdir" | sort | tr "\n" " ")" = "traitlab-test.1.notours traitlab-test.999999999.link " ] && [ -f "$tmp/listing/a_spec.lua" ]'

# ------------------------------------------------------------ OS versions
cd "$root" || exit 1
run "$TL" test --ios 16,17,18,26 Tests/os_versions
expect "each OS version's trait system (Tests/os_versions)" 0 '^132 passed, 0 failed$' '^\[iOS 16\] +32 +0 +0$' '^\[iOS 26\] +34 +0 +0$'

finish

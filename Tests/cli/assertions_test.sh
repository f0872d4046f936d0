#!/usr/bin/env bash
# traitlab test's own assertions (docs/guide.md, "Scenario tests"), registered through luassert:
# assert.has_trait, whose failure says where the value came from and that an
# update is pending, and assert.matches_snapshot with --update-snapshots.
# usage: Tests/cli/assertions_test.sh path/to/traitlab
set -u
TL=${1:?usage: assertions_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib/expect.sh"
mkdir -p "$tmp/spec"
cd "$tmp" || exit 1
cat > spec/card_spec.lua <<'LUA'
local Theme = traits.define { name = "Theme", default = "standard" }
local scene = ui.WindowScene { name = "scene" }
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local card = ui.View { name = "card" }
root.view:addSubview(card)
describe('card', function()
  it('has the theme its scene sets', function()
    scene.traitOverrides[Theme] = THEME or "pastel"
    ui.update()
    assert.has_trait(card, Theme, "pastel")
    assert.has_trait(card, "theme", "pastel")
    assert.is_not.has_trait(card, "theme", "standard")
    assert.matches_snapshot(root)
  end)
  it('keeps a named snapshot', function()
    assert.matches_snapshot(card, "the card")
  end)
end)
LUA
cat > spec/pending_spec.lua <<'LUA'
local scene = ui.WindowScene { name = "s" }
local window = ui.Window { windowScene = scene }
local v = ui.View { name = "v" }
window:addSubview(v)
describe('a spec that forgot ui.update()', function()
  it('is told', function()
    scene.traitOverrides.horizontalSizeClass = "regular"
    assert.has_trait(v, "horizontalSizeClass", "regular")
  end)
end)
LUA

run "$TL" test spec/card_spec.lua
expect "the first run writes the snapshots and passes" 0 '^2 passed, 0 failed$'
[ -f "spec/__snapshots__/card_spec/card has the theme its scene sets.txt" ] && [ -f "spec/__snapshots__/card_spec/the card.txt" ] \
  && ok "snapshots are kept beside the spec, in __snapshots__/SPEC/NAME.txt" || { out=$(find spec); bad "snapshots are kept beside the spec"; }
grep -q 'View "card"' "spec/__snapshots__/card_spec/the card.txt" && ok "a snapshot is the node's ui.dump" || { out=$(cat "spec/__snapshots__/card_spec/the card.txt"); bad "a snapshot is the node's ui.dump"; }
run "$TL" test spec/card_spec.lua
expect "the second run compares and passes" 0 '^2 passed, 0 failed$'
sed -i 's/THEME or "pastel"/"bold"/' spec/card_spec.lua
run "$TL" test spec/card_spec.lua
expect "has_trait's failure names the value, where it comes from" 1 \
  'Expected View "card" to have theme = "pastel", but it is "bold" \(from: override on WindowScene "scene"\)'
sed -i 's/assert.has_trait(card, Theme, "pastel")/-- (checked above)/; s/assert.has_trait(card, "theme", "pastel")/assert.has_trait(card, "theme", "bold")/; s/assert.is_not.has_trait(card, "theme", "standard")/assert.is_not.has_trait(card, "theme", "pastel")/' spec/card_spec.lua
run "$TL" test spec/card_spec.lua
expect "a changed tree fails with a readable diff" 1 'no longer matches its snapshot "card has the theme its scene sets"' \
  '^- .*theme = "pastel"' '^\+ .*theme = "bold"' 'traitlab test --update-snapshots' '^0 passed, 2 failed$'
run "$TL" test spec/card_spec.lua --update-snapshots
expect "--update-snapshots accepts the change" 0 '^2 passed, 0 failed$'
run "$TL" test spec/card_spec.lua
expect "and the next run passes" 0 '^2 passed, 0 failed$'
run "$TL" test spec/pending_spec.lua
expect "has_trait says an update is pending" 1 'but it is "compact"' 'An update is pending'
rm -rf spec/__snapshots__
run "$TL" test spec/card_spec.lua --sandbox
expect "under --sandbox a missing snapshot fails and nothing is written" 1 'under --sandbox snapshots are not written'
[ ! -e spec/__snapshots__ ] && ok "no file written under --sandbox" || { out=$(find spec); bad "no file written under --sandbox"; }
cat > spec/hostile_spec.lua <<'LUA'
describe('names', function()
  it('cannot leave the folder', function()
    local v = ui.View { name = "x" }
    assert.matches_snapshot(v, "../../escaped")
    assert.matches_snapshot(v, "/tmp/escaped-abs")
  end)
end)
LUA
run "$TL" test spec/hostile_spec.lua
expect "a snapshot name is one file name inside __snapshots__" 0 '^1 passed, 0 failed$'
[ ! -e escaped.txt ] && [ ! -e ../escaped.txt ] && [ ! -e /tmp/escaped-abs.txt ] && ok "no file outside __snapshots__" || { out=$(ls); bad "no file outside __snapshots__"; }
rm -rf spec/__snapshots__
run "$TL" test spec/card_spec.lua -j 2
expect "snapshots work in -j workers" 0 '^2 passed, 0 failed$'
finish

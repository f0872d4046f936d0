#!/usr/bin/env bash
# traitlab.so inside the stock interpreter: lua5.4 loads it from the folder
# `traitlab module-path` prints, it uses lua5.4's own Lua (no second copy), and
# busted runs spec files that require it. Usage: module_test.sh path/to/traitlab
set -u
bin=${1:?usage: module_test.sh path/to/traitlab}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/expect.sh"

run "$bin" module-path
dir=$out
[ "$status" -eq 0 ] && [ -f "$dir/traitlab.so" ] && ok "module-path prints the folder holding traitlab.so" || bad "module-path"
export LUA_CPATH="$dir/?.so;;"

out=$(readelf -d "$dir/traitlab.so" | grep NEEDED)
if grep -q liblua <<<"$out"; then bad "traitlab.so must not link liblua"; else ok "traitlab.so leaves lua_* to the interpreter (no liblua NEEDED)"; fi

run lua5.4 -e 'local t = require "traitlab"; print(type(t.traits), type(t.ui), type(t.swiftui), type(t.plugins)); print(require("traitlab") == t)'
[ "$out" = $'table\ttable\ttable\ttable\ntrue' ] && ok "require returns { traits, ui, swiftui, plugins }, once" || bad "require"

cat > "$work/flow.lua" <<'LUA'
local tl = require "traitlab"
local traits, ui = tl.traits, tl.ui
local Theme = traits.define { name = "Theme", default = "standard", property = "theme" }
local scene = ui.WindowScene {}
local window = ui.Window { windowScene = scene }
local root = ui.ViewController { name = "root" }
window.rootViewController = root
local card = ui.View { name = "card" }
root.view:addSubview(card)
local calls = 0
card:registerForTraitChanges({ Theme }, function() calls = calls + 1 end)
ui.update()
scene.traitOverrides.theme = "pastel"
ui.update()
print(card.traitCollection.theme, calls)
local ok, err = pcall(function() card.traitOverrides.theme = 5 end)
print(ok, (err:gsub("^.-: ", "")))
local co = coroutine.wrap(function() return ui.View { name = "in coroutine" }.name end)
print(co())
local function garbage() for _ = 1, 100 do ui.View {} end end
collectgarbage(); local before = ui.stats().environments
garbage(); collectgarbage()
print(ui.stats().environments == before)
LUA
run lua5.4 "$work/flow.lua"
expected=$'pastel\t1\nfalse\ttrait \'Theme\' expects a string, got integer\nin coroutine\ntrue'
[ $status -eq 0 ] && [ "$out" = "$expected" ] && ok "trees, overrides, registrations, errors and GC work under lua5.4" \
  || bad "lua5.4 flow (exit $status)"

run lua5.4 -e 'local t = require "traitlab"; local v = t.ui.View {}; error("bye")'
{ [ $status -eq 1 ] && grep -q "bye" <<<"$out" && ! grep -qi "signal\|crash" <<<"$out"; } \
  && ok "an error in a script using the module exits cleanly" || bad "error exit ($status)"

if command -v busted >/dev/null; then
  mkdir -p "$work/spec"
  cat > "$work/spec/traits_spec.lua" <<'LUA'
local tl = require "traitlab"
describe("traitlab under busted", function()
  it("builds and updates a hierarchy", function()
    local scene = tl.ui.WindowScene {}
    local window = tl.ui.Window { windowScene = scene }
    window.rootViewController = tl.ui.ViewController {}
    scene.traitOverrides.userInterfaceStyle = "dark"
    tl.ui.update()
    assert.are.equal("dark", window.rootViewController.view.traitCollection.userInterfaceStyle)
  end)
  it("reports bad input as errors", function()
    assert.has_error(function() tl.traits.collection { nope = 1 } end)
  end)
end)
LUA
  # Debian's busted starts with whatever `lua` points to (Lua 5.1 once luacheck
  # is installed); its modules are installed for 5.4 too, so run it with lua5.4.
  busted_bin=$(command -v busted)
  cd "$work" || exit 1
  run lua5.4 "$busted_bin" --output=TAP spec
  expect "busted runs specs that require traitlab" 0 "^ok 1" "^ok 2"

  # Two files defining the same trait and counting scenes: one shared world
  # under stock busted, a fresh one per file with --helper=traitlab.busted.
  mkdir -p "$work/worlds"
  for n in one two; do
    cat > "$work/worlds/${n}_spec.lua" <<'LUA'
local tl = require "traitlab"
describe("a file", function()
  it("defines Theme and starts with the main screen alone", function()
    assert.are.equal(1, tl.ui.stats().environments)
    tl.traits.define { name = "Theme", default = "x", property = "theme" }
    local scene = tl.ui.WindowScene {}
    assert.are.equal("x", scene.traitCollection.theme)
  end)
end)
LUA
  done
  run lua5.4 "$busted_bin" --output=TAP worlds
  { [ $status -ne 0 ] && grep -q "^not ok 2" <<<"$out"; } \
    && ok "without the helper, busted shares one world between files (the second file fails)" || bad "shared world (exit $status)"
  run lua5.4 "$busted_bin" --helper=traitlab.busted --output=TAP worlds
  expect "busted --helper=traitlab.busted gives each file a fresh world" 0 "^ok 1" "^ok 2"
else
  echo "skip busted is not installed (scripts/setup.sh installs lua-busted)"
fi

finish

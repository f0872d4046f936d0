#!/usr/bin/env bash
# traitlab.so inside the stock interpreter: lua5.4 loads it from the folder
# `traitlab module-path` prints, it uses lua5.4's own Lua (no second copy), and
# busted runs spec files that require it. Usage: module_test.sh path/to/traitlab
set -u
bin=${1:?usage: module_test.sh path/to/traitlab}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass+1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | sed 's/^/    /'; fail=$((fail+1)); }

dir=$("$bin" module-path) && [ -f "$dir/traitlab.so" ] && ok "module-path prints the folder holding traitlab.so" \
  || bad "module-path" "$dir"
export LUA_CPATH="$dir/?.so;;"

needed=$(readelf -d "$dir/traitlab.so" | grep NEEDED)
if grep -q liblua <<<"$needed"; then bad "traitlab.so must not link liblua" "$needed"; else ok "traitlab.so leaves lua_* to the interpreter (no liblua NEEDED)"; fi

out=$(lua5.4 -e 'local t = require "traitlab"; print(type(t.traits), type(t.ui), type(t.swiftui), type(t.plugins)); print(require("traitlab") == t)' 2>&1)
[ "$out" = $'table\ttable\ttable\ttable\ntrue' ] && ok "require returns { traits, ui, swiftui, plugins }, once" || bad "require" "$out"

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
out=$(lua5.4 "$work/flow.lua" 2>&1); status=$?
expected=$'pastel\t1\nfalse\ttrait \'Theme\' expects a string, got integer\nin coroutine\ntrue'
[ $status -eq 0 ] && [ "$out" = "$expected" ] && ok "trees, overrides, registrations, errors and GC work under lua5.4" \
  || bad "lua5.4 flow (exit $status)" "$out"

out=$(lua5.4 -e 'local t = require "traitlab"; local v = t.ui.View {}; error("bye")' 2>&1); status=$?
{ [ $status -eq 1 ] && grep -q "bye" <<<"$out" && ! grep -qi "signal\|crash" <<<"$out"; } \
  && ok "an error in a script using the module exits cleanly" || bad "error exit ($status)" "$out"

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
  out=$(cd "$work" && lua5.4 "$busted_bin" --output=TAP spec 2>&1); status=$?
  { [ $status -eq 0 ] && grep -q "^ok 1" <<<"$out" && grep -q "^ok 2" <<<"$out"; } \
    && ok "busted runs specs that require traitlab" || bad "busted (exit $status)" "$out"

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
  out=$(cd "$work" && lua5.4 "$busted_bin" --output=TAP worlds 2>&1); status=$?
  { [ $status -ne 0 ] && grep -q "^not ok 2" <<<"$out"; } \
    && ok "without the helper, busted shares one world between files (the second file fails)" || bad "shared world (exit $status)" "$out"
  out=$(cd "$work" && lua5.4 "$busted_bin" --helper=traitlab.busted --output=TAP worlds 2>&1); status=$?
  { [ $status -eq 0 ] && grep -q "^ok 1" <<<"$out" && grep -q "^ok 2" <<<"$out"; } \
    && ok "busted --helper=traitlab.busted gives each file a fresh world" || bad "helper (exit $status)" "$out"
else
  echo "skip busted is not installed (scripts/setup.sh installs lua-busted)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

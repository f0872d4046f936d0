#!/usr/bin/env bash
# What a matrix costs: a suite of 100 spec files run once at -j 2, then over
# 8 combinations (2 devices x 2 OS versions x 2 interface styles) at -j 2.
# Target: the matrix at most 8x the single run plus 10% (each combination is
# a full run of the suite; what a matrix adds beyond that is its overhead).
# Prints both times (best of RUNS, default 3), the ratio and the verdict.
# usage: scripts/bench-matrix.sh [path/to/traitlab]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
TL=${1:-}
if [ -z "$TL" ]; then
  source scripts/setup.sh
  swift build -c release --product traitlab >/dev/null
  TL="$(swift build -c release --show-bin-path)/traitlab"
fi
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/spec"
# A spec file as a team writes them: a small tree, an override, an update, a
# registration, a few assertions.
for i in $(seq 1 100); do
  cat > "$tmp/spec/s${i}_spec.lua" <<LUA
describe("screen $i", function()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  local cells = {}
  for k = 1, 20 do cells[k] = ui.View { name = "cell" .. k }; root.view:addSubview(cells[k]) end
  it("sees its size class", function()
    ui.update()
    assert.is_string(cells[1].traitCollection.horizontalSizeClass)
  end)
  it("follows an override", function()
    local calls = 0
    cells[2]:registerForTraitChanges({ traits.UserInterfaceStyle }, function() calls = calls + 1 end)
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    assert.equal("dark", cells[2].traitCollection.userInterfaceStyle)
    assert.is_true(calls <= 1)
  end)
end)
LUA
done
cd "$tmp"
# best SECONDS of $runs runs of the command
best() {
  local b=""
  for _ in $(seq 1 "$runs"); do
    local s e
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    b=$(python3 -c "import sys; t=float(sys.argv[2])-float(sys.argv[1]); b=sys.argv[3]; print(t if not b or t < float(b) else b)" "$s" "$e" "$b")
  done
  echo "$b"
}
single=$(best "$TL" test -j 2 spec)
matrix=$(best "$TL" test -j 2 --device "iPhone SE (3rd generation),iPad Pro 13-inch (M5)" --ios 17,26 \
  --screen userInterfaceStyle=light,dark spec)
python3 - "$single" "$matrix" <<'PY'
import sys
single, matrix = float(sys.argv[1]), float(sys.argv[2])
ratio = matrix / single
limit = 8 * 1.10
print(f"100 spec files, -j 2: single run {single:.3f} s, 8 combinations {matrix:.3f} s")
print(f"matrix / single: {ratio:.2f}x (target at most {limit:.1f}x: 8 combinations plus 10%) -> {'met' if ratio <= limit else 'MISSED'}")
PY

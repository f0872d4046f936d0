#!/usr/bin/env bash
# What a matrix and a start-up cost, measured side by side in one run:
#  - a suite of 100 spec files run once at -j 1 (the single run), then over
#    8 combinations (2 devices x 2 OS versions x 2 interface styles) at -j 1
#    and at -j 2; each figure is compared with the -j 1 single run.
#    Targets: the -j 1 matrix at most 0.5 x K single runs + one run (K = 8);
#    the -j 2 matrix at most 0.6 x the -j 1 matrix.
#  - start-up: `traitlab -e ''` against `lua5.4 -e ''` (target 1.5x), and
#    `traitlab test` on one spec file against busted (Debian's, run by
#    lua5.4) on the same file (target 0.7x), busted's module cache warm.
#    `traitlab -e ''` is timed on a copy installed as scripts/install.sh
#    installs it (what a user runs) and, for the record, on the build's file.
# Runs are interleaved (the machine is shared: every command sees the same
# load) and each figure is the median of RUNS runs (default 5; start-up:
# 20 x RUNS). Prints every figure, the ratio, the target and the verdict.
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
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/spec" "$tmp/one"
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
# The one-spec start-up case: plain busted, nothing of TraitLab's.
cat > "$tmp/one/one_spec.lua" <<'LUA'
describe("a suite", function()
  it("adds", function() assert.equal(4, 2 + 2) end)
end)
LUA
BUSTED=(lua5.4 /usr/bin/busted)
[ -f /usr/bin/busted ] || BUSTED=(busted)
cd "$tmp"
# The executable as scripts/install.sh installs it: a copy in a bin folder.
mkdir -p "$tmp/bin"
install -m 755 "$TL" "$tmp/bin/traitlab"
python3 - "$TL" "$tmp/bin/traitlab" "$runs" "${BUSTED[@]}" <<'PY'
import statistics, subprocess, sys, time
tl, installed, runs, busted = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
matrix = ["--device", "iPhone SE (3rd generation),iPad Pro 13-inch (M5)", "--ios", "17,26",
          "--screen", "userInterfaceStyle=light,dark"]
K = 8

def timed(cmd):
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    return seconds, done

def check(cmd, closing):
    _, done = timed(cmd)
    last = done.stdout.decode(errors="replace").strip().splitlines()[-1:]
    if done.returncode != 0 or last != [closing]:
        sys.exit(f"bench-matrix: {' '.join(cmd)} ended with {done.returncode} and {last}, not '{closing}'")

def medians(cases, rounds):
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, cmd in cases.items():
            times[name].append(timed(cmd)[0])
    return {name: statistics.median(t) for name, t in times.items()}

def verdict(ok):
    return "met" if ok else "MISSED"

# What each run must print, checked once before timing (and the module cache warmed).
check([tl, "test", "spec"], "200 passed, 0 failed")
check([tl, "test", "-j", "1", *matrix, "spec"], "1600 passed, 0 failed")
check([tl, "test", "-j", "2", *matrix, "spec"], "1600 passed, 0 failed")
check([tl, "test", "one"], "1 passed, 0 failed")

m = medians({"single": [tl, "test", "-j", "1", "spec"],
             "matrix1": [tl, "test", "-j", "1", *matrix, "spec"],
             "matrix2": [tl, "test", "-j", "2", *matrix, "spec"]}, runs)
single, m1, m2 = m["single"], m["matrix1"], m["matrix2"]
limit1 = 0.5 * K * single + single
print(f"100 spec files, {K} combinations, median of {runs} interleaved runs:")
print(f"  single run, -j 1:      {single:.3f} s")
print(f"  matrix, -j 1:          {m1:.3f} s = {m1 / single:.2f}x the single run "
      f"(target at most 0.5 x {K} + 1 = {0.5 * K + 1:.1f}x, {limit1:.3f} s) -> {verdict(m1 <= limit1)}")
print(f"  matrix, -j 2:          {m2:.3f} s = {m2 / single:.2f}x the single run, {m2 / m1:.2f}x the -j 1 matrix "
      f"(target at most 0.6x) -> {verdict(m2 <= 0.6 * m1)}")
print(f"  per combination (-j 1): {(m1 - single) / (K - 1) * 1000:.1f} ms beyond the first; "
      f"the single run {single * 1000:.1f} ms")

# Start-up is timed on the executable as scripts/install.sh places it (a
# copy, made above), which is what a user runs, and on the build's own file:
# the linker's output file starts slower than a copy of the same bytes on
# this machine (docs/performance.md).
s = medians({"lua": ["lua5.4", "-e", ""], "traitlab": [installed, "-e", ""], "build": [tl, "-e", ""]}, 20 * runs)
b = medians({"busted": [*busted, "one/one_spec.lua"], "traitlab": [tl, "test", "one/one_spec.lua"]}, 4 * runs)
print(f"start-up, median of {20 * runs} interleaved runs:")
print(f"  traitlab -e '' {s['traitlab'] * 1000:.2f} ms, lua5.4 -e '' {s['lua'] * 1000:.2f} ms: "
      f"{s['traitlab'] / s['lua']:.2f}x (target at most 1.5x) -> {verdict(s['traitlab'] <= 1.5 * s['lua'])}")
print(f"    (the installed copy; the build's own file {tl}: {s['build'] * 1000:.2f} ms = {s['build'] / s['lua']:.2f}x)")
print(f"  traitlab test, one spec {b['traitlab'] * 1000:.1f} ms, {' '.join(busted)} {b['busted'] * 1000:.1f} ms "
      f"(median of {4 * runs}): {b['traitlab'] / b['busted']:.2f}x (target at most 0.7x) "
      f"-> {verdict(b['traitlab'] <= 0.7 * b['busted'])}")
# What bounds the -j 1 matrix: each combination after the first may cost
# 0.5 x a single run, and its files alone (the single run less a start-up)
# cost what they cost in a single run.
files = single - b['traitlab']
print(f"the suite's files alone: {files * 1000:.1f} ms a run (the single run less a one-spec run); "
      f"the -j 1 target allows {0.5 * single * 1000:.1f} ms for each combination after the first, "
      f"the matrix took {(m1 - single) / (K - 1) * 1000:.1f} ms")
PY

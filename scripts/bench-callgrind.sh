#!/usr/bin/env bash
# Instructions per view for the propagation cases, counted by callgrind, so
# figures compare across noisy machines. Only the measured updates are
# counted (callgrind collects inside traitlab-bench's measuredRegion), not
# building the tree. Then the host against lua5.4, in instructions too.
#   scripts/bench-callgrind.sh [VIEWS...]     default: 10000 100000
# TRAITLAB_BUILD_PATH picks the build folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
command -v valgrind >/dev/null || { echo "bench-callgrind: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
build=(-c release --scratch-path "${TRAITLAB_BUILD_PATH:-.build}")
swift build "${build[@]}" --product traitlab-bench
swift build "${build[@]}" --product traitlab
bin="$(swift build "${build[@]}" --show-bin-path)"

# Valgrind 3.19 cannot read the DWARF 5 that Swift emits: run a copy without
# debug information (function names stay in the symbol table).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$bin/traitlab-bench" "$work/traitlab-bench"

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)

# Counts one case: prints "instructions-per-update instructions-per-view".
count() {
  local case=$1 views=$2 iterations=$3 out="$work/$1.$2"
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredRegion*' \
    --callgrind-out-file="$out" "$work/traitlab-bench" --case "$case" --views "$views" \
    --iterations "$iterations" >"$out.log" 2>&1 || { cat "$out.log" >&2; exit 1; }
  awk -v it="$iterations" -v views="$views" '/^totals:/ { printf "%.0f %.1f\n", $2 / it, $2 / it / views }' "$out"
}

printf '%-28s %10s %18s %16s\n' "case" "views" "instructions" "per view"
root_per_view=""
lua_per_view=""
for views in "${sizes[@]}"; do
  for spec in "root-change 2" "leaf-change 50" "idle-update 1000" "lua-root-change 2"; do
    read -r case iterations <<<"$spec"
    result=$(count "$case" "$views" "$iterations")
    read -r per_update per_view <<<"$result"
    printf '%-28s %10s %18s %16s\n' "$case" "$views" "$per_update" "$per_view"
    if [ "$case" = root-change ] && [ "$views" = 100000 ]; then root_per_view=$per_view; fi
    if [ "$case" = lua-root-change ] && [ "$views" = 100000 ]; then lua_per_view=$per_view; fi
    # (The plain shape's row below, at the largest size.)
    if [ "$case" = root-change ]; then swift_plain=$per_view; fi
    if [ "$case" = lua-root-change ]; then lua_plain=$per_view; fi
  done
done

# Each shape of tree, built from Swift and from Lua, at the largest size: the
# instructions behind the Lua-built-vs-Swift-built ratios (docs/performance.md,
# "Trees built from Lua").
views=${sizes[${#sizes[@]}-1]}
echo
printf '%-40s %14s %14s %10s\n' "root change, $views views, per view" "Swift-built" "Lua-built" "ratio"
for shape in "" -registration -layout; do
  if [ -z "$shape" ]; then
    swift_view=$swift_plain lua_view=$lua_plain
  else
    read -r _ swift_view <<<"$(count "root-change$shape" "$views" 2)"
    read -r _ lua_view <<<"$(count "lua-root-change$shape" "$views" 2)"
  fi
  case $shape in "") label="plain views" ;; -registration) label="one registration each" ;; *) label="Lua layoutSubviews reads one trait" ;; esac
  printf '%-40s %14s %14s %10s\n' "  $label" "$swift_view" "$lua_view" "$(awk -v a="$lua_view" -v b="$swift_view" 'BEGIN { printf "%.2f", a / b }')"
done

# The host against lua5.4 in instructions: start-up (-e ''), and the pure-Lua
# workload traitlab-bench times, less start-up.
lua_bin=$(command -v lua5.4 || true)
if [ -n "$lua_bin" ] && [ -x "$bin/traitlab" ]; then
  objcopy --strip-debug "$bin/traitlab" "$work/traitlab"
  "$work/traitlab-bench" --print-workload >"$work/workload.lua"
  total() {   # instructions of a whole process
    valgrind --tool=callgrind --callgrind-out-file="$work/host.out" "$@" >"$work/host.log" 2>&1 \
      || { cat "$work/host.log" >&2; exit 1; }
    awk '/^totals:/ { print $2 }' "$work/host.out"
  }
  t_start=$(total "$work/traitlab" -e '')
  l_start=$(total "$lua_bin" -e '')
  t_work=$(( $(total "$work/traitlab" "$work/workload.lua") - t_start ))
  l_work=$(( $(total "$lua_bin" "$work/workload.lua") - l_start ))
  echo
  printf '%-28s %18s %18s %10s\n' "host" "traitlab" "lua5.4" "ratio"
  printf '%-28s %18s %18s %10s\n' "start-up, -e ''" "$t_start" "$l_start" "$(awk -v a="$t_start" -v b="$l_start" 'BEGIN { printf "%.2f", a / b }')"
  printf '%-28s %18s %18s %10s\n' "pure-Lua workload" "$t_work" "$l_work" "$(awk -v a="$t_work" -v b="$l_work" 'BEGIN { printf "%.3f", a / b }')"
fi

if [ -n "$root_per_view" ]; then
  verdict=$(awk -v x="$root_per_view" 'BEGIN { print (x <= 400 ? "PASS" : "MISS") }')
  ratio=$(awk -v x="$root_per_view" 'BEGIN { printf "%.2f", x / 400 }')
  echo
  echo "$verdict  root change at 100k views: $root_per_view instructions per view, limit 400 ($ratio of the limit)"
  if [ -n "${lua_per_view:-}" ]; then
    echo "      the same tree built from Lua (lua-root-change): $lua_per_view instructions per view"
  fi
fi

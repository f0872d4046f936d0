#!/usr/bin/env bash
# `traitlab test` is busted: the busted suites of three real libraries
# (Tests/parity, unchanged) give the same TAP report under `busted` (run by
# lua5.4) and under `traitlab test`, in one process and with -j 2 workers,
# table addresses aside; the closing line counts what busted counts.
# Usage: busted_parity_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: busted_parity_test.sh path/to/traitlab}")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../parity" && pwd)
pass=0; fail=0
ok()  { echo "ok   $1"; pass=$((pass+1)); }
bad() { echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -30 | sed 's/^/    /'; fail=$((fail+1)); }
command -v busted >/dev/null || { echo "FAIL busted is not installed (bash scripts/setup.sh)"; echo "0 passed, 1 failed"; exit 1; }
normalize() { sed -E 's/0x[0-9a-f]+/0xADDR/g'; }

for lib in inspect semver middleclass; do
  cd "$root/$lib" || exit 1
  expected=$(lua5.4 "$(command -v busted)" -o TAP 2>&1 | normalize)
  n_ok=$(grep -c '^ok ' <<<"$expected"); n_bad=$(grep -c '^not ok ' <<<"$expected")
  [ $((n_ok + n_bad)) -gt 20 ] || bad "$lib: busted ran too few tests" "$expected"
  for jobs in 1 2; do
    got=$("$bin" test -o TAP -j $jobs 2>&1)
    closing=$(tail -n 1 <<<"$got")
    report=$(sed '$d' <<<"$got" | normalize)
    if [ "$report" = "$expected" ]; then ok "$lib (-j $jobs): the same TAP report as busted ($n_ok ok, $n_bad not ok)"
    else bad "$lib (-j $jobs): TAP differs from busted's" "$(diff <(echo "$expected") <(echo "$report"))"; fi
    [ "$closing" = "$n_ok passed, $n_bad failed" ] && ok "$lib (-j $jobs): closing line '$closing'" \
      || bad "$lib (-j $jobs): closing line" "$closing"
  done
  b=$(lua5.4 "$(command -v busted)" -o plainTerminal 2>&1 | grep -E '^[0-9]+ success' | sed -E 's/ : .*//')
  t=$("$bin" test 2>&1 | grep -E '^[0-9]+ success' | sed -E 's/ : .*//')
  [ -n "$b" ] && [ "$b" = "$t" ] && ok "$lib: busted's own summary matches ($t)" || bad "$lib: summary" "busted: $b / traitlab: $t"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

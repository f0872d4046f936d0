#!/usr/bin/env bash
# `traitlab test` is busted, on real libraries' suites: in each subfolder of
# $TRAITLAB_PARITY_SUITES (a checkout of one library, its busted suite as the
# library ships it), Debian's busted (run by lua5.4) and `traitlab test` run
# with the same arguments and must agree exactly:
#   - the TAP report, line by line (table addresses aside), in one process
#     and with -j 2 workers, and the exit status of each run;
#   - TraitLab's closing line "N passed, N failed[, N skipped]" counts what
#     the TAP report counts;
#   - busted's own summary of the plainTerminal report (successes, failures,
#     errors, pending) and its exit status.
# No library's code is part of this repository. Without the variable the test
# is skipped. To get suites (docs/contributing.md, "busted parity", lists more and what to expect):
#   mkdir -p /tmp/suites && cd /tmp/suites
#   git clone -q --depth 1 --branch v3.1.3 https://github.com/kikito/inspect.lua
#   git clone -q --depth 1 --branch v4.1.1 https://github.com/kikito/middleclass
#   git clone -q --depth 1 --branch v1.2.1 https://github.com/kikito/semver.lua
#   git clone -q --depth 1 --branch 1.15.0 https://github.com/lunarmodules/Penlight
#   TRAITLAB_PARITY_SUITES=/tmp/suites bash Tests/cli/busted_parity_test.sh .build/debug/traitlab
# TRAITLAB_PARITY_ARGS adds arguments to both runners (split on spaces), e.g.
# "--exclude-tags=unsafe". Busted's features, one by one on specs of our own:
# busted_features_test.sh.
# Usage: busted_parity_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: busted_parity_test.sh path/to/traitlab}")" && pwd)/$(basename "$1")
source "$(dirname "$0")/lib/expect.sh"
suites=${TRAITLAB_PARITY_SUITES:-}
if [ -z "$suites" ]; then
  echo "skip real libraries' busted suites (set TRAITLAB_PARITY_SUITES to a folder with one library checkout per subfolder)"
  finish; exit 0
fi
[ -d "$suites" ] || { bad "TRAITLAB_PARITY_SUITES=$suites is not a folder"; finish; exit 1; }
busted=$(command -v busted) || { bad "busted is not installed (bash scripts/setup.sh)"; finish; exit 1; }
read -r -a extra <<<"${TRAITLAB_PARITY_ARGS:-}"
normalize() { sed -E 's/0x[0-9a-f]+/0xADDR/g'; }
# busted's plainTerminal summary without its time: "3 successes / 0 failures / 0 errors / 1 pending".
summary() { grep -E '^[0-9]+ successe?s? / ' | tail -n 1 | sed -E 's/ : .*//'; }

libraries=0
for dir in "$suites"/*/; do
  [ -d "$dir" ] || continue
  lib=$(basename "$dir"); libraries=$((libraries + 1))
  cd "$dir" || { bad "$lib: cannot enter $dir"; continue; }

  expected=$(lua5.4 "$busted" "${extra[@]}" -o TAP 2>&1); b_status=$?
  expected=$(normalize <<<"$expected")
  n_skip=$(grep -c '^ok [0-9]* - # SKIP' <<<"$expected")
  n_ok=$(( $(grep -c '^ok ' <<<"$expected") - n_skip )); n_bad=$(grep -c '^not ok ' <<<"$expected")
  if [ $((n_ok + n_bad + n_skip)) -eq 0 ]; then
    bad "$lib: busted ran no test here (is this a library with a busted suite?)" "$expected"; continue
  fi
  closing_expected="$n_ok passed, $n_bad failed"; [ "$n_skip" -gt 0 ] && closing_expected="$closing_expected, $n_skip skipped"
  for jobs in 1 2; do
    got=$("$bin" test -j $jobs "${extra[@]}" -o TAP 2>&1); t_status=$?
    closing=$(tail -n 1 <<<"$got")
    report=$(sed '$d' <<<"$got" | normalize)
    [ "$report" = "$expected" ] && ok "$lib (-j $jobs): the same TAP report as busted ($n_ok ok, $n_bad not ok, $n_skip skipped)" \
      || bad "$lib (-j $jobs): TAP differs from busted's (< busted, > traitlab)" "$(diff <(echo "$expected") <(echo "$report"))"
    [ "$t_status" -eq "$b_status" ] && ok "$lib (-j $jobs): exit status $t_status, as busted's" \
      || bad "$lib (-j $jobs): exit status $t_status, busted's $b_status"
    [ "$closing" = "$closing_expected" ] && ok "$lib (-j $jobs): closing line '$closing'" \
      || bad "$lib (-j $jobs): closing line '$closing', the TAP report counts '$closing_expected'"
  done

  b=$(lua5.4 "$busted" "${extra[@]}" -o plainTerminal 2>&1); b_status=$?
  t=$("$bin" test "${extra[@]}" -o plainTerminal 2>&1); t_status=$?
  b=$(summary <<<"$b"); t=$(summary <<<"$t")
  [ -n "$b" ] && [ "$b" = "$t" ] && ok "$lib: busted's own summary matches ($t)" || bad "$lib: summary" "busted: $b"$'\n'"traitlab: $t"
  [ "$t_status" -eq "$b_status" ] && ok "$lib: plainTerminal exit status $t_status, as busted's" \
    || bad "$lib: plainTerminal exit status $t_status, busted's $b_status"
done
[ "$libraries" -gt 0 ] || bad "TRAITLAB_PARITY_SUITES=$suites has no subfolder"

finish

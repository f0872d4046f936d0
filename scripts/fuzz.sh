#!/usr/bin/env bash
# Fuzzes TraitLab for a bounded time: scripts/fuzz.sh [seconds] [lua|ops|both]
# (default 60 seconds, both targets, each getting half). Builds the libFuzzer
# target first (Fuzz/build.sh, scratch folder .build-fuzz). The corpus grows
# in .build-fuzz/corpus-TARGET, seeded from Fuzz/corpus/TARGET; crashes, leaks
# and timeouts are written to fuzz-out/ (not committed): turn each into a
# regression test, fix it, then delete it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
which=${2:-both}
case "$which" in
  lua|ops) targets=("$which"); per=$seconds ;;
  both) targets=(lua ops); per=$(( (seconds + 1) / 2 )) ;;
  *) echo "usage: scripts/fuzz.sh [seconds] [lua|ops|both]" >&2; exit 2 ;;
esac

bash Fuzz/build.sh 2>&1 | grep -v "Cannot export local symbol"
mkdir -p fuzz-out
status=0
for t in "${targets[@]}"; do
  corpus=.build-fuzz/corpus-$t
  mkdir -p "$corpus"
  dict=()
  [ "$t" = lua ] && dict=(-dict=Fuzz/lua.dict)
  echo "=== fuzzing $t for ${per}s"
  TRAITLAB_FUZZ_TARGET=$t ASAN_OPTIONS=detect_leaks=1 \
    .build-fuzz/traitlab-fuzz -max_total_time="$per" -timeout=20 -rss_limit_mb=4096 -max_len=4096 \
      -print_final_stats=1 -artifact_prefix="fuzz-out/$t-" "${dict[@]}" "$corpus" "Fuzz/corpus/$t" || status=$?
done
if [ "$status" -ne 0 ]; then echo "fuzzing found a problem: see fuzz-out/" >&2; fi
exit "$status"

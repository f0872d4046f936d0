# Shared by the command-line tests that check a command's status and output:
# `run CMD...` keeps them in $status and $out; `expect NAME STATUS REGEX...`
# passes when the status is STATUS and every grep -E pattern matches; the
# counts end as "N passed, N failed" with `finish`. `ok NAME` and `bad NAME
# [DETAILS]` count a check decided otherwise; a failure shows DETAILS, or the
# output of the last run.
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() {
  local details=${out-}
  [ $# -gt 1 ] && details=$2
  failed=$((failed + 1)); echo "FAIL $1"
  [ -z "$details" ] || printf '%s\n' "$details" | head -40 | sed 's/^/     /'
}
run() { out=$("$@" 2>&1); status=$?; }
expect() {
  local name=$1 want=$2; shift 2
  [ "$status" -eq "$want" ] || { bad "$name (exit status $status, expected $want)"; return; }
  for re in "$@"; do grep -Eq -- "$re" <<<"$out" || { bad "$name (no /$re/)"; return; }; done
  ok "$name"
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# For checks that read standard output and standard error apart, or test more
# than patterns: `run_apart CMD...` keeps them in $OUT and $ERR, the status in
# $RC and the wall time in seconds in $SECS (standard input empty; at most
# $RUN_TIMEOUT seconds, 60 unless set); `run_apart_stdin TEXT CMD...` gives it
# TEXT on standard input. `holds NAME CONDITION...` passes when CONDITION,
# shell code evaluated then, succeeds; `bad_apart NAME [LINE...]` fails NAME
# showing the LINEs, $RC, $OUT and $ERR.
run_apart() { run_apart_stdin "" "$@" </dev/null; }
run_apart_stdin() {
  local input=$1 errors start; shift
  errors=$(mktemp)
  start=$(date +%s.%N)
  if [ -n "$input" ]; then
    OUT=$(printf '%s' "$input" | timeout "${RUN_TIMEOUT:-60}" "$@" 2>"$errors"); RC=$?
  else
    OUT=$(timeout "${RUN_TIMEOUT:-60}" "$@" 2>"$errors" </dev/null); RC=$?
  fi
  SECS=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  ERR=$(cat "$errors"); rm -f "$errors"
  status=$RC
}
holds() { local name=$1; shift; if eval "$*"; then ok "$name"; else bad_apart "$name" "expected: $*"; fi; }
bad_apart() {
  local name=$1 o=${OUT-} e=${ERR-}; shift
  out=$( (($# > 0)) && printf '%s\n' "$@"; printf 'rc=%s\nstdout: %s\nstderr: %s' "${RC-}" "${o:0:800}" "${e:0:800}")
  bad "$name"
}

# Shared by the command-line tests that check a command's status and output:
# `run CMD...` keeps them in $status and $out; `expect NAME STATUS REGEX...`
# passes when the status is STATUS and every grep -E pattern matches; the
# counts end as "N passed, N failed" with `finish`.
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; echo "$out" | head -40 | sed 's/^/     /'; }
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

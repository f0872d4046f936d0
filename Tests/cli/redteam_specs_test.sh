#!/usr/bin/env bash
# Red-team cases for `traitlab test --sandbox` and for plugin loading: each
# folder in Tests/redteam/specs is copied into a scratch folder that also holds
# files a sandboxed run must never read (secret.env, secret.lua, carrying the
# marker "hunter2"), and `traitlab ARGS` runs there. A case passes when the
# process ends by itself (no signal, no guard timeout) with the expected exit
# status, prints no escape marker ("ESCAPED") and no secret, and matches the
# patterns of its case.conf:
#   args: test --sandbox -j 2     arguments of traitlab (quoted as in the shell)
#   exit: 1                       expected status (default 0)
#   stdout: REGEX / stderr: REGEX grep -E patterns the output must match
#   uses: CASE                    also copy that case's *_spec.lua files
#   setup: SHELL                  run in the case's folder first (links, binary chunks)
#   cwd: FOLDER                   run traitlab in that subfolder of the case
#   rss-mb: 61                    peak RSS in MB of the run (the process that
#                                 reports, or any of its workers) stays under
#   check: SHELL                  must succeed afterwards, run in the case's
#                                 folder with $OUT and $ERR naming the outputs
#                                 (a file outside untouched, the last line)
# Each case.conf starts with a comment naming the promise of docs/sandbox.md
# (or docs/cli.md) it attacks.
#
# usage: Tests/cli/redteam_specs_test.sh path/to/traitlab [case-name-substring]
set -u
TL=${1:?usage: redteam_specs_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
filter=${2:-}
here=$(cd "$(dirname "$0")/../redteam/specs" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4 TRAITLAB_PLUGIN_PATH
export HOME="$tmp" XDG_CONFIG_HOME="$tmp"

source "$here/../../cli/lib/expect.sh"
header() { sed -n "s/^$1: //p" "$2" | head -1; }
for dir in "$here"/*/; do
  name=$(basename "$dir")
  [ -n "$filter" ] && [[ $name != *"$filter"* ]] && continue
  conf="$dir/case.conf"
  work="$tmp/$name"
  cp -r "$dir" "$work"
  uses=$(header uses "$conf")
  if [ -n "$uses" ]; then cp "$here/$uses"/*_spec.lua "$work/"; fi
  printf 'SECRET_TOKEN="hunter2"\n' > "$work/secret.env"
  printf 'return { token = "hunter2" }\n' > "$work/secret.lua"
  setup=$(header setup "$conf")
  if [ -n "$setup" ]; then (cd "$work" && eval "$setup") >/dev/null 2>&1; fi
  args=$(header args "$conf")
  cwd=$(header cwd "$conf")
  check=$(header check "$conf")
  want_exit=$(header exit "$conf"); want_exit=${want_exit:-0}
  want_out=$(header stdout "$conf")
  want_err=$(header stderr "$conf")
  # shellcheck disable=SC2086
  (cd "$work/$cwd" && eval "set -- $args" && exec /usr/bin/time -f '%M' -o "$tmp/rss" timeout -s KILL 120 "$TL" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  rss_mb=$(( $(tail -1 "$tmp/rss" 2>/dev/null | grep -E '^[0-9]+$' || echo 0) / 1024 ))
  cap=$(header rss-mb "$conf")
  problems=()
  [ "$rc" -ge 124 ] && problems+=("killed or timed out (status $rc)")
  [ -n "$cap" ] && [ "$rss_mb" -gt "$cap" ] && problems+=("peak RSS $rss_mb MB over $cap MB")
  [ "$rc" -ne "$want_exit" ] && problems+=("exit status $rc, expected $want_exit")
  grep -q 'ESCAPED' "$tmp/out" "$tmp/err" && problems+=("escape marker in the output")
  grep -q 'hunter2' "$tmp/out" "$tmp/err" && problems+=("a secret reached the output")
  [ -n "$want_out" ] && ! grep -Eq -- "$want_out" "$tmp/out" && problems+=("stdout does not match /$want_out/")
  [ -n "$want_err" ] && ! grep -Eq -- "$want_err" "$tmp/err" && problems+=("stderr does not match /$want_err/")
  if [ -n "$check" ] && ! (cd "$work" && OUT="$tmp/out" ERR="$tmp/err" eval "$check") >/dev/null 2>&1; then
    problems+=("check failed: $check")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    ok "$name"
  else
    bad "$name" "$(printf '%s\n' "${problems[@]}"; echo "stdout: $(tail -c 600 "$tmp/out")"; echo "stderr: $(tail -c 600 "$tmp/err")")"
  fi
done
finish

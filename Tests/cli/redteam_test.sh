#!/usr/bin/env bash
# The red-team suite: each Tests/redteam/*.lua is a hostile script run in its
# own process. A case passes when the process ends by itself with the exit
# status its header names (never by a signal or the guard timeout), prints no
# escape marker ("ESCAPED") and no secret, matches the header's patterns, and
# its peak RSS stays under the header's cap. A case run with --memory-limit
# SIZE must also peak within the memory cap's promise: 3 x SIZE plus the peak
# RSS of an empty run with the same flags (measured beside it, in this run).
#
# Header lines (all optional, at the top of the file):
#   -- args: --sandbox --memory-limit 32M     flags before the script
#   -- exit: 1                                expected status (default 0)
#   -- stderr: REGEX                          grep -E pattern stderr must match
#   -- stdout: REGEX                          grep -E pattern stdout must match
#   -- rss-mb: 200                            peak RSS cap in MB (default 400)
#   -- seconds: 60                            guard timeout (default 60)
#   -- ulimit-v: 800000                       address-space limit in KB (ulimit -v),
#                                             so the system itself refuses memory
#
# The scripts run in a scratch folder holding files a sandboxed script must
# never read: secret.env (shell-style, parses as Lua), secret.lua, a binary
# chunk secret.luac, and plugins/evil.lua, all carrying the marker "hunter2".
#
# usage: Tests/cli/redteam_test.sh path/to/traitlab [case-name-substring]
# The last line is "N passed, N failed"; exit status 1 on any failure.
set -u

TL=${1:?usage: redteam_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
filter=${2:-}
here=$(cd "$(dirname "$0")/../redteam" && pwd)
[ -x "$TL" ] || { echo "not executable: $TL"; echo "0 passed, 1 failed"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4 TRAITLAB_PLUGIN_PATH
mkdir -p "$tmp/work/plugins" "$tmp/work/sub"
cd "$tmp/work"
printf 'SECRET_TOKEN="hunter2"\nDB_PASSWORD="hunter2"\n' > secret.env
printf 'return { token = "hunter2" }\n' > secret.lua
cp secret.lua sub/secret.lua
printf 'return { name = "evil", setup = function() SECRET = "hunter2" end }\n' > plugins/evil.lua
lua5.4 -e 'io.open("secret.luac", "wb"):write(string.dump(load("return \"hunter2\""))):close()' 2>/dev/null ||
  printf '\033LuaT\0hunter2' > secret.luac
export HOME="$tmp/work" XDG_CONFIG_HOME="$tmp/work"

source "$here/../cli/lib/expect.sh"
header() { sed -n "s/^-- $1: //p" "$2" | head -1; }
# A --memory-limit size (bytes, or with K, M or G) in KB.
size_kb() {
  local n=${1%[KkMmGg]}
  case $1 in *[Kk]) echo "$n" ;; *[Mm]) echo $((n * 1024)) ;; *[Gg]) echo $((n * 1024 * 1024)) ;; *) echo $((n / 1024)) ;; esac
}
# Peak RSS in KB of the command given, under the address-space limit $1 (or none).
peak_rss_kb() {
  local v=$1; shift
  (
    if [ -n "$v" ]; then ulimit -v "$v"; fi
    exec /usr/bin/time -f '%M' -o "$tmp/rss0" "$@"
  ) >/dev/null 2>&1 </dev/null
  tail -1 "$tmp/rss0" 2>/dev/null | grep -E '^[0-9]+$' || echo 0
}

for f in "$here"/*.lua; do
  name=$(basename "$f" .lua)
  [ -n "$filter" ] && [[ $name != *"$filter"* ]] && continue
  args=$(header args "$f")
  want_exit=$(header exit "$f"); want_exit=${want_exit:-0}
  want_err=$(header stderr "$f")
  want_out=$(header stdout "$f")
  cap=$(header rss-mb "$f"); cap=${cap:-400}
  secs=$(header seconds "$f"); secs=${secs:-60}
  vlimit=$(header ulimit-v "$f")
  # shellcheck disable=SC2086
  (
    if [ -n "$vlimit" ]; then ulimit -v "$vlimit"; fi
    exec /usr/bin/time -f '%M' -o "$tmp/rss" timeout -s KILL "$secs" "$TL" $args "$f"
  ) >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  rss_kb=$(tail -1 "$tmp/rss" 2>/dev/null | grep -E '^[0-9]+$' || echo 0)
  # /usr/bin/time reports a signal death as "Command terminated by signal N".
  signal=$(grep -o 'terminated by signal [0-9]*' "$tmp/rss" || true)
  problems=()
  [ -n "$signal" ] && problems+=("$signal")
  [ "$rc" -ge 124 ] && problems+=("killed or timed out (status $rc)")
  [ "$rc" -ne "$want_exit" ] && problems+=("exit status $rc, expected $want_exit")
  grep -q 'ESCAPED' "$tmp/out" "$tmp/err" && problems+=("escape marker in the output")
  grep -q 'hunter2' "$tmp/out" "$tmp/err" && problems+=("a secret file's contents reached the output")
  [ -n "$want_err" ] && ! grep -Eq -- "$want_err" "$tmp/err" && problems+=("stderr does not match /$want_err/")
  [ -n "$want_out" ] && ! grep -Eq -- "$want_out" "$tmp/out" && problems+=("stdout does not match /$want_out/")
  [ "$rss_kb" -gt $((cap * 1024)) ] && problems+=("peak RSS $((rss_kb / 1024)) MB over the $cap MB cap")
  limit=$(sed -n 's/.*--memory-limit \([0-9][0-9]*[KkMmGg]\{0,1\}\).*/\1/p' <<<"$args")
  if [ -n "$limit" ]; then
    # shellcheck disable=SC2086
    empty_kb=$(peak_rss_kb "$vlimit" "$TL" $args -e '')
    bound_kb=$((3 * $(size_kb "$limit") + empty_kb))
    [ "$rss_kb" -gt "$bound_kb" ] &&
      problems+=("peak RSS $((rss_kb / 1024)) MB over 3 x --memory-limit $limit plus the empty run's $((empty_kb / 1024)) MB ($((bound_kb / 1024)) MB)")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    ok "$name ($((rss_kb / 1024)) MB)"
  else
    bad "$name" "$(printf '%s\n' "${problems[@]}"; echo "stdout: $(head -c 400 "$tmp/out")"; echo "stderr: $(head -c 600 "$tmp/err")")"
  fi
done
finish

#!/usr/bin/env bash
# Lua's whole core test suite, testes/all.lua, in portable mode (_port = true:
# no tests of the stand-alone interpreter's command line or of non-portable
# features; see the head of all.lua), with traitlab as the interpreter, with
# and without --timeout. It must end as under lua5.4: exit 0, "final OK !!!",
# the same files run, and the finalizer all.lua leaves for the state's close
# printing ">>> closing state <<<". Among the files, db.lua asks
# debug.getinfo about a running finalizer and gc.lua checks what finalizers
# see: traitlab runs them exactly as lua5.4 does.
# The suite is not part of this repository: point LUA_TESTES at a checkout of
# Lua's testes folder for the installed lua5.4 (`lua5.4 -v`; tag v5.4.4 on
# Debian 12); without it the test is skipped. It runs in a scratch copy (the
# suite writes files next to itself).
# Usage: lua_testes_all_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: lua_testes_all_test.sh path/to/traitlab}")" && pwd)/$(basename "$1")
source "$(dirname "$0")/lib/expect.sh"
if [ -z "${LUA_TESTES:-}" ] || [ ! -f "$LUA_TESTES/all.lua" ]; then
  echo "skip Lua's testes/all.lua (set LUA_TESTES to Lua's testes folder to run it)"
  finish; exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4 TRAITLAB_PLUGIN_PATH
# all NAME INTERPRETER...: all.lua in a fresh copy; sets out and status.
all() {
  local name=$1; shift
  rm -rf "$work/$name"; cp -r "$LUA_TESTES" "$work/$name"
  out=$(cd "$work/$name" && timeout -s KILL 300 "$@" -e "_port = true" all.lua 2>&1 < /dev/null); status=$?
}
files() { grep -o "^\*\*\*\*\* FILE '[^']*'" <<<"$1"; }
finished() { [ "$status" -eq 0 ] && grep -q "^final OK !!!$" <<<"$out" && grep -q ">>> closing state <<<" <<<"$out"; }

all lua lua5.4; want_files=$(files "$out")
if finished; then
  ok "lua5.4 itself finishes testes/all.lua (the folder matches it): $(wc -l <<<"$want_files") files"
else
  bad "lua5.4 itself does not finish testes/all.lua in $LUA_TESTES (exit $status): wrong version?" "$(tail -n 15 <<<"$out")"
fi
for opt in "" "--timeout 600"; do
  # shellcheck disable=SC2086
  all traitlab "$bin" $opt
  if finished && [ "$(files "$out")" = "$want_files" ]; then
    ok "testes/all.lua finishes OK under traitlab $opt, the same files as lua5.4, the finalizer at close runs"
  else
    bad "testes/all.lua under traitlab $opt (exit $status)" "$(tail -n 15 <<<"$out")"
  fi
done
finish

#!/usr/bin/env bash
# Lua 5.4.4's own testes/main.lua (the stand-alone interpreter's test suite)
# with traitlab as the interpreter. The file is not part of this repository:
# point LUA_TESTES at a checkout of Lua's testes folder (tag v5.4.4) to run it;
# without it the suite is skipped. The checks that differ by design are
# rewritten first (docs/cli.md, "traitlab": the checks that differ by design):
#   - messages start with "traitlab:", not the interpreter's path;
#   - -h prints traitlab's help and exits 0 (lua5.4: "unrecognized option").
# Then a few files of the core suite that touch what the interpreter replaces.
# Usage: lua_testes_main_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: lua_testes_main_test.sh path/to/traitlab}")" && pwd)/$(basename "$1")
source "$(dirname "$0")/lib/expect.sh"
main=${LUA_TESTES:-}/main.lua
if [ -z "${LUA_TESTES:-}" ] || [ ! -f "$main" ]; then
  echo "skip Lua 5.4.4 testes/main.lua (set LUA_TESTES to Lua's testes folder to run it)"
  finish; exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$main" "$work/main.lua" <<'PY'
import sys
s = open(sys.argv[1]).read()
by_design = [
  ('NoRun(progname .. ": 6\\n", [[lua %s]], prog)', 'NoRun("traitlab: 6\\n", [[lua %s]], prog)'),
  ('NoRun("unrecognized option \'-h\'", "lua -h")',
   'RUN("lua -h > %s", out); assert(string.find(getoutput(), "usage: traitlab", 1, true))'),
]
for a, b in by_design:
    if a not in s:
        sys.exit("main.lua has changed: cannot find " + a)
    s = s.replace(a, b)
open(sys.argv[2], "w").write(s)
PY
[ $? -eq 0 ] || { bad "rewriting main.lua's checks that differ by design"; finish; exit 1; }
out=$(cd "$work" && "$bin" main.lua 2>&1); status=$?
if [ $status -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = "OK" ]; then
  ok "Lua 5.4.4 testes/main.lua passes with traitlab as the interpreter"
else
  bad "Lua 5.4.4 testes/main.lua (exit $status)" "$(tail -n 15 <<<"$out")"
fi
# The interpreter replaces coroutine.resume/wrap and xpcall (so that
# --timeout reaches coroutines and message handlers), and under --timeout
# swaps the allocator to stop finalizers: Lua's own tests of the collector,
# finalizers, coroutines and to-be-closed variables must still pass, with and
# without --timeout.
for f in gc.lua gengc.lua coroutine.lua locals.lua calls.lua errors.lua; do
  for opt in "" "--timeout 600"; do
    out=$(cd "$LUA_TESTES" && "$bin" $opt -e "_port = true" "$f" 2>&1); status=$?
    if [ $status -eq 0 ] && grep -qE "^\.*OK$" <<<"$out"; then
      ok "Lua 5.4.4 testes/$f passes under traitlab $opt"
    else
      bad "Lua 5.4.4 testes/$f under traitlab $opt (exit $status)" "$(tail -n 10 <<<"$out")"
    fi
  done
done
finish

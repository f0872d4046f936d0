#!/usr/bin/env bash
# `traitlab test` is busted, feature by feature: the specs in
# Tests/busted_features (our own, written for this test) use every busted and
# luassert feature that real libraries' suites rely on, and each command line
# below runs under Debian's busted (by lua5.4) and under `traitlab test` with
# the same arguments, in that folder. Both must give the same exit status and
# the same report: byte for byte for the text handlers and TAP, the same
# document for JSON and JUnit, with table addresses and timings masked. The
# closing line `N passed, N failed[, N skipped]` that TraitLab adds must count
# what busted's own summary counts (failures and errors both count as failed).
# Each case also checks busted's own summary against the counts written beside
# it, so a spec that stops exercising its feature (an option that no longer
# changes the outcome) fails here rather than comparing two empty runs.
#
# Source of truth: busted 2.1.1 and luassert 1.9 as Debian packages them
# (lua-busted, lua-luassert; /usr/share/lua/5.4/busted/modules/cli.lua for the
# options). Which features real suites use: docs/contributing.md ("busted parity").
# Usage: busted_features_test.sh path/to/traitlab
set -u
bin=$(cd "$(dirname "${1:?usage: busted_features_test.sh path/to/traitlab}")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../busted_features" && pwd)
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
source "$(dirname "$0")/lib/expect.sh"
busted=$(command -v busted) || { bad "busted is not installed (bash scripts/setup.sh)"; finish; exit 1; }

# Masks what differs from run to run: table addresses and timings (the text
# handlers' "N seconds", gtest's "(N ms)"). JSON and JUnit are compared as
# documents (their key and attribute order follows Lua's string hashing,
# which changes with every process) without their time fields.
cat > "$work/normalize.py" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8", errors="replace").read()
text = re.sub(r"0x[0-9a-f]+", "0xADDR", text)
if kind == "json":
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()
                    if k not in ("duration", "starttime", "endtime", "starttick", "endtick")}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    try:
        print(json.dumps(strip(json.loads(text)), indent=1, sort_keys=True))
    except ValueError as e:
        print("not JSON: %s\n%s" % (e, text))
elif kind == "junit":
    def canon(e, depth=0):
        attrs = {k: v for k, v in e.attrib.items() if k not in ("time", "timestamp")}
        out = ["%s<%s %s>" % (" " * depth, e.tag, json.dumps(attrs, sort_keys=True))]
        if (e.text or "").strip():
            out.append(e.text.strip())
        for c in e:
            out.extend(canon(c, depth + 1))
        return out
    try:
        print("\n".join(canon(ET.fromstring(text))))
    except ET.ParseError as e:
        print("not XML: %s\n%s" % (e, text))
else:
    text = re.sub(r"[0-9.e+-]+((\x1b\[[0-9;]*m)*) (seconds|secondes|Sekunden|seconden)", r"TIME\1 \3", text)
    text = re.sub(r"\([0-9.]+ ms( total)?\)", r"(TIME ms\1)", text)
    sys.stdout.write(text)
PY
norm() { python3 "$work/normalize.py" "$1" "$2"; }

# busted's summary line, "S F E P", the last one if the report has several
# (--repeat): "3 successes / 1 failure / 2 errors / 0 pending : ..." (in any
# --lang: "0 reussite / 10 echecs / ...").
summary_of() {
  sed -E 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^[0-9]+ [^/]+ / [0-9]+ [^/]+ / [0-9]+ [^/]+ / [0-9]+ [^:]+ : ' |
    tail -n 1 | sed -E 's#^([0-9]+) [^/]+ / ([0-9]+) [^/]+ / ([0-9]+) [^/]+ / ([0-9]+) .*#\1 \2 \3 \4#'
}

# compare NAME "S F E P"|- FORMATS -- ARGS...
# Runs ARGS under busted and `traitlab test` once per format:
#   plain  -o plainTerminal          tap    -o TAP
#   utf    -o utfTerminal -Xoutput --color      gtest  -o gtest -Xoutput --plain
#   json   -o json                   junit  -o junit
#   tapj2, jsonj2, junitj2  the same, traitlab with -j 2 (workers; the parent
#          replays their events into busted's handler)
#   asis   the handler ARGS or .busted choose (busted's default: utfTerminal)
#   list   ARGS hold --list: busted's list alone, no closing line
#   junitfile  -o junit -Xoutput FILE: the document goes to FILE
# The expected counts are checked on busted's plain report ("-": not checked);
# list "plain" first. The closing line must count what busted's summary counts
# (that of the plain run for formats without one), or be $CLOSING. With
# AS_COMMAND set, busted runs as the `busted` command itself (on the Lua its
# `#!/usr/bin/env lua` finds: Lua 5.1 on Debian) rather than by lua5.4.
compare() {
  local name=$1 want=$2 formats=$3; shift 4
  local f extra jobs kind closing_on plain_counts=
  for f in $formats; do
    jobs=(); kind=text; closing_on=stdout
    case $f in
      plain) extra=(-o plainTerminal) ;;
      tap)   extra=(-o TAP) ;;
      tapj2) extra=(-o TAP); jobs=(-j 2) ;;
      utf)   extra=(-o utfTerminal -Xoutput --color) ;;
      gtest) extra=(-o gtest -Xoutput --plain) ;;
      json)  extra=(-o json); kind=json; closing_on=stderr ;;
      jsonj2) extra=(-o json); jobs=(-j 2); kind=json; closing_on=stderr ;;
      junit) extra=(-o junit); kind=junit; closing_on=stderr ;;
      junitj2) extra=(-o junit); jobs=(-j 2); kind=junit; closing_on=stderr ;;
      asis)  extra=() ;;
      list)  extra=(); closing_on=none ;;
      junitfile) extra=(-o junit -Xoutput "$work/report.xml"); closing_on=stderr ;;
    esac
    rm -f "$work/report.xml" "$work/b.xml"
    local runner=(lua5.4 "$busted")
    [ -n "${AS_COMMAND:-}" ] && runner=("$busted")
    (cd "$root" && "${runner[@]}" "$@" "${extra[@]}" > "$work/b.out" 2> "$work/b.err"); local b_st=$?
    [ -f "$work/report.xml" ] && mv "$work/report.xml" "$work/b.xml"
    (cd "$root" && "$bin" test "${jobs[@]}" "$@" "${extra[@]}" > "$work/t.out" 2> "$work/t.err"); local t_st=$?
    local label="$name [$f]"
    # busted's counts: from this report's summary, or from the plain run
    # before it (TAP, JSON and JUnit have no summary line).
    local counts; counts=$(summary_of "$work/b.out")
    [ "$f" = plain ] && plain_counts=$counts
    [ -n "$counts" ] || counts=$plain_counts
    if [ "$f" = plain ] && [ "$want" != - ]; then
      [ "$counts" = "$want" ] && ok "$label: busted counts $want (successes failures errors pending)" \
        || bad "$label: busted counts '$counts', the spec expects '$want'" "$(cat "$work/b.out" "$work/b.err")"
    fi
    [ "$b_st" -eq "$t_st" ] && ok "$label: exit status $t_st, as busted's" \
      || bad "$label: exit status $t_st, busted's $b_st" "$(cat "$work/t.out" "$work/t.err")"
    # The closing line: where the format puts it, taken off before comparing.
    if [ "$closing_on" != none ]; then
      local from="$work/t.$([ "$closing_on" = stdout ] && echo out || echo err)"
      local closing; closing=$(tail -n 1 "$from")
      sed -i '$d' "$from"
      if [ -n "${CLOSING:-}" ]; then
        [ "$closing" = "$CLOSING" ] && ok "$label: closing line '$closing'" \
          || bad "$label: closing line '$closing', wanted '$CLOSING'"
      elif [ -n "$counts" ]; then
        local s fl e p expected
        read -r s fl e p <<<"$counts"
        expected="$s passed, $((fl + e)) failed"; [ "$p" -gt 0 ] && expected="$expected, $p skipped"
        [ "$closing" = "$expected" ] && ok "$label: closing line '$closing'" \
          || bad "$label: closing line '$closing', busted's counts say '$expected'"
      fi
    elif grep -q ' passed, [0-9]* failed' "$work/t.out" "$work/t.err"; then
      bad "$label: a closing line where busted prints its list alone" "$(cat "$work/t.out")"
    fi
    local diffs
    if [ "$f" = junitfile ]; then
      diffs=$(diff <(norm junit "$work/b.xml") <(norm junit "$work/report.xml"))
      [ -s "$work/b.xml" ] && [ -z "$diffs" ] && ok "$label: the same document in the file as busted's" \
        || bad "$label: the file differs from busted's (< busted, > traitlab)" "$diffs"
    fi
    if [ "$kind" != text ] && norm "$kind" "$work/b.out" | head -n 1 | grep -q '^not '; then
      bad "$label: busted wrote no $kind document to compare with" "$(cat "$work/b.out" "$work/b.err")"
    fi
    diffs=$(diff <(norm "$kind" "$work/b.out") <(norm "$kind" "$work/t.out"))
    [ -z "$diffs" ] && ok "$label: the same standard output as busted" \
      || bad "$label: standard output differs from busted's (< busted, > traitlab)" "$diffs"
    diffs=$(diff <(norm text "$work/b.err") <(norm text "$work/t.err"))
    [ -z "$diffs" ] && ok "$label: the same standard error as busted" \
      || bad "$label: standard error differs from busted's (< busted, > traitlab)" "$diffs"
  done
}

# --------------------------------------------- blocks, assertions, doubles
# The default task of .busted (spec/, with lib/ on the path from `_all`).
compare "spec/ by .busted's default task" "45 0 0 3" "plain tap tapj2 utf gtest junit junitj2 asis" --
# busted 2.1.1's JSON handler cannot encode a pending test (README), so JSON
# runs the spec files that have none.
compare "spec/ without pending tests" "35 0 0 0" "plain json jsonj2" -- --exclude-pattern=blocks
compare "one spec file named" "8 0 0 0" "plain tap" -- spec/asserts_spec.lua
# busted leaves pending tests out of its report and its counts; TraitLab's
# closing line still counts them (", 3 skipped").
CLOSING="45 passed, 0 failed, 3 skipped" compare "--suppress-pending" "45 0 0 0" "plain tap" -- --suppress-pending
compare "--no-recursive leaves spec/nested out" "44 0 0 3" "plain" -- --no-recursive

# ------------------------------------------------------ failures and errors
compare "-r failing: every kind of failure and error" "3 10 11 0" "plain tap tapj2 utf gtest junit junitj2" -- -r failing
compare "failures without the file that errs at its top level" "3 10 10 0" "plain json jsonj2" \
  -- -r failing --exclude-pattern=toplevel
compare "--verbose on failures" "3 10 11 0" "plain" -- -r failing --verbose
compare "--lang=fr: busted's report in French" "0 10 4 0" "plain" -- --lang=fr failing/failures_spec.lua
compare "--no-keep-going stops at the first failure" "0 1 0 0" "plain tap" -- -r failing --no-keep-going

# ------------------------------------------------------- choosing the tests
compare "--filter" "3 0 0 0" "plain tap" -- --filter="^stubs"
compare "--filter-out" "42 0 0 3" "plain" -- --filter-out="^stubs"
compare "--tags (#fast)" "4 0 0 0" "plain tap" -- --tags=fast
compare "--exclude-tags" "41 0 0 3" "plain" -- --exclude-tags=fast
compare "-r fast: a task that sets tags" "4 0 0 0" "plain" -- -r fast
compare "-r gtest: a task that sets the handler and --verbose" "45 0 0 3" "plain asis" -- -r gtest
compare "--run= (long form) of -r" "3 10 11 0" "plain" -- --run=failing
compare "-t (short --tags)" "4 0 0 0" "plain" -- -t fast
compare "-p (short --pattern)" "9 0 0 0" "plain" -- -p doubles
compare "--pattern" "9 0 0 0" "plain" -- --pattern=doubles
compare "--exclude-pattern" "36 0 0 3" "plain" -- --exclude-pattern=doubles
compare "--list" - "list" -- --list
compare "--list with --tags" - "list" -- --list --tags=fast
compare "--loaders=lua" "45 0 0 3" "plain" -- --loaders=lua
compare "--cpath" "45 0 0 3" "plain" -- --cpath='./csrc/?.so'
compare "--ignore-lua (no .busted lua setting: nothing changes)" "45 0 0 3" "plain" -- --ignore-lua
compare "-s (busted's sound handler: espeak's output goes nowhere)" "45 0 0 3" "plain" -- -s

# ------------------------------------------------------- order and repeats
# A seed orders tests as under the `busted` command, which runs on Lua 5.1 and
# draws with Lua 5.1's math.random (docs/cli.md, "Order and seeds"): these
# compare with that command. (order_spec.lua is Lua 5.1 as well as 5.4; the
# whole folder is not, so the order of its files is compared by --list.)
for seed in 42 7 1 2026; do
  AS_COMMAND=1 compare "--shuffle --seed=$seed, as the busted command" "11 0 0 0" "plain tap" -- --shuffle --seed=$seed options/order_spec.lua
done
AS_COMMAND=1 compare "randomize() with --seed, as the busted command" "11 0 0 0" "plain" -- --seed=7 options/order_spec.lua
AS_COMMAND=1 compare "--shuffle-tests --seed, as the busted command" "11 0 0 0" "plain" -- --shuffle-tests --seed=99 options/order_spec.lua
AS_COMMAND=1 compare "--shuffle-files --seed, as the busted command" - "list" -- --shuffle-files --seed=3 --list
AS_COMMAND=1 compare "--shuffle --seed=12345, as the busted command" - "list" -- --shuffle --seed=12345 --list
compare "--sort" "11 0 0 0" "plain tap" -- --sort options/order_spec.lua
compare "--sort-tests" "11 0 0 0" "plain" -- --sort-tests options/order_spec.lua
compare "--sort-files" "45 0 0 3" "plain tap" -- --sort-files
compare "--repeat=3" "1 0 0 0" "plain tap" -- --repeat=3 options/repeat_spec.lua

# ----------------------------------------------------- options that change outcomes
# Each pair: the option makes the spec pass; without it the spec fails.
compare "--lazy skips the setup of a describe with no test to run" "1 0 0 0" "plain" \
  -- --lazy --exclude-tags=skipped options/lazy_spec.lua
compare "without --lazy that setup runs" "0 1 0 0" "plain" -- --exclude-tags=skipped options/lazy_spec.lua
compare "--no-auto-insulate lets a file see the globals of the one before" "3 0 0 0" "plain" \
  -- --no-auto-insulate options/leak_a_spec.lua options/leak_b_spec.lua
compare "files are insulated by default" "1 2 0 0" "plain" -- options/leak_a_spec.lua options/leak_b_spec.lua
compare "-e runs a statement first" "1 0 0 0" "plain tap tapj2" -- -e 'from_e = "set by -e"' options/exec_spec.lua
compare "without -e" "0 1 0 0" "plain" -- options/exec_spec.lua
compare "--helper with -Xhelper options and busted events" "1 0 0 0" "plain tap" \
  -- --helper=helpers/announce.lua -Xhelper first,second options/helper_spec.lua
compare "--lpath" "1 0 0 0" "plain" -- --lpath=./alt/?.lua options/lpath_spec.lua
compare "-m (short --lpath)" "1 0 0 0" "plain" -- -m ./alt/?.lua options/lpath_spec.lua
compare "without --lpath" "0 0 1 0" "plain" -- options/lpath_spec.lua
compare "-f: another configuration file" "1 0 0 0" "plain" -- -f options/config.lua
compare "--config-file= (long form)" "1 0 0 0" "plain" -- --config-file=options/config.lua
compare "-C: change directory first" "1 0 0 0" "plain tap" -- -C spec nested
compare "--directory= (long form)" "1 0 0 0" "plain" -- --directory=spec nested
compare "arg: busted's command line, and the command that runs Lua below arg[0]" "2 0 0 0" "plain" \
  -- options/arg_spec.lua
# --version differs on purpose: traitlab test names TraitLab's, Lua's and
# busted's versions on one line (docs/cli.md), busted's own among them.
busted_version=$(cd "$root" && lua5.4 "$busted" --version 2>&1)
out=$(cd "$root" && "$bin" test --version 2>&1); status=$?
expect "--version names TraitLab and Lua, and busted's own version ($busted_version)" 0 '^TraitLab ' 'Lua 5\.4' "busted ${busted_version//./\\.}\$"

# ---------------------------------------------------------- printing, handlers
compare "print from specs" "1 1 0 0" "plain tap" -- options/print_spec.lua
compare "--defer-print" "1 1 0 0" "plain" -- --defer-print options/print_spec.lua
compare "-o: a handler of our own, by file, with -Xoutput" "45 0 0 3" "plain asis" -- -o handlers/lines.lua -Xoutput '#'
compare "-o: a handler of our own, by module name" "3 10 11 0" "plain asis" -- -o handlers.lines -r failing
compare "-o junit -Xoutput FILE" "8 0 0 0" "plain junitfile" -- spec/asserts_spec.lua

finish

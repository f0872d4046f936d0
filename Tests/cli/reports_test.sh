#!/usr/bin/env bash
# Every report format is a valid document that counts one result per test,
# whatever the tests are named (Tests/fixtures/reports/hostile_spec.lua: line
# breaks, a "# SKIP" inside a name, characters XML forbids, bytes that are not
# UTF-8), checked with real parsers: TAP::Parser (Perl's, which prove uses)
# for TAP, Python's XML parser for JUnit and its JSON parser for JSON; in a
# single run, with -j 2 and in a matrix of two combinations.
#
# usage: Tests/cli/reports_test.sh path/to/traitlab
set -u
TL=${1:?usage: reports_test.sh path/to/traitlab}
case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib/expect.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/../fixtures/reports/hostile_spec.lua" "$tmp/"
cd "$tmp" || exit 1

# The three ways a report is made: one process, -j 2, a matrix of two
# combinations (whose runs count twice).
mode_options() {
  case $1 in
    single) extra=() ; runs=1 ;;
    j2) extra=(-j 2) ; runs=1 ;;
    matrix) extra=(--ios 17,26) ; runs=2 ;;
  esac
}

# 5 tests per run: 1 passed, 3 failed, 1 pending.
for mode in single j2 matrix; do
  mode_options "$mode"

  "$TL" test "${extra[@]}" --format tap hostile_spec.lua >out.tap 2>/dev/null
  if perl -MTAP::Parser -e '
      my $p = TAP::Parser->new({ source => $ARGV[0] });
      while (my $r = $p->next) {}
      my @plans = grep { $_->is_plan } ();
      printf "%d %d %d %d %d\n", $p->tests_run, scalar($p->passed), scalar($p->failed),
        scalar($p->skipped), scalar($p->parse_errors);
      ' out.tap >tap.counts 2>&1; then
    read -r run pass fail skip errors <tap.counts
    want_run=$((5 * runs)) want_fail=$((3 * runs)) want_skip=$((1 * runs))
    if [ "$run" = "$want_run" ] && [ "$fail" = "$want_fail" ] && [ "$skip" = "$want_skip" ] && [ "$errors" = 0 ]; then
      ok "TAP ($mode): TAP::Parser reads $run tests, $fail failed, $skip skipped, no parse error"
    else
      bad "TAP ($mode): TAP::Parser reads run=$run failed=$fail skipped=$skip errors=$errors (want $want_run, $want_fail, $want_skip, 0)" "$(cat out.tap)"
    fi
  else
    bad "TAP ($mode): TAP::Parser failed" "$(cat tap.counts)"
  fi

  "$TL" test "${extra[@]}" --format junit hostile_spec.lua >out.xml 2>/dev/null
  if python3 - out.xml $((5 * runs)) >junit.result 2>&1 <<'PY'
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
cases = doc.getElementsByTagName('testcase')
assert len(cases) == int(sys.argv[2]), f"{len(cases)} testcases"
failed = sum(1 for c in cases if c.getElementsByTagName('failure') or c.getElementsByTagName('error'))
skipped = sum(1 for c in cases if c.getElementsByTagName('skipped'))
print(len(cases), failed, skipped)
PY
  then
    ok "JUnit ($mode): a well-formed document with one testcase per test ($(cat junit.result))"
  else
    bad "JUnit ($mode): not a well-formed document of the tests" "$(cat junit.result)"
  fi

  "$TL" test "${extra[@]}" --format json hostile_spec.lua >out.json 2>/dev/null
  if python3 - out.json $runs >json.result 2>&1 <<'PY'
import sys, json
data = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))   # strict UTF-8
runs = int(sys.argv[2])
counts = (len(data['successes']), len(data['failures']) + len(data['errors']), len(data['pendings']))
assert counts == (1 * runs, 3 * runs, 1 * runs), counts
print(*counts)
PY
  then
    ok "JSON ($mode): UTF-8 text a JSON parser reads, one entry per test ($(cat json.result))"
  else
    bad "JSON ($mode): not JSON of the tests" "$(cat json.result)"
  fi
done

# The text report's closing line counts the same.
run "$TL" test hostile_spec.lua
expect "text: the closing line counts one result per test" 1 '^1 passed, 3 failed, 1 skipped$'

# A file that does not load is an error of its own, which TAP reports like any
# other failure and goes on: busted 2.1.1's TAP handler reads a trace such an
# error does not have (outputHandlers/TAP.lua, showFailure) and stopped the
# run there, with no plan and no closing line. In a matrix its name starts
# with the combination, in every format.
mkdir -p broken
echo 'it("passes before", function() end)' > broken/a_spec.lua
echo 'this is not lua' > broken/b_spec.lua
echo 'it("passes after", function() end)' > broken/c_spec.lua
for mode in single j2 matrix; do
  mode_options "$mode"
  "$TL" test "${extra[@]}" --format tap broken >broken.tap 2>&1
  counts=$(perl -MTAP::Parser -e '
      my $p = TAP::Parser->new({ source => $ARGV[0] });
      while (my $r = $p->next) {}
      printf "%d %d %d", $p->tests_run, scalar($p->failed), scalar($p->parse_errors);' broken.tap 2>&1)
  if [ "$counts" = "$((3 * runs)) $runs 0" ] && [ "$(tail -1 broken.tap)" = "$((2 * runs)) passed, $runs failed" ] \
     && ! grep -q "busted stopped" broken.tap; then
    ok "TAP ($mode): a file that does not load is one failure, and the run goes on ($counts)"
  else
    bad "TAP ($mode): a file that does not load" "$counts
$(cat broken.tap)"
  fi
done
"$TL" test --ios 17,26 --format tap broken >broken.tap 2>&1
"$TL" test --ios 17,26 --format junit broken >broken.xml 2>/dev/null
"$TL" test --ios 17,26 --format json broken >broken.json 2>/dev/null
if grep -q '^not ok [0-9]* - \[iOS 17\] broken/b_spec.lua$' broken.tap && grep -q '^not ok [0-9]* - \[iOS 26\] broken/b_spec.lua$' broken.tap \
   && grep -q '^# broken/b_spec.lua @ 1$' broken.tap \
   && python3 - broken.xml broken.json <<'PY'
import sys, json, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
names = sorted(c.getAttribute('name') for c in doc.getElementsByTagName('testcase') if c.getElementsByTagName('error'))
assert names == ['[iOS 17] broken/b_spec.lua', '[iOS 26] broken/b_spec.lua'], names
suites = [s.getAttribute('name') for s in doc.getElementsByTagName('testsuite')]
assert '[iOS 17] broken/b_spec.lua' in suites and '[iOS 26] broken/b_spec.lua' in suites, suites
data = json.load(open(sys.argv[2]))
assert sorted(e['name'] for e in data['errors']) == names, data['errors']
PY
then
  ok "a matrix names the combination of a file that does not load (TAP, JUnit, JSON)"
else
  bad "a matrix names the combination of a file that does not load" "$(cat broken.tap)"
fi
finish

#!/usr/bin/env bash
# References that must point somewhere, over the repository's text (sources,
# tests, examples, scripts, docs; not the build folders): Markdown links to
# files and headings that exist; references written out in comments and
# prose (a docs or README path with an anchor or a quoted heading) to
# headings that exist; no citation of a specification the repository does not
# have; no issue numbers, no rounds of a review. Tests/cli/lib/references.lua is the
# checker and says exactly what each check reads; each finding is printed as
# FILE:LINE. The checker is first run over Tests/fixtures/references, whose
# bad references are there on purpose (and left out of the repository's scan).
#
# usage: Tests/cli/references_test.sh [path/to/traitlab]
# The checker runs under lua5.4, or under the traitlab given when there is none.
# Last line: "N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
TL=${1:-}
case $TL in "" | /*) ;; *) TL="$PWD/$TL" ;; esac
cd "$root"
source Tests/cli/lib/expect.sh

lua=$(command -v lua5.4 || true)
[ -n "$lua" ] || lua=$TL
if [ -z "$lua" ] || [ ! -x "$lua" ]; then
  echo "FAIL lua5.4 is not installed and no traitlab was given to run the checker"
  echo "0 passed, 1 failed"
  exit 1
fi
checker=$root/Tests/cli/lib/references.lua
checks=(links sections files spec wording)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The fixtures write the name of the document a citation must not name as
# @SPEC@, so that the repository itself cites nothing; a copy with the name
# put back is what the checker reads.
cp -r Tests/fixtures/references "$tmp/fixtures"
sed -i 's/@SPEC@/SPEC/g' "$tmp/fixtures/bad.lua" "$tmp/fixtures/expected.txt"
fixtures=$tmp/fixtures

# check ROOT CHECK LIST: the checker over the files LIST names, from ROOT.
check() { run "$lua" "$checker" "$1" "$2" <"$3"; }

# --- The checker, on references known good and known bad ----------------------
# good.list names the files whose every reference resolves; bad.list those
# with one bad reference of each kind, and expected.txt what each check finds.
for c in "${checks[@]}"; do
  check "$fixtures" "$c" "$fixtures/good.list"
  expect "$c: every good form in the fixtures passes" 0 '^$'
done
for c in "${checks[@]}"; do
  check "$fixtures" "$c" "$fixtures/bad.list"
  want=$(sed -n "s/^$c //p" "$fixtures/expected.txt")
  name="$c: finds exactly the fixtures' bad references ($(grep -c "^$c " "$fixtures/expected.txt"))"
  if [ "$status" -eq 1 ] && [ -n "$want" ] && [ "$out" = "$want" ]; then ok "$name"; else
    out=$(diff <(echo "$want") <(echo "$out")); bad "$name (exit status $status; diff expected found below)"; fi
done

# --- The repository -------------------------------------------------------------
find . \( -name '.build*' -o -name .git -o -name .swiftpm -o -path ./Tests/fixtures/references \) -prune -o -type f \
  \( -name '*.swift' -o -name '*.c' -o -name '*.h' -o -name '*.lua' -o -name '*.sh' -o -name '*.md' \
     -o -name '*.dict' -o -name .busted -o -name .luacheckrc \) -print | sed 's|^\./||' | sort >"$tmp/files"
count=$(wc -l <"$tmp/files")
check . links "$tmp/files"
expect "Markdown links point to files and headings that exist ($count files read)" 0
check . sections "$tmp/files"
expect "references written out point to docs and README headings that exist" 0
check . files "$tmp/files"
expect "every docs/ path named exists" 0
check . spec "$tmp/files"
expect "nothing cites a specification the repository does not have" 0
check . wording "$tmp/files"
expect "no issue numbers, no rounds of a review" 0

finish

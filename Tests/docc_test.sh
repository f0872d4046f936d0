#!/usr/bin/env bash
# TraitEngine's DocC documentation (Sources/TraitEngine/TraitEngine.docc):
# `swift package generate-documentation --target TraitEngine` builds it without
# a warning (a broken link, a parameter documented that does not exist), and
# every public symbol has a summary (DocC's coverage report, compiler-
# synthesized conformances aside). Built in .build-docs/, apart from the main
# build. usage: Tests/docc_test.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
source Tests/cli/lib/expect.sh
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
docs=(swift package --scratch-path .build-docs generate-documentation --target TraitEngine)
# `swift package` itself has been seen to die by a signal inside libdispatch
# (status 139, nothing of DocC's run yet): such a run is tried once more.
run_docs() {
  run "$@"
  if [ "$status" -ge 128 ]; then echo "(swift package ended by signal $((status - 128)); running it again)"; run "$@"; fi
}

run_docs "${docs[@]}"
warnings=$(grep -E "warning:" <<<"$out")
if [ "$status" -ne 0 ]; then
  bad "generate-documentation --target TraitEngine (exit status $status)"
elif [ -n "$warnings" ]; then
  out=$(grep -E -A6 "warning:" <<<"$out")
  bad "generate-documentation --target TraitEngine prints no warning ($(wc -l <<<"$warnings") warnings)"
else
  ok "generate-documentation --target TraitEngine builds the catalogue without warnings"
fi

# Coverage: "| Swift |" rows of the detailed summary are
# name | kind | has abstract | curated | code listing | parameters | language | link.
run_docs "${docs[@]}" --experimental-skip-synthesized-symbols \
  --experimental-documentation-coverage --coverage-summary-level detailed
missing=$(awk -F'|' '$7 ~ /Swift/ && $3 ~ /false/ && $2 !~ /Article|CollectionGroup/ { gsub(/ +/, " "); print $2 $8 }' <<<"$out")
rows=$(awk -F'|' '$7 ~ /Swift/' <<<"$out" | wc -l)
if [ "$status" -ne 0 ] || [ "$rows" -lt 100 ]; then
  bad "DocC's coverage report (exit status $status, $rows symbols listed)"
elif [ -n "$missing" ]; then
  out=$missing
  bad "every public symbol of TraitEngine is documented ($(wc -l <<<"$missing") without a summary)"
else
  ok "every public symbol of TraitEngine is documented ($rows listed)"
fi

run grep -F "Sources/TraitEngine/TraitEngine.docc" docs/swift-library.md
expect "docs/swift-library.md links to the DocC catalogue" 0 "TraitEngine\.docc"

finish

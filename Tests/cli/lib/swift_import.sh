# Builds traitlab-swift-import (scripts/build-swift-import.sh; swift-syntax)
# for the tests that run `traitlab swift import`, and tells a traitlab that
# does not have the program beside it where it is. Needs $TL (the traitlab
# under test) and $tmp (a scratch folder); on a failed build it reports and
# ends the suite. Source after Tests/cli/lib/expect.sh.
use_swift_import() {
  local built
  if ! built=$(bash scripts/build-swift-import.sh 2>"$tmp/build.log"); then
    tail -30 "$tmp/build.log"
    bad "building traitlab-swift-import"; finish; exit 1
  fi
  # traitlab finds the program beside itself; a traitlab elsewhere is told where.
  [ -x "$(dirname "$TL")/traitlab-swift-import" ] || export TRAITLAB_SWIFT_IMPORT="$built"
}

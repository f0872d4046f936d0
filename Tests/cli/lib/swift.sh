# Shared by the tests of `traitlab swift` (swift_export_test.sh,
# swift_import_test.sh, swift_roundtrip_test.sh).

# swift_test_start NAME TRAITLAB [UNSET...]: $TL is TRAITLAB made absolute,
# the repository is the working folder, Tests/cli/lib/expect.sh's checks are
# loaded, swift is on PATH, TRAITLAB_PLUGIN_PATH and the UNSET variables come
# from nowhere outside, and $tmp is a scratch folder removed at exit. A
# TRAITLAB that cannot run ends the suite.
swift_test_start() {
  local name=$1; shift
  TL=${1:?usage: $name path/to/traitlab}; shift
  case $TL in /*) ;; *) TL="$PWD/$TL" ;; esac
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  cd "$root" || exit 1
  source Tests/cli/lib/expect.sh
  out=""
  [ -x "$TL" ] || { bad "not executable: $TL"; finish; exit 1; }
  command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
  unset TRAITLAB_PLUGIN_PATH "$@"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# use_swift_import: builds traitlab-swift-import (scripts/build-swift-import.sh;
# swift-syntax) for the tests that run `traitlab swift import`, and tells a
# traitlab that does not have the program beside it where it is. On a failed
# build it reports and ends the suite.
use_swift_import() {
  local built
  if ! built=$(bash scripts/build-swift-import.sh 2>"$tmp/build.log"); then
    tail -30 "$tmp/build.log"
    bad "building traitlab-swift-import"; finish; exit 1
  fi
  # traitlab finds the program beside itself; a traitlab elsewhere is told where.
  [ -x "$(dirname "$TL")/traitlab-swift-import" ] || export TRAITLAB_SWIFT_IMPORT="$built"
}

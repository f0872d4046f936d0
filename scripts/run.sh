#!/usr/bin/env bash
# One command for a new user: set up, build traitlab (release) and run the
# bundled tour. Extra arguments go to traitlab instead of the tour.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product traitlab
swift build -c release --product TraitLabModule
bin="$(swift build -c release --show-bin-path)/traitlab"
echo "traitlab built at $bin"
if [ $# -gt 0 ]; then exec "$bin" "$@"; fi
exec "$bin" examples/tour.lua

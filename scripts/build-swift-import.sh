#!/usr/bin/env bash
# Builds traitlab-swift-import (the SwiftImport package, which needs
# swift-syntax) and links it beside each traitlab binary built so far
# (.build/debug, .build/release; the debug folder when there is none yet),
# where `traitlab swift import` looks for it.
#   bash scripts/build-swift-import.sh [--release]
# The importer is built for debugging unless --release is given: swift-syntax
# takes about 2 minutes that way and about 10 for release here (docs/swift.md),
# and a debug importer reads an app's sources in well under a second.
# Prints the path of the program built.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh >/dev/null
config=debug
case "${1:-}" in
  "") ;;
  --release) config=release ;;
  *) echo "usage: $0 [--release]" >&2; exit 2 ;;
esac
build=(swift build -c "$config" --package-path SwiftImport --scratch-path .build-swift-import)
"${build[@]}" --product traitlab-swift-import >&2
built="$("${build[@]}" --show-bin-path)/traitlab-swift-import"
linked=0
for c in debug release; do
  bin="$(swift build -c "$c" --show-bin-path)"
  if [ -x "$bin/traitlab" ]; then ln -sf "$built" "$bin/traitlab-swift-import"; linked=1; fi
done
if [ "$linked" -eq 0 ]; then
  bin="$(swift build -c debug --show-bin-path)"
  mkdir -p "$bin"
  ln -sf "$built" "$bin/traitlab-swift-import"
fi
echo "$built"

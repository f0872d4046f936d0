#!/usr/bin/env bash
# Builds traitlab-swift-import (the SwiftImport package, which needs
# swift-syntax) and links it beside the traitlab binary of the same
# configuration, where `traitlab swift import` looks for it.
#   bash scripts/build-swift-import.sh [debug|release]     (default: debug)
# swift-syntax makes the first build slow (about 2 minutes for debug on two
# cores, see docs/swift.md); later builds are incremental. Prints the path of
# the linked program.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh >/dev/null
config=${1:-debug}
case "$config" in debug|release) ;; *) echo "usage: $0 [debug|release]" >&2; exit 2 ;; esac
swift build -c "$config" --package-path SwiftImport --scratch-path .build-swift-import --product traitlab-swift-import >&2
built="$(swift build -c "$config" --package-path SwiftImport --scratch-path .build-swift-import --show-bin-path)/traitlab-swift-import"
bin="$(swift build -c "$config" --show-bin-path)"
mkdir -p "$bin"
ln -sf "$built" "$bin/traitlab-swift-import"
echo "$bin/traitlab-swift-import"

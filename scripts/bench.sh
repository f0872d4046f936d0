#!/usr/bin/env bash
# Builds TraitLab in release mode and prints the benchmark table: figures,
# ratios measured side by side, and the performance targets (see
# docs/performance.md). Arguments go to traitlab-bench: --quick for a run of
# seconds, --no-targets to leave timing targets unjudged.
# TRAITLAB_BUILD_PATH picks the build folder (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build=(-c release --scratch-path "${TRAITLAB_BUILD_PATH:-.build}")
swift build "${build[@]}"
bin="$(swift build "${build[@]}" --show-bin-path)"
exec "$bin/traitlab-bench" "$@"

#!/usr/bin/env bash
# The Swift tests under AddressSanitizer with leak detection, in their own
# scratch folder (.build-asan). Extra arguments go to `swift test` (--filter).
#
# LeakSanitizer's check runs when the last test has finished (see
# TestObserver in Tests/TraitEngineTests/TestSupport.swift), not at exit,
# where XCTest's own leftovers would bury real reports. scripts/lsan.supp
# hides the one false report left (an XCTest weak-reference side table).
# Ends with XCTest's summary; the status is non-zero on a failure, an ASan
# error or a leak.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh || exit 1
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# The linker warns about every sanitizer helper symbol; only errors matter.
swift build --build-tests --sanitize=address --scratch-path .build-asan 2>&1 \
  | grep -v "Cannot export local symbol" | tail -n 20
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "AddressSanitizer build failed"; echo "0 passed, 1 failed"; exit 1; }
swift test --skip-build --sanitize=address --scratch-path .build-asan "$@"

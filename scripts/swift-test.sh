#!/usr/bin/env bash
# The Swift suites beside a throwaway PostgreSQL cluster (scripts/with-postgres.sh), on `make
# test`'s build (scripts/test-build.sh, run beforehand). When a test fails, its issues are printed once more
# at the very end: a CI log that keeps only its tail then still says which test failed and why,
# not just "failed with 2 issues". The whole output is kept in .build/swift-test.log.
#
#   scripts/swift-test.sh [swift test options…]      e.g. --filter LiveRegionTests
set -uo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
log=.build/swift-test.log
mkdir -p .build

scripts/with-postgres.sh "$swift_sh" test "${test_build_flags[@]}" --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "==== The failures again (the whole output is in $log) ===="
    # Swift Testing: "✘ Test … recorded an issue at File.swift:12:5: …" and its "↳" details;
    # XCTest: "…: error: -[Suite test] : …"; a crash: "Fatal error", "signal".
    grep -E '✘|↳|: error: |Fatal error|[Ss]ignal [0-9]|exited with' "$log" | grep -vE '^✘ Test run with|^↳ (Testing Library Version|Target Platform)' | tail -n 60
fi
exit "$status"

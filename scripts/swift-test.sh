#!/usr/bin/env bash
# The Swift suites beside a throwaway PostgreSQL cluster (scripts/with-postgres.sh), on `make
# test`'s build (scripts/test-build.sh, run beforehand). When a test fails, its issues are printed once more
# at the very end: a CI log that keeps only its tail then still says which test failed and why,
# not just "failed with 2 issues". After a crash, so are the crashed thread's frames and the
# tests that had started and not ended. The whole output is kept in .build/swift-test.log.
#
#   scripts/swift-test.sh [swift test options…]      e.g. --filter LiveRegionTests
set -uo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
log=.build/swift-test.log
mkdir -p .build

scripts/with-postgres.sh "$swift_sh" test "${test_build_flags[@]}" --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# Tests that did not run ("➜ Suite X skipped: reason", XCTest's "Test Case … skipped"): each on a
# "SKIPPED:" line, which make test's summary lists apart from the passes.
grep -E '^➜ (Suite|Test) .* skipped|^Test Case .* skipped' "$log" | sed -E 's/^➜ /SKIPPED: Swift /; s/^Test Case /SKIPPED: Swift /' || true
if [ "$status" -ne 0 ]; then
    echo
    echo "==== The failures again (the whole output is in $log) ===="
    # Swift Testing: "✘ Test … recorded an issue at File.swift:12:5: …" and its "↳" details;
    # XCTest: "…: error: -[Suite test] : …"; a crash: "Fatal error", "signal".
    grep -E '✘|↳|: error: |Fatal error|[Ss]ignal [0-9]|exited with' "$log" | grep -vE '^✘ Test run with|^↳ (Testing Library Version|Target Platform)' | tail -n 60
    if grep -q '^\*\*\* Program crashed' "$log"; then
        echo "==== The crash: the crashed thread ===="
        # The backtracer's report, up to the first thread that did not crash.
        awk '/^\*\*\* Program crashed/ { on = 1 } on && /^Thread [0-9]+/ && !/crashed/ { exit } on' "$log" | head -n 60
        echo "==== Tests started and not ended when it crashed ===="
        # Swift Testing's "◇ Test x() started." / "✔ Test x() passed …" / "✘ Test x() failed …";
        # XCTest's "Test Case '-[S t]' started." / "… passed" / "… failed".
        awk '
            /^◇ Test .* started\.$/ && !/^◇ Test (run started|case passing)/ { n = substr($0, length("◇ Test ") + 1); sub(/ started\.$/, "", n); open[n]++ }
            /^Test Case .* started\.$/ { n = $0; sub(/ started\.$/, "", n); open[n]++ }
            /^(✔|✘) Test |^Test Case .* (passed|failed|skipped)/ {
                line = $0; sub(/^(✔|✘) Test /, "", line)
                for (n in open) if (index(line, n " ") == 1) { if (--open[n] == 0) delete open[n]; break }
            }
            END { for (n in open) print n }' "$log" | head -n 40
    fi
fi
exit "$status"

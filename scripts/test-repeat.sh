#!/usr/bin/env bash
# Runs the Swift suites N times in a row, to find a flaky test before CI does. With LOADED=1,
# another process keeps one core busy the whole time, as on a shared CI host; LOADED=2 keeps two
# busy (both cores of a 2-core machine). Each run's output is kept in .build/test-repeat/RUN.log
# (test-repeat-loaded/ when loaded); a failed run's failures are printed as it ends, and every
# run's allocation counts at the end, which must be the same in every run.
#
#   scripts/test-repeat.sh [N] [swift test options…]     N is 20 unless given; e.g. 5 --filter UploadTests
set -uo pipefail
cd "$(dirname "$0")/.."
runs=20
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
logs=.build/test-repeat$([ "${LOADED:-0}" != 0 ] && echo -loaded)
mkdir -p "$logs"
scripts/test-build.sh || exit 1

busy=()
for _ in $(seq 1 "${LOADED:-0}"); do
    # Busy loops, not pinned: the scheduler shares the cores between them and the suites.
    bash -c 'while :; do :; done' &
    busy+=($!)
done
if [ ${#busy[@]} -gt 0 ]; then
    trap 'kill "${busy[@]}" 2>/dev/null' EXIT
    echo "${#busy[@]} cores kept busy by processes ${busy[*]}"
fi

failed=0
for run in $(seq 1 "$runs"); do
    started=$SECONDS
    if scripts/swift-test.sh "$@" > "$logs/$run.log" 2>&1; then
        echo "run $run of $runs: green ($((SECONDS - started)) s)"
    else
        failed=$((failed + 1))
        echo "run $run of $runs: RED ($((SECONDS - started)) s), $logs/$run.log:"
        grep -E '^✘ Test [^r]|: error: |Fatal error' "$logs/$run.log" | head -n 20
    fi
done
echo "test-repeat: $((runs - failed)) of $runs runs green${LOADED:+ (LOADED=$LOADED)}"
# The allocation budget's counts, one line per run: exact counts are the same on every line.
for run in $(seq 1 "$runs"); do
    echo "run $run allocations: $(sed -n 's/^allocations per request: \([^ ]* [0-9]*\).*/\1/p' "$logs/$run.log" | tr '\n' ' ')"
done
[ "$failed" -eq 0 ]

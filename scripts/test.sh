#!/usr/bin/env bash
# `make test`: one build, then every check on it (decision 0029).
#
#   build    scripts/test-build.sh, while scripts/test-prepare.sh installs what the checks need
#   then     suites, docs, fuzz      | example, dev-reload    | container, trace, techempower
#   then     browser                 | stall, scale-out       | mail
#   last     soak, alone: it loads both cores and measures memory
#
# Steps on one line run side by side, each lane's steps one after another. The first line's lanes
# hold the CPU-heavy steps (the suites, the example's compile); the second's, the steps that time
# answers under load, away from them. Each step's output is in .build/test-logs/STEP.log; its
# time is printed as it ends and kept in .build/test-steps.log; at the end come every step's time,
# the total, and the end of each failed step's log.
set -uo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
logs=.build/test-logs
rm -rf "$logs" .build/test-steps.log
mkdir -p "$logs"
started=$SECONDS

# step NAME COMMAND…: runs COMMAND, its output in $logs/NAME.log, and says how long it took.
step() {
  local name=$1 began=$SECONDS status=0
  shift
  "$@" > "$logs/$name.log" 2>&1 || status=$?
  local line
  line="$(date +%T) $((SECONDS - began)) s, exit $status: $name"
  echo "$line" >> .build/test-steps.log
  echo "==== step: $line"
  [ "$status" -eq 0 ] || echo "$name" >> "$logs/failed"
  return "$status"
}

# lanes "STEP COMMAND…" … , separated by "|": runs each lane beside the others, and waits for all.
lanes() {
  local lane=() pids=()
  for word in "$@" "|"; do
    if [ "$word" = "|" ]; then
      ( for entry in "${lane[@]}"; do eval "step $entry" || true; done ) &
      pids+=($!)
      lane=()
    else
      lane+=("$word")
    fi
  done
  wait "${pids[@]}"
}

report() {
  echo
  echo "==== make test: every step"
  cat .build/test-steps.log
  echo "==== make test: $((SECONDS - started)) s in all"
  if [ -f "$logs/failed" ]; then
    while read -r name; do
      echo
      echo "==== FAILED: $name — the end of $logs/$name.log:"
      tail -n 80 "$logs/$name.log"
    done < "$logs/failed"
    echo
    echo "==== make test FAILED: $(tr '\n' ' ' < "$logs/failed")"
    exit 1
  fi
  echo "==== make test passed"
}

( step prepare scripts/test-prepare.sh ) &
prepare=$!
if ! step build scripts/test-build.sh; then
  wait "$prepare"
  report
fi
wait "$prepare" || report

export STOREFRONT_BINARY="$test_bin/storefront" TESSERA_BENCH_BINARY="$test_bin/tessera-bench"
lanes "suites scripts/swift-test.sh" "docs scripts/docs.sh" "format scripts/format-check.sh" "module-graph scripts/module-graph.py" \
    "fuzz scripts/fuzz.sh 30" \
    "|" "example scripts/example-test.sh" "dev-reload scripts/dev-reload-test.sh" \
    "|" "container scripts/container-test.sh" "trace scripts/trace-test.sh" "techempower scripts/techempower-test.sh"
lanes "browser scripts/browser-test.sh" \
    "|" "stall scripts/stall-test.sh" "scale-out scripts/scale-out-test.sh" \
    "|" "mail scripts/mail-test.sh"
step soak Benchmarks/soak.py
report

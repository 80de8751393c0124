#!/usr/bin/env bash
# `make test`: one build, then every check on it (decision 0029).
#
#   build    scripts/test-build.sh, while scripts/test-prepare.sh installs what the checks need
#   then     suites, docs, format, module-graph | example, dev-reload | container, trace, techempower
#   then     browser | stall, scale-out | mail, caches | fuzz
#   last     soak, alone: it loads both cores and measures memory
#
# Steps on one line run side by side, each lane's steps one after another. The first line's lanes
# hold the CPU-heavy steps (the suites, the example's compile); the second's, the steps that wait
# on browsers, databases and mail, beside the fuzzers, which keep one core busy: the tests that
# time answers under load must pass with a core busy anyway. Each step's output is in .build/test-logs/STEP.log; its
# time is printed as it ends and kept in .build/test-steps.log; at the end come every step's time,
# the total, and the end of each failed step's log.
set -uo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
logs=.build/test-logs
rm -rf "$logs" .build/test-steps.log
mkdir -p "$logs"
touch "$logs/passed" "$logs/skipped"
started=$SECONDS

# step NAME COMMAND…: runs COMMAND, its output in $logs/NAME.log, and says how long it took.
# A check that cannot run on this machine says why on a line "SKIPPED: reason" and exits 77
# (automake's code for a skip): the step is then skipped, not passed. A step that passed may
# still have skipped some of its checks (a Swift suite, a Python test): their "SKIPPED:" lines
# are listed too. The summary at the end names every skip apart from the passes.
step() {
  local name=$1 began=$SECONDS status=0
  shift
  "$@" > "$logs/$name.log" 2>&1 || status=$?
  local line outcome
  case $status in
    0) outcome="exit 0" ;;
    77) outcome="SKIPPED" ;;
    *) outcome="exit $status" ;;
  esac
  line="$(date +%T) $((SECONDS - began)) s, $outcome: $name"
  echo "$line" >> .build/test-steps.log
  echo "==== step: $line"
  grep -h '^SKIPPED: ' "$logs/$name.log" | sed "s/^SKIPPED: /$name: /" >> "$logs/skipped" || true
  case $status in
    0) echo "$name" >> "$logs/passed" ;;
    77) [ -n "$(grep -h '^SKIPPED: ' "$logs/$name.log")" ] || echo "$name: (no reason given)" >> "$logs/skipped" ;;
    *) echo "$name" >> "$logs/failed" ;;
  esac
  [ "$status" -eq 0 ] || [ "$status" -eq 77 ]
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
  if [ -s "$logs/skipped" ]; then
    echo
    echo "==== make test: SKIPPED, not run on this machine (README.md, \"What a fresh machine skips\"):"
    sed 's/^/  /' "$logs/skipped"
  fi
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
  echo "==== make test passed: $(wc -l < "$logs/passed") steps passed, $(sort -u "$logs/skipped" 2>/dev/null | wc -l) skipped (listed above)"
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
    "|" "example scripts/example-test.sh" "dev-reload scripts/dev-reload-test.sh" \
    "|" "container scripts/container-test.sh" "trace scripts/trace-test.sh" "techempower scripts/techempower-test.sh"
lanes "browser scripts/browser-test.sh" \
    "|" "stall scripts/stall-test.sh" "scale-out scripts/scale-out-test.sh" \
    "|" "mail scripts/mail-test.sh" "caches scripts/cache-test.sh" \
    "|" "fuzz scripts/fuzz.sh 25"
step soak Benchmarks/soak.py
report

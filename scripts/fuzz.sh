#!/usr/bin/env bash
# libFuzzer on Tessera's hand-written parsers. Each target in Fuzz/targets is its parser's own
# source files and Fuzz/NAME/Harness.swift, compiled with `swiftc -sanitize=fuzzer,address` (a
# few seconds: no package build), then run for SECONDS on its corpus. The seed corpus,
# Fuzz/NAME/corpus, is in the repository and only read; what a run adds is kept in
# .build/fuzz/corpus/NAME for the next run. A crash stops the run with its input saved in
# .build/fuzz/crashes/: add it to Fuzz/NAME/corpus and as a test beside the parser's.
#
#   scripts/fuzz.sh [SECONDS] [NAME…]      60 s each unless given; every target unless named
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
out=.build/fuzz
mkdir -p "$out/bin" "$out/crashes"
# The swiftc beside the swift that builds the package (SWIFT, as scripts/swift.sh reads it).
swiftc="$(dirname "$(command -v "${SWIFT:-swift}")")/swiftc"

failed=0
ran=0
while read -r name sources; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [ $# -gt 0 ] && [[ ! " $* " == *" $name "* ]] && continue
  harness="Fuzz/$name/Harness.swift"
  # Compiled again only when a source or the compiler changed.
  stamp=$(cat $sources "$harness" <("$swiftc" --version 2>&1) | sha256sum | cut -c1-16)
  binary="$out/bin/$name-$stamp"
  if [ ! -x "$binary" ]; then
    rm -f "$out/bin/$name"-*
    # ld.gold warns about ASan's local symbols; those lines say nothing about the build.
    if ! "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -g -module-name "Fuzz$name" $sources "$harness" -o "$binary" \
         2> >(grep -v "Cannot export local symbol" >&2); then
      echo "fuzz $name: does not compile" >&2
      failed=1
      continue
    fi
  fi
  mkdir -p "$out/corpus/$name"
  log="$out/$name.log"
  # New inputs go to the first folder; the seeds are only read. One input may take 10 s at most,
  # and the process 2 GB.
  if "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$out/crashes/$name-" "$out/corpus/$name" "Fuzz/$name/corpus" > "$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    if [ "${runs:-0}" -gt 0 ]; then
      echo "fuzz $name: $runs inputs in ${seconds} s, nothing found (corpus: $(ls "$out/corpus/$name" | wc -l) new, $(ls "Fuzz/$name/corpus" | wc -l) seeds)"
      ran=$((ran + 1))
    else
      echo "fuzz $name: ran no input (see $log)" >&2
      failed=1
    fi
  else
    echo "fuzz $name: FOUND A FAILURE; its input is in $out/crashes/, the run's output in $log:" >&2
    grep -E "ERROR|Fatal error|Precondition failed|SUMMARY|Test unit written" "$log" | head -n 20 >&2 || true
    failed=1
  fi
done < Fuzz/targets
# A name that matches no target, or a list without one, fuzzed nothing: not a pass.
[ "$ran" -gt 0 ] || [ "$failed" -ne 0 ] || { echo "fuzz: no target ran" >&2; failed=1; }
exit $failed

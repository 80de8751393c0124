#!/usr/bin/env bash
# The DocC documentation of the framework's modules, one archive each in .build/docs/<Module>.doccarchive
# (Tessera, TesseraMail, TesseraPasskeys, TesseraSQLite, TesseraPostgres). One run of the plugin
# builds them all: SwiftPM plans the build and the snippet tool once, not once per module.
# Warnings are errors, so a broken symbol link fails (exit 1, never retried). SwiftPM itself
# crashing (a signal: a fresh-clone run once saw swift-package die with SIGSEGV in libdispatch
# while it planned the symbol graph) is retried once, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
modules=(Tessera TesseraMail TesseraPasskeys TesseraSQLite TesseraPostgres)

targets=()
for module in "${modules[@]}"; do targets+=(--target "$module"); done
rm -rf .build/docs
for attempt in 1 2; do
  status=0
  "$SWIFT" package --allow-writing-to-directory .build/docs generate-documentation "${targets[@]}" \
    --output-path .build/docs --transform-for-static-hosting --warnings-as-errors || status=$?
  if [ "$status" -eq 0 ]; then break; fi
  if [ "$status" -lt 128 ] || [ "$attempt" -eq 2 ]; then exit "$status"; fi
  echo "docs: swift package crashed (exit $status); once more" >&2
done
for module in "${modules[@]}"; do
  [ -f ".build/docs/$module.doccarchive/index.html" ] || { echo "docs: no archive for $module" >&2; exit 1; }
done

#!/usr/bin/env bash
# The framework's DocC documentation, in .build/docs (and TesseraMail's, TesseraPasskeys',
# TesseraSQLite's and TesseraPostgres's in .build/docs-<target>). Warnings are errors, so a
# broken symbol link fails (exit 1, never retried). SwiftPM itself crashing (a signal: a fresh-clone run once saw swift-package die with
# SIGSEGV in libdispatch while it planned the symbol graph) is retried once, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

generate() { # target output-folder
  local attempt status
  for attempt in 1 2; do
    status=0
    "$SWIFT" package --allow-writing-to-directory "$2" generate-documentation --target "$1" \
      --output-path "$2" --transform-for-static-hosting --warnings-as-errors || status=$?
    if [ "$status" -eq 0 ]; then return 0; fi
    if [ "$status" -lt 128 ] || [ "$attempt" -eq 2 ]; then return "$status"; fi
    echo "docs: swift package crashed (exit $status) on $1; once more" >&2
  done
}

generate Tessera .build/docs
generate TesseraMail .build/docs-TesseraMail
generate TesseraPasskeys .build/docs-TesseraPasskeys
generate TesseraSQLite .build/docs-TesseraSQLite
generate TesseraPostgres .build/docs-TesseraPostgres

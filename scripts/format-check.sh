#!/usr/bin/env bash
# The formatter's verdict on the Swift sources (`.swift-format`, swift-format from the toolchain):
# `make test` fails on a line it would change. `scripts/format-check.sh --fix` rewrites them.
# The fixtures under Tests/Fixtures are left as they are: their tests name their lines.
set -euo pipefail
cd "$(dirname "$0")/.."
files=(Package.swift)
while IFS= read -r -d '' file; do files+=("$file"); done < <(find Sources Tests Plugins -name '*.swift' -not -path 'Tests/Fixtures/*' -print0 | sort -z)
if [ "${1:-}" = "--fix" ]; then
  swift format format --in-place --parallel "${files[@]}"
else
  swift format lint --strict --parallel "${files[@]}"
  echo "swift-format: ${#files[@]} files as .swift-format wants them"
fi

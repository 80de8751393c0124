#!/usr/bin/env bash
# The DocC documentation of the framework's modules, one archive each in
# .build/docs/<Module>.doccarchive (Tessera, TesseraMail, TesseraPasskeys, TesseraSQLite,
# TesseraPostgres). The symbol graphs are the ones `make test`'s build writes as each module
# compiles (scripts/test-configuration.sh), so the documentation costs no build of its own: docc
# converts each module's catalog with its module's graphs. Warnings are errors, so a broken symbol
# link fails. Run after scripts/test-build.sh (`make docs` does both).
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
modules=(Tessera TesseraMail TesseraPasskeys TesseraSQLite TesseraPostgres)
# docc comes with the Swift toolchain, beside swift itself.
docc=${DOCC:-$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/docc")}

rm -rf .build/docs
mkdir -p .build/docs
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
for module in "${modules[@]}"; do
  # The module's own graph, and those of its extensions to other modules' types.
  mkdir "$graphs/$module"
  cp "$test_symbol_graphs/$module.symbols.json" "$graphs/$module/" \
    || { echo "docs: no symbol graph for $module in $test_symbol_graphs: run scripts/test-build.sh first" >&2; exit 1; }
  find "$test_symbol_graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$graphs/$module/" \;
  "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-path ".build/docs/$module.doccarchive" --transform-for-static-hosting --warnings-as-errors
  [ -f ".build/docs/$module.doccarchive/index.html" ] || { echo "docs: no archive for $module" >&2; exit 1; }
done

#!/usr/bin/env bash
# The build `make test` runs everything on (scripts/test-configuration.sh): every product and
# every test target, once; with options (such as --product storefront), only what they ask for,
# from the same build.
#
#   scripts/test-build.sh [swift build options…]
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
mkdir -p "$test_symbol_graphs"
[ $# -gt 0 ] || set -- --build-tests
exec "$swift_sh" build "${test_build_flags[@]}" "$@"

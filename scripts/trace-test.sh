#!/usr/bin/env bash
# The trace test (Tests/Tracing): an OTLP/HTTP receiver on loopback that decodes with the
# official opentelemetry-proto package (from PyPI, in .build/trace-venv), and the storefront on a
# throwaway PostgreSQL exporting to it. STOREFRONT_BINARY picks the storefront (default: make
# test's build, scripts/test-build.sh, which has the OTLP trait).
#
#   scripts/trace-test.sh [--prepare]    --prepare: only install what it needs
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
scripts/install-deps.sh postgres >&2
python=$(scripts/venv.sh trace "opentelemetry-proto>=1.20,<2")
[ "${1:-}" = --prepare ] && exit 0
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$test_bin/storefront}" \
  scripts/with-postgres.sh "$python" scripts/python-tests.py -v Tests/Tracing/test_traces.py

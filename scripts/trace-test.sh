#!/usr/bin/env bash
# The trace test (Tests/Tracing): an OTLP/HTTP receiver on loopback that decodes with the
# official opentelemetry-proto package (from PyPI, in .build/trace-venv), and the storefront on a
# throwaway PostgreSQL exporting to it. STOREFRONT_BINARY picks the storefront (default: the
# debug build `make test` made).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh postgres >&2
venv=.build/trace-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import opentelemetry.proto" 2>/dev/null || "$venv/bin/pip" install --quiet "opentelemetry-proto>=1.20,<2"
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$(swift build --show-bin-path)/storefront}" \
  scripts/with-postgres.sh "$venv/bin/python" -m unittest -v Tests/Tracing/test_traces.py

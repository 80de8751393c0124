#!/usr/bin/env bash
# The stall test: the storefront under load while its database stalls (PostgreSQL's processes
# stopped for 3 s; SQLite's file write-locked by another process for 3 s). Tests/Stall.
# STOREFRONT_BINARY picks the storefront (default: the debug build `make test` made).
set -euo pipefail
cd "$(dirname "$0")/.."
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$(swift build --show-bin-path)/storefront}" \
  scripts/with-postgres.sh python3 -m unittest -v Tests/Stall/test_database_stall.py

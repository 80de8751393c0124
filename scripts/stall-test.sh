#!/usr/bin/env bash
# The stall test: the storefront under load while its database stalls (PostgreSQL's processes
# stopped for 3 s; SQLite's file write-locked by another process for 3 s). Tests/Stall.
# STOREFRONT_BINARY picks the storefront (default: make test's build, scripts/test-build.sh).
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$test_bin/storefront}" \
  scripts/with-postgres.sh python3 scripts/python-tests.py -v Tests/Stall/test_database_stall.py

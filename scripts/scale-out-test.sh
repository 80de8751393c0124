#!/usr/bin/env bash
# The scale-out test: three storefront instances on a throwaway PostgreSQL behind Debian's nginx
# (deploy/nginx.conf), all started by Tests/ScaleOut/test_scale_out.py and stopped at its end.
# STOREFRONT_BINARY picks the storefront (default: make test's build, scripts/test-build.sh).
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
scripts/install-deps.sh nginx
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$test_bin/storefront}" \
  scripts/with-postgres.sh python3 scripts/python-tests.py -v Tests/ScaleOut/test_scale_out.py

#!/usr/bin/env bash
# The scale-out test: three storefront instances on a throwaway PostgreSQL behind Debian's nginx
# (deploy/nginx.conf), all started by Tests/ScaleOut/test_scale_out.py and stopped at its end.
# STOREFRONT_BINARY picks the storefront (default: the debug build `make test` made).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh nginx
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$(swift build --show-bin-path)/storefront}" \
  scripts/with-postgres.sh python3 -m unittest -v Tests/ScaleOut/test_scale_out.py

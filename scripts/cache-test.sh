#!/usr/bin/env bash
# What shared caches may keep, as REDbot (redbot.org's checker, from PyPI, in .build/redbot-venv)
# reads the storefront's answers: the kept pages may be stored by every cache and revalidated
# with their ETag; a page that asks for the session only by private ones (Tests/Caches).
# STOREFRONT_BINARY picks the storefront (default: make test's build, scripts/test-build.sh).
#
#   scripts/cache-test.sh [--prepare]    --prepare: only install what it needs
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
python=$(scripts/venv.sh redbot "redbot==2.7.1")
[ "${1:-}" = --prepare ] && exit 0
REDBOT="$(dirname "$python")/redbot" STOREFRONT_BINARY="${STOREFRONT_BINARY:-$test_bin/storefront}" \
  "$python" scripts/python-tests.py -v Tests/Caches/test_redbot.py

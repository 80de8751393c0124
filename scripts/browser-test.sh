#!/usr/bin/env bash
# The real-browser tests (Tests/Browser/test_*.py): headless Chromium driven through Selenium,
# against make test's storefront (scripts/test-build.sh), with axe-core judging every page's
# accessibility and the Nu Html Checker its HTML (scripts/browser-venv.sh installs them).
# BROWSER_TESTS=test_accessibility.py (a file name pattern) runs only some of them;
# STOREFRONT_BINARY picks another storefront.
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
python=$(scripts/browser-venv.sh)
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$test_bin/storefront}" \
SCREENSHOT_DIR="${SCREENSHOT_DIR:-.build/browser-screenshots}" \
AXE_SOURCE="$(dirname "$(dirname "$python")")/axe.min.js" \
PYTHONDONTWRITEBYTECODE=1 \
  "$python" scripts/python-tests.py discover --start-directory Tests/Browser --pattern "${BROWSER_TESTS:-test_*.py}" --verbose

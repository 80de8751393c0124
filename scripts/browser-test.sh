#!/usr/bin/env bash
# The real-browser test: headless Chromium (Debian's chromium and chromium-driver) driven through
# Selenium from PyPI, against the storefront built by `swift build`. Installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh browser
venv=.build/browser-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import selenium" 2>/dev/null || "$venv/bin/pip" install --quiet "selenium>=4.20,<5"

STOREFRONT_BINARY="${STOREFRONT_BINARY:-$(swift build --show-bin-path)/storefront}" \
SCREENSHOT_DIR="${SCREENSHOT_DIR:-.build/browser-screenshots}" \
  "$venv/bin/python" -m unittest -v Tests/Browser/test_storefront.py

#!/usr/bin/env bash
# Headless Chromium, chromedriver (Debian's) and Selenium (PyPI) in .build/browser-venv, for the
# browser tests and the dev-loop benchmark. Installs what is missing; prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh browser >&2
venv=.build/browser-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" >&2
fi
"$venv/bin/python" -c "import selenium" 2>/dev/null || "$venv/bin/pip" install --quiet "selenium>=4.20,<5" >&2
echo "$venv/bin/python"

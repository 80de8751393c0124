#!/usr/bin/env bash
# `make dev` in a real browser (Tests/DevReload): scripts/dev.py on the Getting Started app, with
# headless Chromium watching its page reload after each edit. Run after scripts/example-test.sh,
# whose debug build of the app dev.py's first build then finds already made (make test does).
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(scripts/browser-venv.sh)
SCREENSHOT_DIR="${SCREENSHOT_DIR:-.build/browser-screenshots}" PYTHONDONTWRITEBYTECODE=1 \
  "$python" scripts/python-tests.py -v Tests/DevReload/test_dev_reload.py

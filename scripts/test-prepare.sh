#!/usr/bin/env bash
# What `make test`'s checks install, fetched while Swift compiles (scripts/test.sh runs this beside
# the build): every Debian package in one apt transaction, then side by side the tests' Python
# environments, headless Chromium's, and the container's base image with the layers under the
# binary. Each of these scripts installs the same when run alone; here it costs no time of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
pids=()
scripts/browser-venv.sh > /dev/null & pids+=($!)
scripts/mail-test.sh --prepare & pids+=($!)
scripts/trace-test.sh --prepare & pids+=($!)
scripts/cache-test.sh --prepare & pids+=($!)
scripts/techempower-test.sh --prepare & pids+=($!)
scripts/build-image.sh --prepare & pids+=($!)
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit "$status"

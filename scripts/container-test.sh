#!/usr/bin/env bash
# The container test: builds the image from make test's binary (scripts/build-image.sh), then
# runs it with podman as an operator would (Tests/Container/test_container.py). Everything lives
# under .build/podman.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-image.sh
source scripts/podman-env.sh
python3 scripts/python-tests.py -v Tests/Container/test_container.py

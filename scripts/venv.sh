#!/usr/bin/env bash
# A Python virtual environment of the tests' own, .build/NAME-venv, with the PyPI packages given;
# prints its python. Made once: a stamp names the packages it holds, so a later call with the same
# list does nothing, and a changed list makes it anew. The stamp is written last, so a venv whose
# install failed half way is made again, never used.
#
#   scripts/venv.sh NAME PACKAGE…        e.g. scripts/venv.sh mail "aiosmtpd>=1.4,<2"
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 NAME PACKAGE…" >&2; exit 2; }
name=$1
shift
venv="$PWD/.build/$name-venv"
stamp="$venv/.tessera-packages"
wanted=$(printf '%s\n' "$@")
# Two steps of make test may ask for the same one at once: the second waits for the first.
mkdir -p .build
exec 7> ".build/$name-venv.lock"
flock 7
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  scripts/install-deps.sh python >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2 && "$venv/bin/pip" install --quiet --disable-pip-version-check "$@" >&2 \
    || { rm -rf "$venv"; echo "$0: could not make $venv" >&2; exit 1; }
  printf '%s\n' "$wanted" > "$stamp"
fi
echo "$venv/bin/python"

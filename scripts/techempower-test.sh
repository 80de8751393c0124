#!/usr/bin/env bash
# TechEmpower's own verifier (Tests/TechEmpower/verify.py) against the bench app's seven
# TechEmpower routes, on a throwaway PostgreSQL cluster with pg_stat_statements, so that its
# query and row counts run too. The verifier is TechEmpower's code, not ours: it is taken from
# a snapshot of their repository at each run, into .build/techempower/, and never committed.
#
#   TECHEMPOWER_REPO      their repository, bare or not (default: /work/.mirror/TechEmpower+
#                         FrameworkBenchmarks/repo, where a fetch of github:TechEmpower/
#                         FrameworkBenchmarks leaves its snapshot)
#   REQUIRE_TECHEMPOWER=1 no snapshot is a failure (exit 3), not a skip (exit 77)
#   TESSERA_BENCH_BINARY  the server (default: make test's build, scripts/test-build.sh)
#   SERVER_COMMAND        another server instead, a shell command (see verify.py), with
#                         CREATE_SCHEMA=1 for one that reads the tables but does not make them:
#                         SERVER_COMMAND='exec Benchmarks/c-reference/reference' CREATE_SCHEMA=1
#
#   scripts/techempower-test.sh [--prepare]    --prepare: only install what it needs
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
prepare=${1:-}
repo=${TECHEMPOWER_REPO:-/work/.mirror/TechEmpower+FrameworkBenchmarks/repo}

# Without their repository there is nothing to run: the step is skipped (exit 77), which `make
# test`'s summary lists apart from the passes, never as a pass. A repository that is there but
# cannot be read is a failure, with git's own words.
if [ ! -e "$repo" ]; then
  [ "$prepare" = --prepare ] && exit 0
  echo "SKIPPED: TechEmpower's verifier: no snapshot of github:TechEmpower/FrameworkBenchmarks at $repo (fetch it there, or set TECHEMPOWER_REPO)"
  [ "${REQUIRE_TECHEMPOWER:-0}" = 1 ] && { echo "REQUIRE_TECHEMPOWER=1: a skip is a failure" >&2; exit 3; }
  exit 77
fi
if ! git -C "$repo" cat-file -e HEAD:toolset/test_types/verifications.py; then
  echo "FAIL: $repo holds no TechEmpower toolset that git can read (toolset/test_types/verifications.py at HEAD)" >&2
  exit 1
fi

scripts/install-deps.sh techempower >&2
python=$(scripts/venv.sh techempower "requests>=2,<3" "colorama<1" "psycopg2-binary>=2.9,<3")
[ "$prepare" = --prepare ] && exit 0

# A fresh copy every run (it is small): whatever the snapshot holds now is what runs. git prints
# an error about a large file elsewhere in the snapshot that is absent, and still succeeds, so its
# messages are shown only when it fails.
dir=.build/techempower
rm -rf "$dir" && mkdir -p "$dir"
git -C "$repo" rev-parse HEAD > "$dir/COMMIT"
if ! git -C "$repo" archive HEAD toolset 2>"$dir/archive-errors" | tar -x -C "$dir"; then
  cat "$dir/archive-errors" >&2
  exit 1
fi

# The server: the command given, or the bench app.
if [ -z "${SERVER_COMMAND:-}" ]; then
  export TESSERA_BENCH_BINARY="${TESSERA_BENCH_BINARY:-$test_bin/tessera-bench}"
  [ -x "$TESSERA_BENCH_BINARY" ] || { echo "FAIL: no server at $TESSERA_BENCH_BINARY: build it (scripts/test-build.sh)" >&2; exit 1; }
fi
TECHEMPOWER_TOOLSET="$PWD/$dir/toolset" scripts/with-postgres.sh "$python" -u Tests/TechEmpower/verify.py

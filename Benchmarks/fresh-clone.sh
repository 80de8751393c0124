#!/usr/bin/env bash
# The README's two commands as a new user meets them: a fresh clone of this checkout's HEAD in a
# temporary folder, then `make run` timed to the first page it answers, or `make test` (as CI
# runs it, .ci/run) timed to its end. BENCHMARKS.md's rows for both come from here. Nothing is
# kept but the log; the clone is deleted unless KEEP=1. Never beside another build: it measures
# a machine's two cores.
#
#   Benchmarks/fresh-clone.sh run      the first page of `make run` (PORT, 18080 by default)
#   Benchmarks/fresh-clone.sh test     `make test`, with its steps' times at the end
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
what=${1:-}
case "$what" in run|test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac
clone=$(mktemp -d /tmp/tessera-fresh-clone.XXXXXX)
log="$clone.log"
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$clone"' EXIT
git clone --quiet "$root" "$clone"
cd "$clone"
echo "fresh clone of $(git rev-parse --short HEAD) in $clone; output in $log"
started=$(date +%s.%N)
seconds() { awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.0f", now - then }'; }

if [ "$what" = test ]; then
  status=0
  CI=true bash .ci/run > "$log" 2>&1 || status=$?
  grep -A40 '^==== make test: every step' "$log" | grep -v '^====' || true
  echo "make test from a fresh clone: exit $status after $(seconds) s"
  exit "$status"
fi

port=${PORT:-18080}
PORT=$port setsid make run > "$log" 2>&1 &
make=$!
stop() { kill -- -"$make" 2>/dev/null || true; wait "$make" 2>/dev/null || true; }
until curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; do
  kill -0 "$make" 2>/dev/null || { tail -n 20 "$log"; echo "make run ended before its first page" >&2; exit 1; }
  sleep 0.2
done
echo "make run from a fresh clone: the first page after $(seconds) s"
stop

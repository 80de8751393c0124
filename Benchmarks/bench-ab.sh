#!/usr/bin/env bash
# tessera-bench against an older commit's, side by side in the same run: both release builds,
# both pinned to core 0 with one thread (only one is loaded at a time), wrk on core 1, ROUNDS
# alternating rounds (7) of DURATION seconds (4). Prints each build's CPU per request (perf
# stat's task-clock over the round) and requests per second, and the medians of the rounds'
# ratios, for each path given (default /plaintext /memory-fortunes /regions).
#
# The older build is expected in BASE (/tmp/base), a clone at that commit:
#   git clone . /tmp/base && git -C /tmp/base checkout <commit>
#   (cd /tmp/base && make deps && swift build -c release --product tessera-bench)
# and this checkout's: swift build -c release --product tessera-bench
set -euo pipefail
base=${BASE:-/tmp/base}
now=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-7}
duration=${DURATION:-4}
paths=("${@:-/plaintext}")
[ $# -eq 0 ] && paths=(/plaintext /memory-fortunes /regions)
work=$(mktemp -d)
pid_of() { ss -ltnp | grep ":$1 " | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
cleanup() { for port in 8801 8802; do pid=$(pid_of $port); [ -n "$pid" ] && kill "$pid"; done; rm -rf "$work"; }
trap cleanup EXIT
start() { # checkout port
  mkdir -p "$work/$2"
  (cd "$1" && env PORT=$2 HOST=127.0.0.1 THREADS=1 DATA_DIR="$work/$2" LOG_LEVEL=warning taskset -c 0 .build/release/tessera-bench > "$work/$2.log" 2>&1 &)
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$2/plaintext" && break; sleep 0.1; done
}
measure() { # port path: "CPU-ms requests"
  perf stat -e task-clock -x, -o "$work/stat" -p "$(pid_of $1)" -- sleep "$duration" 2> /dev/null &
  local out; out=$(taskset -c 1 wrk -t1 -c64 -d${duration}s "http://127.0.0.1:$1$2"); wait
  echo "$(awk -F, '/task-clock/ {print $1}' "$work/stat") $(echo "$out" | awk '/requests in/ {print $1}')"
}
start "$base" 8801
start "$now" 8802
for path in "${paths[@]}"; do
  for port in 8801 8802; do taskset -c 1 wrk -t1 -c64 -d2s "http://127.0.0.1:$port$path" > /dev/null; done
  : > "$work/rounds"
  for _ in $(seq "$rounds"); do echo "$(measure 8801 "$path") $(measure 8802 "$path")" >> "$work/rounds"; done
  python3 - "$work/rounds" "$path" "$duration" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
seconds = float(sys.argv[3])
cpu_before = [r[0] / r[1] * 1000 for r in rows]; cpu_now = [r[2] / r[3] * 1000 for r in rows]
print(f"{sys.argv[2]}: CPU per request {statistics.median(cpu_before):.2f} µs before, {statistics.median(cpu_now):.2f} µs now "
      f"(median of the rounds' before / now {statistics.median(b / n for b, n in zip(cpu_before, cpu_now)):.3f}); "
      f"requests/s {statistics.median(r[1] for r in rows) / seconds:.0f} before, {statistics.median(r[3] for r in rows) / seconds:.0f} now "
      f"(median of now / before {statistics.median(r[3] / r[1] for r in rows):.3f})")
PY
done

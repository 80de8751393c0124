#!/usr/bin/env bash
# Context switches, futex calls (a lock someone waited on), system calls and CPU per request for
# TechEmpower's single query (`/db`) or another path: tessera-bench and
# the C + libpq reference, each pinned to core 0 with one thread, wrk on core 1, PostgreSQL
# beside them (scripts/with-postgres.sh), `perf stat` on the server for the 5 s of load.
# After `make bench` (or run-http.py's build): it uses .build/release/tessera-bench and
# Benchmarks/c-reference/reference.
#
#   Benchmarks/context-switches.sh [path]     default path /db
set -euo pipefail
cd "$(dirname "$0")/.."
path="${1:-/db}"
exec scripts/with-postgres.sh bash -c '
set -euo pipefail
path="$1"
data=$(mktemp -d)
trap "kill \$(jobs -p) 2>/dev/null; rm -rf $data" EXIT
measure() {
  local name=$1 port=$2; shift 2
  env PORT=$port HOST=127.0.0.1 THREADS=1 LOG_LEVEL=error taskset -c 0 "$@" >/dev/null 2>&1 &
  local pid=$!
  for _ in $(seq 200); do curl -sf -o /dev/null "http://127.0.0.1:$port$path" && break; sleep 0.05; done
  taskset -c 1 wrk -t1 -c64 -d2s "http://127.0.0.1:$port$path" >/dev/null   # warm-up
  perf stat -x, -e context-switches,task-clock,syscalls:sys_enter_futex,raw_syscalls:sys_enter -p $pid -o $data/$name.perf -- \
    taskset -c 1 wrk -t1 -c64 -d5s "http://127.0.0.1:$port$path" > $data/$name.wrk
  local requests=$(awk "/requests in/ {print \$1}" $data/$name.wrk)
  local switches=$(awk -F, "/context-switches/ {print \$1}" $data/$name.perf)
  local cpu_ms=$(awk -F, "/task-clock/ {print \$1}" $data/$name.perf)
  local futexes=$(awk -F, "/sys_enter_futex/ {print \$1}" $data/$name.perf)
  local syscalls=$(awk -F, "/raw_syscalls:sys_enter/ {print \$1}" $data/$name.perf)
  python3 -c "r=$requests; print(f\"$name $path: {r/5:,.0f} requests/s; per request {$switches/r:.3f} context switches, {$futexes/r:.3f} futex calls, {$syscalls/r:.2f} system calls, {$cpu_ms*1000/r:.0f} µs of CPU\")"
  kill $pid; wait $pid 2>/dev/null || true
}
DATA_DIR=$data DATABASE_URL=$TESSERA_POSTGRES_URL measure tessera 18481 .build/release/tessera-bench
FORTUNES_POSTGRES=$TESSERA_POSTGRES_URL measure c-libpq 18482 Benchmarks/c-reference/reference
' _ "$path"

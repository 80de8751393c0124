#!/usr/bin/env bash
# The counts that do not move with the CPU, per request, for tessera-bench against the C + libpq
# reference on the same routes: system calls, context switches and futex calls (a lock someone
# waited on), with the CPU time beside them. Each server is pinned to core 0 with one thread, wrk
# on core 1, PostgreSQL beside them (scripts/with-postgres.sh); `perf stat` counts on the server
# for 5 s of load after 2 s of warm-up. With BUSY=1 a busy loop shares core 0 with the server
# (the "second core busy" of issue 60), which adds involuntary switches to both alike.
# After `make bench` (or run-http.py's build): it uses .build/release/tessera-bench and
# Benchmarks/c-reference/reference. `make bench` runs it for the budgeted routes, idle and busy.
#
#   Benchmarks/context-switches.sh [PATH…]     default /db
#   BUSY=1 Benchmarks/context-switches.sh /plaintext /json
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- /db
exec scripts/with-postgres.sh bash -c '
set -euo pipefail
data=$(mktemp -d)
trap "kill \$(jobs -p) 2>/dev/null; rm -rf $data" EXIT
if [ "${BUSY:-0}" = 1 ]; then
  taskset -c 0 sh -c "while :; do :; done" &
fi
measure() {
  local name=$1 port=$2 path=$3; shift 3
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
  python3 -c "r=$requests; print(f\"{r/5:.0f} {$switches/r:.3f} {$futexes/r:.3f} {$syscalls/r:.2f} {$cpu_ms*1000/r:.1f}\")"
  kill $pid; wait $pid 2>/dev/null || true
}
echo "Per request, pinned, $( [ "${BUSY:-0}" = 1 ] && echo "a busy loop sharing the servers core" || echo "no other load" ); $(lscpu | sed -n "s/^Model name: *//p"), family $(lscpu | sed -n "s/^CPU family: *//p"), model $(lscpu | sed -n "s/^Model: *//p")"
printf "| %-22s | %-8s | %10s | %9s | %6s | %9s | %8s |\n" path server "requests/s" switches futex syscalls "µs CPU"
printf "|%s|\n" "------------------------|----------|-----------:|----------:|-------:|----------:|---------:"
failed=0
for path in "$@"; do
  read -r t_rate t_switches t_futex t_syscalls t_cpu < <(DATA_DIR=$data DATABASE_URL=$TESSERA_POSTGRES_URL measure tessera 18481 "$path" .build/release/tessera-bench)
  read -r c_rate c_switches c_futex c_syscalls c_cpu < <(FORTUNES_POSTGRES=$TESSERA_POSTGRES_URL measure c-libpq 18482 "$path" Benchmarks/c-reference/reference)
  printf "| %-22s | %-8s | %10s | %9s | %6s | %9s | %8s |\n" "$path" tessera "$t_rate" "$t_switches" "$t_futex" "$t_syscalls" "$t_cpu"
  printf "| %-22s | %-8s | %10s | %9s | %6s | %9s | %8s |\n" "$path" "C" "$c_rate" "$c_switches" "$c_futex" "$c_syscalls" "$c_cpu"
  verdict=$(python3 -c "print(\"yes\" if $t_syscalls <= $c_syscalls + 0.015 and $t_switches <= $c_switches + 0.015 else \"**no**\")")
  echo "goal: $path system calls and context switches per request no more than C: $verdict"
done
' _ "$@"

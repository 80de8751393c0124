#!/usr/bin/env bash
# The product page with photos and two languages against the same page before photos (546de74),
# side by side in the same run: release builds, SQLite, fresh data, ROUNDS alternating rounds
# (default 7). Each round loads one server, then the other, with wrk, and reads the server's own
# CPU time (perf stat's task-clock when perf can count, else /proc); it prints requests per
# second and CPU per request of each, and the medians of their ratios.
#
# The old binary is expected in /tmp/base/.build/release/storefront with its files in /tmp/base:
#   git worktree add /tmp/base 546de74
#   then build it there, or build it here at 546de74 and copy the binary.
# This checkout's: swift build -c release --product storefront. NOW_ENV adds settings to this
# checkout's server only, such as NOW_ENV=REGION_CACHE_MB=0 (every region rendered every time).
set -euo pipefail
base_bin=${BASE_BIN:-/tmp/base/.build/release/storefront}
photo_bin=${PHOTO_BIN:-"$(cd "$(dirname "$0")/.." && pwd)/.build/release/storefront"}
rounds=${ROUNDS:-7}
url=${URL:-/products/1}
work=$(mktemp -d)
trap 'pkill -f "release/storefront" || true; rm -rf "$work"' EXIT
start() { # binary port [settings…]
  (cd "$(dirname "$(dirname "$(dirname "$1")")")" && env PORT=$2 HOST=127.0.0.1 DATA_DIR=$work/$2 LOG_LEVEL=warning "${@:3}" "$1" > $work/$2.log 2>&1 &)
  for _ in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$2/healthz && break; sleep 0.1; done
  curl -sf http://127.0.0.1:$2$url > $work/page-$2.html
  # The photos' variants drawn once, as on a shop that has served them before.
  for photo in $(grep -o '/photos/[0-9a-f]*-[0-9]*\.[a-z]*' $work/page-$2.html | sort -u); do curl -s -o /dev/null http://127.0.0.1:$2$photo; done
  wrk -t1 -c16 -d2s http://127.0.0.1:$2$url > /dev/null
}
cpu_ms() { # pid seconds: the process's CPU time over the next seconds, in ms
  if perf stat -e task-clock -x, -o $work/stat -p $1 -- sleep $2 2> /dev/null && grep -q '^[0-9]' $work/stat; then
    awk -F, '/task-clock/ {print $1}' $work/stat
  else
    local before after; before=$(awk '{print $14 + $15}' /proc/$1/stat); sleep $2; after=$(awk '{print $14 + $15}' /proc/$1/stat)
    echo $(( (after - before) * 10 ))
  fi
}
measure() { # port: "requests/s µs-of-CPU/request"
  local pid; pid=$(ss -ltnp | grep ":$1 " | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  cpu_ms $pid ${DURATION:-6} > $work/cpu &
  local out; out=$(wrk -t1 -c16 -d${DURATION:-6}s http://127.0.0.1:$1$url); wait
  local requests rps; requests=$(echo "$out" | awk '/requests in/ {print $1}'); rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  echo "$rps $(echo "scale=1; $(cat $work/cpu) * 1000 / $requests" | bc)"
}
start "$base_bin" 8501
start "$photo_bin" 8502 ${NOW_ENV:-}
echo "bytes of $url: before $(wc -c < $work/page-8501.html), now $(wc -c < $work/page-8502.html)"
for round in $(seq $rounds); do
  read -r before_rps before_cpu <<< "$(measure 8501)"
  read -r now_rps now_cpu <<< "$(measure 8502)"
  echo "$before_rps $before_cpu $now_rps $now_cpu" >> $work/rounds
  echo "round $round: before $before_rps/s ${before_cpu} µs, now $now_rps/s ${now_cpu} µs"
done
python3 - "$work/rounds" <<'EOF'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
rps = statistics.median(now / before for before, _, now, _ in rows)
cpu = statistics.median(before / now for _, before, _, now in rows)
print(f"median of the rounds' ratios, now / before: requests per second {rps:.3f}, CPU per request (inverted) {cpu:.3f}")
EOF

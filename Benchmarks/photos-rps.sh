#!/usr/bin/env bash
# The product page with photos against the same page before photos (546de74, built in /tmp/base:
# git worktree add /tmp/base 546de74 && (cd /tmp/base && swift build -c release --product storefront)),
# each against its own server's /healthz in the same run: release builds (this checkout's too:
# swift build -c release --product storefront), SQLite, fresh data, 3 alternating rounds.
set -euo pipefail
base_bin=/tmp/base/.build/release/storefront
photo_bin="$(cd "$(dirname "$0")/.." && pwd)/.build/release/storefront"
rm -rf /tmp/rps && mkdir -p /tmp/rps
start() { # binary port dir
  (cd "$(dirname "$(dirname "$(dirname "$1")")")" && PORT=$2 HOST=127.0.0.1 DATA_DIR=$3 LOG_LEVEL=warning "$1" > $3.log 2>&1 &)
  for _ in $(seq 100); do curl -sf http://127.0.0.1:$2/healthz > /dev/null && return; sleep 0.1; done; echo "no server on $2"; exit 1
}
start $base_bin 8501 /tmp/rps/base
start $photo_bin 8502 /tmp/rps/photos
for port in 8501 8502; do
  curl -s http://127.0.0.1:$port/products/1 > /tmp/rps/page-$port.html
  for url in $(grep -o '/photos/[0-9a-f]*-[0-9]*\.[a-z]*' /tmp/rps/page-$port.html | sort -u); do curl -s -o /dev/null http://127.0.0.1:$port$url; done
done
grep -c "<picture" /tmp/rps/page-8502.html || true
rps() { wrk -t2 -c32 -d${DURATION:-8}s "$1" | awk '/Requests\/sec/ {print $2}'; }
for round in 1 2 3; do
  for port in 8501 8502; do
    page=$(rps http://127.0.0.1:$port/products/1)
    health=$(rps http://127.0.0.1:$port/healthz)
    echo "round $round port $port page $page healthz $health ratio $(echo "scale=4; $page / $health" | bc)"
  done
done
pkill -f "release/storefront" || true

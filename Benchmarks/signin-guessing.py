#!/usr/bin/env python3
"""Password guessing against the storefront, for RELIABILITY.md: does the site stay fast for
everyone else while 8 clients guess passwords as fast as they can?

Starts the release `storefront` on a new data directory, measures `GET /` latency for one
client while nothing else happens (idle), then again while GUESSERS threads post wrong
passwords to /login, in two scenarios:

- `one account`: every guesser tries Ada's account from 127.0.0.1, the classic attack, which the
  throttle turns into cheap 429s;
- `spread`: each guesser uses a new account name and a new source address (127.0.1.x) for every
  attempt, so the throttle never engages and every attempt needs a PBKDF2 hash: this measures
  the bounded hashing pool alone.

The goal: the `GET /` median under guessing stays within 2x of idle.
Environment: GUESSERS (8), SECONDS (15 per phase), PORT (18290).
"""
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUESSERS = int(os.environ.get("GUESSERS", "8"))
SECONDS = int(os.environ.get("SECONDS", "15"))
PORT = int(os.environ.get("PORT", "18290"))


def start_storefront(data):
    subprocess.run(["scripts/swift.sh", "build", "-c", "release", "--product", "storefront"], cwd=ROOT, check=True)
    environment = dict(os.environ, PORT=str(PORT), HOST="127.0.0.1", DATA_DIR=data, LOG_LEVEL="error")
    server = subprocess.Popen([".build/release/storefront"], cwd=ROOT, env=environment,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    sys.exit("storefront did not start")


def home_latencies(seconds):
    """One client, one GET / at a time, each on a new connection, for `seconds`."""
    latencies = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        began = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        connection.request("GET", "/")
        reply = connection.getresponse()
        reply.read()
        connection.close()
        if reply.status == 200:
            latencies.append(time.monotonic() - began)
        time.sleep(0.02)
    return latencies


def guesser(index, spread, outcomes, stop):
    attempt = 0
    while not stop.is_set():
        attempt += 1
        source = f"127.0.1.{(index * 31 + attempt) % 250 + 1}" if spread else "127.0.0.1"
        email = f"guess-{index}-{attempt}@example.com" if spread else "ada@example.com"
        body = urllib.parse.urlencode({"email": email, "password": f"wrong-{attempt}", "next": "/"})
        try:
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10, source_address=(source, 0))
            connection.request("POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
            reply = connection.getresponse()
            reply.read()
            connection.close()
            outcomes.append(reply.status)
        except OSError:
            outcomes.append("error")


def phase(name, spread):
    outcomes = []
    stop = threading.Event()
    threads = [threading.Thread(target=guesser, args=(i, spread, outcomes, stop)) for i in range(GUESSERS)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # let the guessing reach its pace
    latencies = home_latencies(SECONDS)
    stop.set()
    for thread in threads:
        thread.join()
    counts = {status: outcomes.count(status) for status in sorted(set(outcomes), key=str)}
    return latencies, counts


def describe(latencies):
    ordered = sorted(latencies)
    return (f"median {statistics.median(ordered) * 1000:.1f} ms, p90 {ordered[int(len(ordered) * 0.9)] * 1000:.1f} ms, "
            f"{len(ordered)} requests")


def main():
    data = tempfile.mkdtemp(prefix="tessera-guessing-")
    server = start_storefront(data)
    try:
        home_latencies(2)  # warm up
        idle = home_latencies(SECONDS)
        print(f"idle:                 GET / {describe(idle)}")
        ok = True
        for name, spread in [("one account", False), ("spread", True)]:
            latencies, counts = phase(name, spread)
            ratio = statistics.median(latencies) / statistics.median(idle)
            ok = ok and ratio <= 2
            print(f"{GUESSERS} guessers, {name + ':':12} GET / {describe(latencies)}, {ratio:.2f}x idle; "
                  f"guess answers {counts}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data, ignore_errors=True)
    print("\nGOAL MET" if ok else "\nGOAL NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

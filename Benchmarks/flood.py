#!/usr/bin/env python3
"""Slow-header flood, for RELIABILITY.md: does the head deadline free the server, and does
everyone else keep being answered meanwhile?

Starts the release `tessera-bench` with its production limits (512 connections per address,
20 s head deadline, 15 s idle timeout). From 127.0.0.2-127.0.0.5, opens PER_ADDRESS connections
each (the cap) that send a request line and then one header line every 2 s, so the idle timeout
never fires. From 127.0.0.6, a client asks for /plaintext on a new connection every 100 ms.
Prints when the slow connections were cut off and the normal client's latencies.

Environment: PER_ADDRESS (512), SECONDS (30), PORT (18190).
"""
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PER_ADDRESS = int(os.environ.get("PER_ADDRESS", "512"))
SECONDS = int(os.environ.get("SECONDS", "30"))
PORT = int(os.environ.get("PORT", "18190"))


def start_server():
    subprocess.run(["scripts/swift.sh", "build", "-c", "release", "--product", "tessera-bench"], cwd=ROOT, check=True)
    environment = dict(os.environ, PORT=str(PORT), HOST="127.0.0.1", LOG_LEVEL="notice")
    server = subprocess.Popen([".build/release/tessera-bench"], cwd=ROOT, env=environment,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/plaintext", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    sys.exit("tessera-bench did not start")


def slow_clients(started, closed_after, stop):
    selector = selectors.DefaultSelector()
    sockets = []
    for host in range(2, 6):
        for _ in range(PER_ADDRESS):
            s = socket.socket()
            s.bind((f"127.0.0.{host}", 0))
            s.connect(("127.0.0.1", PORT))
            s.sendall(b"GET /plaintext HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
            selector.register(s, selectors.EVENT_READ)
            sockets.append(s)
    print(f"{len(sockets)} slow connections open after {time.monotonic() - started:.1f} s", flush=True)
    next_line = time.monotonic() + 2
    while not stop.is_set() and len(closed_after) < len(sockets):
        for key, _ in selector.select(timeout=0.1):
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                closed_after.append(time.monotonic() - started)
                selector.unregister(s)
                s.close()
        if time.monotonic() >= next_line:
            next_line += 2
            for key in list(selector.get_map().values()):
                try:
                    key.fileobj.send(b"X-Slow: 1\r\n")
                except OSError:
                    pass


def normal_client(latencies, failures, stop):
    while not stop.is_set():
        began = time.monotonic()
        try:
            s = socket.create_connection(("127.0.0.1", PORT), timeout=5, source_address=("127.0.0.6", 0))
            s.sendall(b"GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            reply = b""
            while chunk := s.recv(65536):
                reply += chunk
            s.close()
            if reply.startswith(b"HTTP/1.1 200"):
                latencies.append(time.monotonic() - began)
            else:
                failures.append(reply[:40])
        except OSError as error:
            failures.append(str(error))
        time.sleep(0.1)


def main():
    server = start_server()
    started = time.monotonic()
    closed_after, latencies, failures = [], [], []
    stop = threading.Event()
    normal = threading.Thread(target=normal_client, args=(latencies, failures, stop))
    normal.start()
    slow = threading.Thread(target=slow_clients, args=(started, closed_after, stop))
    slow.start()
    time.sleep(SECONDS)
    stop.set()
    slow.join()
    normal.join()
    server.terminate()
    log, _ = server.communicate()

    total = 4 * PER_ADDRESS
    print(f"\nslow connections: {total}, cut off: {len(closed_after)}")
    if closed_after:
        print(f"  cut off after (s): first {min(closed_after):.1f}, median {statistics.median(closed_after):.1f}, "
              f"last {max(closed_after):.1f}")
    print(f"normal client (127.0.0.6): {len(latencies)} answers, {len(failures)} failures")
    if latencies:
        ordered = sorted(latencies)
        print(f"  latency (ms): median {statistics.median(ordered) * 1000:.1f}, "
              f"p99 {ordered[int(len(ordered) * 0.99) - 1] * 1000:.1f}, max {ordered[-1] * 1000:.1f}")
    for line in log.splitlines():
        if "cut off" in line or "listening" in line:
            print("  server:", line)
    ok = len(closed_after) == total and not failures and latencies and max(latencies) < 1.0
    print("\nGOAL MET" if ok else "\nGOAL NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

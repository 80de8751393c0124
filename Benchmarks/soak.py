#!/usr/bin/env python3
"""Soak, for RELIABILITY.md and `make test`: 1,000 keep-alive connections for 30 s on the home
page, a product page and a signed-in order page. Passes when no request fails and the server's
memory comes back near its idle level within 10 s afterwards; prints the latencies.

Starts `make test`'s storefront, the binary the image ships (or STOREFRONT_BINARY), on a new data
directory, with TRUSTED_PROXIES=127.0.0.1: every connection comes from one address, as behind a
balancer, which the per-address cap exempts. Signs in as the demo user Ada for the order page. Then `wrk`
(Debian's) with 2 threads and a script that sends the three pages in turn. It prints what the
kernel's listen queues dropped meanwhile, and on failure the server's log (at `notice`, which
names connections it cut off), so that a failure says where it came from.

Every answer must be a 200: a redirect (a session that stopped working sends the order page to
/login) counts as a failure, as wrk's own count of errors would not.

Environment: CONNECTIONS (1000), SOAK_SECONDS (30), PORT (a free one unless given).
Exit status: 0 when it passed, 1 when it did not.
"""
import http.cookiejar
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "Support"))
from ports import free_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "1000"))
SECONDS = int(os.environ.get("SOAK_SECONDS", "30"))


PORT = int(os.environ.get("SOAK_PORT") or free_port())
BASE = f"http://127.0.0.1:{PORT}"
# Back near idle: within this much of the resident memory before the load, once it is over.
SETTLED_MARGIN_MB = 20


def binary():
    """The storefront `make test` built and tested (scripts/test-build.sh), or STOREFRONT_BINARY."""
    path = os.environ.get("STOREFRONT_BINARY", os.path.join(ROOT, ".build/test/release/storefront"))
    if not os.access(path, os.X_OK):
        sys.exit(f"no storefront at {path}: build it with scripts/test-build.sh (make soak does)")
    return path


def start(data):
    environment = dict(os.environ, PORT=str(PORT), HOST="127.0.0.1", DATA_DIR=data, LOG_LEVEL="notice",
                       TRUSTED_PROXIES="127.0.0.1")
    log = open(os.path.join(data, "server.log"), "w")
    server = subprocess.Popen([binary()], cwd=ROOT, env=environment,
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(400):
        # Ready, and the server that answers is this one (not another on the same port).
        if server.poll() is not None:
            break
        try:
            urllib.request.urlopen(BASE + "/readyz", timeout=1).read()
            if server.poll() is None:
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    with open(os.path.join(data, "server.log")) as log:
        sys.exit("the storefront did not start:\n" + log.read()[-4000:])


def sign_in_as_ada():
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = urllib.parse.urlencode({"email": "ada@example.com", "password": "ada-lovelace-1815", "next": "/"})
    opener.open(BASE + "/login", data=form.encode()).read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    reply = urllib.request.urlopen(urllib.request.Request(BASE + "/orders/1", headers={"Cookie": cookie}))
    assert reply.status == 200 and b'data-view="OrderPage"' in reply.read(), "signed in as Ada"
    return cookie


def resident_mb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def listen_queue_drops():
    """The kernel's count of connections a full listen queue dropped, for every socket."""
    with open("/proc/net/netstat") as netstat:
        lines = [line.split() for line in netstat if line.startswith("TcpExt:")]
    counters = dict(zip(lines[0][1:], map(int, lines[1][1:])))
    return counters.get("ListenOverflows", 0) + counters.get("ListenDrops", 0)


def run_wrk(cookie):
    script = f"""
local paths = {{"/", "/products/2", "/orders/1"}}
local i = 0
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args) wrong = 0 end
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1], {{["Cookie"] = "{cookie}"}})
end
function response(status, headers, body)
  if status ~= 200 then wrong = wrong + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("wrong") end
  io.write(string.format("answers other than 200: %d\\n", total))
end
"""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(script)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--timeout", "10s", "--latency", "-s", lua.name, BASE]
    print("+", " ".join(command), flush=True)
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    os.unlink(lua.name)
    return output


def main():
    with tempfile.TemporaryDirectory(prefix="tessera-soak-") as data:
        server = start(data)
        try:
            cookie = sign_in_as_ada()
            for path in ["/", "/products/2", "/orders/1"]:  # warm up: every page rendered once
                urllib.request.urlopen(urllib.request.Request(BASE + path, headers={"Cookie": cookie})).read()
            time.sleep(1)
            idle = resident_mb(server.pid)
            drops_before = listen_queue_drops()
            output = run_wrk(cookie)
            queue_drops = listen_queue_drops() - drops_before
            peak = resident_mb(server.pid, "VmHWM")
            # The server hands memory back after two quiet seconds (its idle trim): wait for that,
            # up to 10 s, rather than a fixed time.
            settle_started = time.monotonic()
            settled = resident_mb(server.pid)
            while settled > idle + SETTLED_MARGIN_MB and time.monotonic() - settle_started < 10:
                time.sleep(0.25)
                settled = resident_mb(server.pid)
            settle_seconds = time.monotonic() - settle_started
            still_serving = server.poll() is None and urllib.request.urlopen(BASE + "/readyz", timeout=5).status == 200
        finally:
            server.terminate()
            server.wait(timeout=30)
            with open(os.path.join(data, "server.log")) as log:
                server_log = log.read()

    print(output)
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    errors = sum(int(n) for n in socket_errors.groups()) if socket_errors else 0
    non_2xx = int(re.search(r"Non-2xx or 3xx responses: (\d+)", output).group(1)) if "Non-2xx" in output else 0
    not_200 = int(re.search(r"answers other than 200: (\d+)", output).group(1))
    latency = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", output, re.MULTILINE))
    print(f"{CONNECTIONS} connections, {SECONDS} s: {requests} requests, {rate:.0f}/s, "
          f"socket errors {errors}, non-2xx/3xx {non_2xx}, not 200 {not_200}, p50 {latency.get('50')}, p99 {latency.get('99')}")
    print(f"resident memory: idle {idle:.1f} MB, peak {peak:.1f} MB, {settled:.1f} MB {settle_seconds:.1f} s after")
    print(f"connections a full listen queue dropped meanwhile: {queue_drops}")

    failures = []
    if errors or non_2xx or not_200:
        failures.append(f"{errors} socket errors, {non_2xx} failed answers, {not_200} answers other than 200")
    if requests == 0:
        failures.append("no request was answered")
    if settled > idle + SETTLED_MARGIN_MB:
        failures.append(f"memory did not come back: {settled:.1f} MB against {idle:.1f} MB idle")
    if not still_serving:
        failures.append("not ready after the load")
    if failures:
        print("the server's log:\n" + server_log[-4000:])
        print("soak FAILED: " + "; ".join(failures))
        sys.exit(1)
    print("soak passed")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""HTTP benchmarks for `make bench`: Tessera against the plain-C libmicrohttpd reference, in one run.

Both servers run at the same time with the same thread count; wrk loads them in alternating
rounds so that machine noise falls on both alike, and the medians are compared. The C reference
is the physical limit for anything on libmicrohttpd, so the ratio is the framework's overhead.

By default, on a machine with two cores or more, each server is pinned to core 0 with one thread
and wrk to core 1: the servers are then CPU-bound on one core and the load generator never steals
their time, which makes the ratio stable to about 1% on a shared 2-core machine. PIN=0 lets
everything float (servers get THREADS threads), which is closer to production and much noisier.

Then the storefront's real pages (release build, demo data on SQLite), each against the same
server's /healthz in the same round, and the catalog's pages at 40, 10,000 and 100,000 products.

`run-http.py storefront catalog` runs only those parts (after the build); the parts are
core, unpinned, storefront, live, postgres, catalog, tracing, techempower (TechEmpower's
seven tests against the C + libpq reference and Hummingbird 2, pinned and unpinned),
slow-statement (/db's p99 beside a 2 s statement on the same loop) and conditional (a repeat
view's 304 against /healthz, pinned and unpinned).

Every goal the benchmarks hold is printed again at the end, with its ratio and whether it is met.

Environment: ROUNDS (5), DURATION seconds per round (5), CONNECTIONS (64), PIN (1),
THREADS (server threads when not pinned; default: cores), WRK_THREADS (1), TECHEMPOWER_PATHS
(a comma-separated list of the TechEmpower paths to run, such as `/json,/cached-queries?count=20`;
all seven unless given).
"""
import atexit
import http.server
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import tempfile
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUNDS = int(os.environ.get("ROUNDS", "5"))
DURATION = int(os.environ.get("DURATION", "5"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "64"))
WRK_THREADS = int(os.environ.get("WRK_THREADS", "1"))
PIN = os.environ.get("PIN", "1") == "1" and (os.cpu_count() or 1) >= 2
SERVER_THREADS = "1" if PIN else os.environ.get("THREADS", str(os.cpu_count() or 1))
SERVER_CPU = ["taskset", "-c", "0"] if PIN else []
WRK_CPU = ["taskset", "-c", "1"] if PIN else []
# (goal, measured ratio, needed ratio, higher is better), printed together at the end.
GOALS = []


def goal(name, ratio, needed, higher_is_better=True):
    GOALS.append((name, ratio, needed, higher_is_better))


def print_goals():
    print("\nGoals (each a ratio measured against a reference in the same run)")
    print("| goal | ratio | needed | met |")
    print("|---|---:|---:|---|")
    for name, ratio, needed, higher in GOALS:
        met = ratio >= needed if higher else ratio <= needed
        print(f"| {name} | {ratio:.2f} | {'≥' if higher else '≤'} {needed:.2f} | {'yes' if met else '**no**'} |")


def run(command, **kwargs):
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=ROOT, **kwargs)


def build():
    # Tessera's libmicrohttpd, as make would point to it, for a run started by hand too; every
    # build through scripts/swift.sh, in the environment every other build has.
    run(["scripts/build-libmicrohttpd.sh"])
    run(["scripts/swift.sh", "build", "-c", "release", "--product", "tessera-bench"])
    run(["scripts/swift.sh", "build", "-c", "release", "--product", "storefront"])
    # The Swift peer, a package of its own: the product never depends on Hummingbird.
    run(["scripts/swift.sh", "build", "-c", "release", "--package-path", "Benchmarks/hummingbird2"])
    # The same libmicrohttpd as Tessera's: the build make points pkg-config at.
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], check=True, capture_output=True, text=True,
                           env=dict(os.environ, PKG_CONFIG_PATH=os.path.join(ROOT, ".build-deps/libmicrohttpd/lib/pkgconfig"))).stdout.split()
    run(["cc", "-O2", "-Wall", "-o", "Benchmarks/c-reference/reference",
         "Benchmarks/c-reference/reference.c"] + flags + ["-lsqlite3", "-I/usr/include/postgresql", "-lpq"])


def start(command, port, probe="/plaintext", pinned=None, **settings):
    pinned = PIN if pinned is None else pinned
    threads = SERVER_THREADS if pinned == PIN else ("1" if pinned else str(os.cpu_count() or 1))
    environment = dict(os.environ, PORT=str(port), HOST="127.0.0.1", THREADS=threads,
                       LOG_LEVEL=os.environ.get("BENCH_LOG_LEVEL", "error"), **settings)
    # Each server's output in .build/bench-logs, for a run that fails (BENCH_LOG_LEVEL=info logs every answer).
    logs = os.path.join(ROOT, ".build/bench-logs")
    os.makedirs(logs, exist_ok=True)
    with open(os.path.join(logs, f"{os.path.basename(command[0])}-{port}.log"), "w") as log:
        process = subprocess.Popen((["taskset", "-c", "0"] if pinned else []) + command, cwd=ROOT, env=environment,
                                   stdout=log, stderr=subprocess.STDOUT)
    for _ in range(400):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{probe}", timeout=1).read()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    sys.exit(f"{command[0]} did not start on port {port}")


def wrk(target, duration=DURATION, pinned=None):
    """target: a URL, or (URL, header) for a request that sends one more header, or (URL, [headers])."""
    url, headers = (target, []) if isinstance(target, str) else target
    extra = [flag for header in ([headers] if isinstance(headers, str) else headers) for flag in ("-H", header)]
    cpu = WRK_CPU if pinned is None or pinned == PIN else (["taskset", "-c", "1"] if pinned else [])
    output = subprocess.run(
        cpu + ["wrk", f"-t{WRK_THREADS}", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency"] + extra + [url],
        check=True, capture_output=True, text=True).stdout
    requests = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99_text = re.search(r"99%\s+([\d.]+)(us|ms|s)", output)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99_text.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        sys.exit(f"{url}: {errors.group(1)} error responses\n{output}")
    return requests, float(p99_text.group(1)) * scale


def signed_in_cookie(base, email, password):
    """Signs in through the storefront's own form, as a browser would, and returns the Cookie
    header value of the signed-in session."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    form = urllib.parse.urlencode({"email": email, "password": password}).encode()
    opener.open(base + "/login", data=form, timeout=5).read()
    jar = next(handler.cookiejar for handler in opener.handlers if isinstance(handler, urllib.request.HTTPCookieProcessor))
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    # The session must really be signed in: the orders page answers, not the sign-in form.
    check = urllib.request.Request(base + "/orders", headers={"Cookie": cookie})
    if 'data-view="OrderList"' not in urllib.request.urlopen(check, timeout=5).read().decode():
        sys.exit("could not sign in to the storefront for /orders")
    return cookie


def require_same_bytes(path, *bases):
    """Both servers must send the same page, or their numbers compare different work."""
    bodies = [urllib.request.urlopen(base + path, timeout=5).read() for base in bases]
    if bodies[0] != bodies[1]:
        sys.exit(f"{path}: the C reference and tessera-bench send different bytes")
    print(f"{path}: both servers send the same {len(bodies[0])} bytes")


def transfer_sizes(url):
    """The body's bytes on the wire without and with gzip: what compression saves per page."""
    sizes = []
    for headers in ({}, {"Accept-Encoding": "gzip"}):
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as reply:
            sizes.append(len(reply.read()))
    return sizes


def measure(targets, reference, pinned=None, rounds=None):
    """targets: name -> url, the reference first. Each round measures every target once, back to
    back; a target's ratio is taken against the reference *in the same round*, so that the slow
    drifts of a shared machine cancel out, and the median of those ratios is reported.
    Returns name -> (median req/s, median p99 ms, median ratio, every round's req/s)."""
    for url in targets.values():
        wrk(url, duration=2, pinned=pinned)  # warm-up
    samples = {name: [] for name in targets}
    for round_number in range(rounds or ROUNDS):
        for name, url in targets.items():
            samples[name].append(wrk(url, pinned=pinned))
            ratio = samples[name][-1][0] / samples[reference][-1][0]
            print(f"  round {round_number + 1}: {name:<40} {samples[name][-1][0]:>10.0f} req/s  {ratio:5.2f}", flush=True)
    results = {}
    for name, values in samples.items():
        ratios = [value[0] / samples[reference][index][0] for index, value in enumerate(values)]
        results[name] = (statistics.median(v[0] for v in values), statistics.median(v[1] for v in values),
                         statistics.median(ratios), [v[0] for v in values])
    return results


def table(title, results, versus="vs ref"):
    print(f"\n{title}")
    print(f"| {'server':<40} | {'requests/s':>10} | {'p99 (ms)':>8} | {versus:>6} |")
    print(f"|{'-' * 42}|{'-' * 12}:|{'-' * 9}:|{'-' * 7}:|")
    for name, (requests, p99, ratio, _) in results.items():
        print(f"| {name:<40} | {requests:>10.0f} | {p99:>8.2f} | {ratio:>6.2f} |")


def main():
    build()
    parts = {"core": core, "unpinned": unpinned, "storefront": storefront_pages, "live": live_regions,
             "postgres": postgres_pages, "catalog": catalog_sizes, "tracing": tracing_cost,
             "techempower": techempower, "slow-statement": slow_statement, "conditional": conditional,
             "pgbench": database_limit}
    # `run-http.py storefront catalog`: only those parts, after the build.
    chosen = sys.argv[1:] or list(parts)
    unknown = [name for name in chosen if name not in parts]
    if unknown:
        sys.exit(f"unknown part {unknown[0]!r}: choose from {', '.join(parts)}")
    servers = []
    try:
        for name in chosen:
            parts[name](servers)
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    print_goals()


def bench_servers(servers, pinned, ports, cluster=None):
    """tessera-bench and the C reference side by side, on one fortune database (SQLite, and
    PostgreSQL when a cluster is given), pinned or not."""
    data = tempfile.mkdtemp(prefix="tessera-bench-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    postgres = {"DATABASE_URL": cluster.url} if cluster else {}
    servers.append(start([".build/release/tessera-bench"], ports[1], pinned=pinned, DATA_DIR=data, **postgres))
    postgres = {"FORTUNES_POSTGRES": cluster.url} if cluster else {}
    servers.append(start(["Benchmarks/c-reference/reference"], ports[0], pinned=pinned,
                         FORTUNES_DB=os.path.join(data, "fortunes.sqlite"), **postgres))
    return f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}"


def core(servers):
    """/plaintext, /fortunes and the database Fortunes against the C reference, pinned as the
    module's docstring says."""
    cluster = PostgresCluster()
    servers.append(cluster)
    c, tessera = bench_servers(servers, PIN, (18090, 18091), cluster)
    placement = "servers pinned to core 0, wrk to core 1" if PIN else "nothing pinned"
    print(f"\nwrk -t{WRK_THREADS} -c{CONNECTIONS} -d{DURATION}s, {ROUNDS} alternating rounds, "
          f"{SERVER_THREADS} server thread(s), {os.cpu_count()} cores, {placement}")
    print("Tessera's pipeline (tessera-bench, BenchApp): CompressionMiddleware and ErrorPageMiddleware "
          "for every request, CSRFMiddleware once a route matched: 3 middleware steps, as an app without "
          "sessions has; wrk asks for no compression unless a row says gzip")
    for path in ("/plaintext", "/memory-fortunes", "/sqlite-fortunes", "/fortunes"):
        require_same_bytes(path, c, tessera)
    reference = "C libmicrohttpd reference"
    results = measure({
        reference: c + "/plaintext",
        "Tessera, full pipeline, prepared answer": tessera + "/plaintext",
        "Tessera, full pipeline, Response per request": tessera + "/plaintext-built",
        "Tessera, full pipeline, handler suspends once": tessera + "/plaintext-suspending",
    }, reference)
    table("GET /plaintext (medians; vs C is the median of per-round ratios)", results, "vs C")
    goal("/plaintext vs C, pinned", results["Tessera, full pipeline, prepared answer"][2], 0.85)
    rate_limits(tessera, pinned=None)

    fortunes_reference = "C libmicrohttpd /memory-fortunes"
    results = measure({
        fortunes_reference: c + "/memory-fortunes",
        "Tessera /memory-fortunes (pipeline, controller, views)": tessera + "/memory-fortunes",
        "Tessera /regions (three regions)": tessera + "/regions",
        "Tessera /memory-fortunes, gzip": (tessera + "/memory-fortunes", "Accept-Encoding: gzip"),
        "Tessera /regions, gzip": (tessera + "/regions", "Accept-Encoding: gzip"),
    }, fortunes_reference)
    table("GET /memory-fortunes, the Fortunes page from rows in memory, built for every request (medians; vs C as above)", results, "vs C")
    goal("/memory-fortunes vs C, pinned", results["Tessera /memory-fortunes (pipeline, controller, views)"][2], 0.7)
    for path in ("/memory-fortunes", "/regions"):
        plain, gzipped = transfer_sizes(tessera + path)
        print(f"{path}: {plain} bytes, {gzipped} with gzip ({gzipped / plain:.2f})")

    database_reference = "C libmicrohttpd + sqlite3 /sqlite-fortunes"
    results = measure({
        database_reference: c + "/sqlite-fortunes",
        "Tessera /sqlite-fortunes (SQLite, a read per request)": tessera + "/sqlite-fortunes",
    }, database_reference)
    table("GET /sqlite-fortunes, the rows read from SQLite for every request (medians; vs C + sqlite3)", results, "vs C")
    goal("/sqlite-fortunes vs C + sqlite3", results["Tessera /sqlite-fortunes (SQLite, a read per request)"][2], 0.7)


# TechEmpower's seven tests: (name, URL path, whether it reads the database). Multiple queries,
# updates and cached queries at 20 rows, TechEmpower's middle step.
# (name, path, goal): the database tests need 0.6 of C and 1.5 of Hummingbird; JSON and
# plaintext 0.85 of C.
TECHEMPOWER_TESTS = [
    ("JSON", "/json", "http"),
    ("single query", "/db", "database"),
    ("multiple queries (20)", "/queries?queries=20", "database"),
    ("updates (20)", "/updates?queries=20", "database"),
    ("cached queries (20)", "/cached-queries?count=20", "database"),
    ("Fortunes", "/fortunes", "database"),
    ("plaintext", "/plaintext", "http"),
]
if os.environ.get("TECHEMPOWER_PATHS"):
    _wanted = os.environ["TECHEMPOWER_PATHS"].split(",")
    TECHEMPOWER_TESTS = [test for test in TECHEMPOWER_TESTS if test[1] in _wanted]
    if len(TECHEMPOWER_TESTS) != len(_wanted):
        sys.exit(f"TECHEMPOWER_PATHS names a path that is not one of TechEmpower's tests: {_wanted}")
HUMMINGBIRD = "Benchmarks/hummingbird2/.build/release/HummingbirdBench"


def techempower(servers):
    """TechEmpower's seven tests on one PostgreSQL cluster (its schema, made by tessera-bench):
    Tessera against the C + libpq reference and against Hummingbird 2 with PostgresNIO (as
    TechEmpower's hummingbird2 entry is written), the three servers in the same rounds, pinned
    then unpinned. The ratio to Hummingbird is the median of the per-round ratios too."""
    cluster = PostgresCluster()
    servers.append(cluster)
    for pinned, ports in ((True, (18290, 18291, 18292)), (False, (18390, 18391, 18392))):
        placement = "pinned" if pinned else "unpinned"
        threads = 1 if pinned else (os.cpu_count() or 1)
        data = tempfile.mkdtemp(prefix="tessera-bench-te-")
        atexit.register(shutil.rmtree, data, ignore_errors=True)
        # tessera-bench first: it makes the tables the others read. Each server gets the
        # connections its design calls for: C one per thread, the Swift two twice the threads.
        started = [start([".build/release/tessera-bench"], ports[1], pinned=pinned, DATA_DIR=data, DATABASE_URL=cluster.url),
                   start(["Benchmarks/c-reference/reference"], ports[0], pinned=pinned, FORTUNES_POSTGRES=cluster.url),
                   start([HUMMINGBIRD], ports[2], pinned=pinned, DATABASE_URL=cluster.url, POOL_SIZE=str(max(2, threads * 2)))]
        servers.extend(started)
        c, tessera, hummingbird = (f"http://127.0.0.1:{port}" for port in ports)
        print(f"\nTechEmpower's tests, {placement}: wrk -t{WRK_THREADS} -c{CONNECTIONS} -d{DURATION}s, {ROUNDS} rounds, "
              f"{threads} server thread(s) each, PostgreSQL unpinned beside them")
        for name, path, kind in TECHEMPOWER_TESTS:
            reference = f"C + libpq {path}"
            results = measure({reference: c + path, f"Tessera {path}": tessera + path,
                               f"Hummingbird 2 {path}": hummingbird + path}, reference, pinned=pinned)
            ours, theirs = results[f"Tessera {path}"][3], results[f"Hummingbird 2 {path}"][3]
            versus_peer = statistics.median(a / b for a, b in zip(ours, theirs))
            table(f"TechEmpower {name}, GET {path}, {placement} (medians; vs C + libpq; Tessera / Hummingbird 2 = "
                  f"{versus_peer:.2f})", results, "vs C")
            if kind == "database":
                goal(f"TechEmpower {name} vs C + libpq, {placement}", results[f"Tessera {path}"][2], 0.6)
                goal(f"TechEmpower {name} vs Hummingbird 2, {placement}", versus_peer, 1.5)
            else:
                goal(f"TechEmpower {name} vs C + libpq, {placement}", results[f"Tessera {path}"][2], 0.8 if path == "/json" else 0.85)
        for server in started:
            server.terminate()
            server.wait()
            servers.remove(server)


# pgbench's scripts for the same reads as /db and /queries?queries=20: the same prepared statement,
# one a transaction, and twenty pipelined (the ids drawn first, then one round trip for all).
PGBENCH_SINGLE = "\\set id random(1, 10000)\nSELECT id, randomnumber FROM world WHERE id = :id;\n"
PGBENCH_TWENTY = ("".join(f"\\set id{i} random(1, 10000)\n" for i in range(20)) + "\\startpipeline\n"
                  + "".join(f"SELECT id, randomnumber FROM world WHERE id = :id{i};\n" for i in range(20)) + "\\endpipeline\n")


def pgbench(url, script, pinned):
    """pgbench's transactions per second for `script`, from as many connections as wrk opens, on
    wrk's core when pinned: what the cluster itself can answer, with no HTTP at all."""
    with tempfile.NamedTemporaryFile("w", suffix=".pgbench", delete=False) as file:
        file.write(script)
    atexit.register(os.unlink, file.name)
    cpu = ["taskset", "-c", "1"] if pinned else []
    output = subprocess.run(cpu + ["pgbench", "-n", "-M", "prepared", "-c", str(CONNECTIONS), "-j", str(WRK_THREADS),
                                   "-T", str(DURATION), "-f", file.name, url], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"tps = ([\d.]+) \(without initial connection time\)", output).group(1))


def database_limit(servers):
    """/db and /queries?queries=20 against pgbench running the same prepared statements on the
    same cluster (the database's own limit here, which the C reference, blocking per query, does
    not reach), alternating in the same rounds; pinned (Tessera on core 0, wrk or pgbench on core
    1, PostgreSQL unpinned), then unpinned. Each ratio is the median of the per-round ratios."""
    cluster = PostgresCluster()
    servers.append(cluster)
    for pinned, port in ((True, 18490), (False, 18491)):
        placement = "pinned" if pinned else "unpinned"
        data = tempfile.mkdtemp(prefix="tessera-bench-pgbench-")
        atexit.register(shutil.rmtree, data, ignore_errors=True)
        server = start([".build/release/tessera-bench"], port, pinned=pinned, DATA_DIR=data, DATABASE_URL=cluster.url)
        servers.append(server)
        tessera = f"http://127.0.0.1:{port}"
        print(f"\nThe database's own limit, {placement}: wrk or pgbench -c{CONNECTIONS}, {DURATION} s, {ROUNDS} rounds")
        for name, path, script, needed in (("single query", "/db", PGBENCH_SINGLE, 0.55),
                                           ("20 queries", "/queries?queries=20", PGBENCH_TWENTY, 0.8)):
            wrk(tessera + path, duration=2, pinned=pinned)
            pgbench(cluster.url, script, pinned)
            ratios = []
            for round_number in range(ROUNDS):
                ours = wrk(tessera + path, pinned=pinned)[0]
                theirs = pgbench(cluster.url, script, pinned)
                ratios.append(ours / theirs)
                print(f"  round {round_number + 1}: Tessera {path} {ours:>9.0f} req/s, pgbench {theirs:>9.0f} tps: {ours / theirs:.2f}",
                      flush=True)
            goal(f"{name} {path} vs pgbench, {placement}", statistics.median(ratios), needed)
        server.terminate()
        server.wait()
        servers.remove(server)


def rate_limits(tessera, pinned):
    """The prepared answer behind a rate limit (counted in memory, never refusing) against the
    same answer unlimited, in the same rounds: what a limited route costs. An unlimited route
    never meets the step, so it pays nothing."""
    unlimited = "Tessera /plaintext, unlimited"
    results = measure({unlimited: tessera + "/plaintext", "Tessera /plaintext-limited (RateLimit, memory)": tessera + "/plaintext-limited"},
                      unlimited, pinned=pinned)
    placement = "unpinned" if pinned is False else "pinned"
    table(f"A rate-limited route against the same route unlimited, {placement} (medians; limited / unlimited)", results, "ratio")
    print(f"rate limit, {placement}: limited / unlimited = {results['Tessera /plaintext-limited (RateLimit, memory)'][2]:.2f}")


def unpinned(servers):
    """/plaintext and /fortunes as a new user measures them: both servers side by side with a
    thread per core, wrk beside them, nothing pinned; as many rounds, each its own ratio."""
    c, tessera = bench_servers(servers, False, (18190, 18191))
    print(f"\nUnpinned: wrk -t{WRK_THREADS} -c{CONNECTIONS} -d{DURATION}s, {ROUNDS} alternating rounds, "
          f"{os.cpu_count()} server threads each, nothing pinned (the scheduler places every thread)")
    results = measure({"C /plaintext": c + "/plaintext", "Tessera /plaintext": tessera + "/plaintext"}, "C /plaintext", pinned=False)
    table("GET /plaintext, unpinned (medians; vs C is the median of per-round ratios)", results, "vs C")
    goal("/plaintext vs C, unpinned", results["Tessera /plaintext"][2], 0.85)
    rate_limits(tessera, pinned=False)
    results = measure({"C /memory-fortunes": c + "/memory-fortunes", "Tessera /memory-fortunes": tessera + "/memory-fortunes"},
                      "C /memory-fortunes", pinned=False)
    table("GET /memory-fortunes, unpinned (medians; vs C as above)", results, "vs C")
    goal("/memory-fortunes vs C, unpinned", results["Tessera /memory-fortunes"][2], 0.7)
    for server in servers[-2:]:
        server.terminate()
        server.wait()
    del servers[-2:]


def median_latency_ms(url, duration=3):
    """The median latency of one client sending requests back to back: what one shopper waits."""
    output = subprocess.run(WRK_CPU + ["wrk", "-t1", "-c1", f"-d{duration}s", "--latency", url],
                            check=True, capture_output=True, text=True).stdout
    value, unit = re.search(r"50%\s+([\d.]+)(us|ms|s)", output).groups()
    if re.search(r"Non-2xx or 3xx responses: (\d+)", output):
        sys.exit(f"{url}: error responses\n{output}")
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def follow_link(base, path, pattern):
    """The target of the first link matching `pattern` on the page at `path`, as a visitor clicks it."""
    page = urllib.request.urlopen(base + path, timeout=10).read().decode()
    return re.search(pattern, page).group(1).replace("&amp;", "&")


def resident_mb(process):
    with open(f"/proc/{process.pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) / 1024


class OTLPSink(http.server.ThreadingHTTPServer):
    """An OTLP/HTTP endpoint on loopback that takes every export and drops it, as a collector
    that keeps up would: what tracing costs the server is what is measured."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.server.exports += 1
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    def __init__(self):
        self.exports = 0
        super().__init__(("127.0.0.1", 0), self.Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


def tracing_cost(servers):
    """The storefront's product page traced (spans for the request, its regions and its reads,
    exported over OTLP/HTTP to a sink on loopback) against the same page untraced, on one seeded
    data directory, in the same rounds; pinned, then unpinned. All three run the binary the image
    ships, make test's build, which has the OTLP exporter (`make run`'s has none)."""
    run(["scripts/test-build.sh", "--product", "storefront"])
    storefront = os.path.join(ROOT, ".build/test/release/storefront")
    sink = OTLPSink()
    data = tempfile.mkdtemp(prefix="tessera-bench-tracing-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    run([storefront, "seed", "--data-dir", data])
    untraced, traced = "product page, no OTEL_* settings", "product page, traced, exported over OTLP/HTTP"
    for pinned in (None, False):
        placement = "unpinned" if pinned is False else "pinned"
        plain = start([storefront], 18710, pinned=pinned, probe="/healthz", DATA_DIR=data)
        servers.append(plain)
        endpoint = f"http://127.0.0.1:{sink.server_address[1]}"
        tracing = start([storefront], 18711, pinned=pinned, probe="/healthz", DATA_DIR=data,
                        OTEL_EXPORTER_OTLP_ENDPOINT=endpoint)
        servers.append(tracing)
        sampling = start([storefront], 18712, pinned=pinned, probe="/healthz", DATA_DIR=data,
                         OTEL_EXPORTER_OTLP_ENDPOINT=endpoint, OTEL_TRACES_SAMPLER="parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG="0.1")
        servers.append(sampling)
        sampled = "product page, traced, 1 trace in 10 sampled"
        results = measure({untraced: "http://127.0.0.1:18710/products/20", traced: "http://127.0.0.1:18711/products/20",
                           sampled: "http://127.0.0.1:18712/products/20"}, untraced, pinned=pinned)
        table(f"Tracing on against off, the storefront's product page, {placement} (medians; traced / untraced)", results, "ratio")
        print(f"tracing, {placement}: traced / untraced = {results[traced][2]:.2f}, sampled 1 in 10 = {results[sampled][2]:.2f} "
              f"({sink.exports} exports received)")
        for server in (plain, tracing, sampling):
            server.terminate()
            server.wait()
            servers.remove(server)


def catalog_sizes(servers):
    """The catalog's pages as it grows: `storefront seed --products N` for 10,000 and 100,000
    products, against the 40 of the demo, each page's median latency for one client, and the
    server's memory idle and after the load. Goal: at most 2x the 40-product latency."""
    pages = {"list /": "/", "list, the page before the last (keyset)": "{before_last}",
             "search, one word (/?q=oak)": "/?q=oak", "search, two words (/?q=walnut+lamp)": "/?q=walnut+lamp",
             "category /?category=kitchen": "/?category=kitchen", "product page": "/products/{middle}"}
    columns, memory = {}, {}
    for index, count in enumerate((40, 10_000, 100_000)):
        data = tempfile.mkdtemp(prefix=f"tessera-bench-{count}-")
        atexit.register(shutil.rmtree, data, ignore_errors=True)
        run([".build/release/storefront", "seed", "--data-dir", data] + (["--products", str(count)] if count > 40 else []))
        port = 18610 + index  # its own ports: the PostgreSQL part's servers may still be up
        server = start([".build/release/storefront"], port, probe="/healthz", DATA_DIR=data)
        servers.append(server)
        time.sleep(1)
        idle = resident_mb(server)
        base = f"http://127.0.0.1:{port}"
        before_last = follow_link(base, follow_link(base, "/", r'<a href="([^"]+)">Last</a>'), r'<a rel="prev" href="([^"]+)">')
        columns[count] = {name: median_latency_ms(base + path.format(middle=count // 2, before_last=before_last))
                          for name, path in pages.items()}
        memory[count] = (idle, resident_mb(server))
        server.terminate()
        server.wait()
        servers.remove(server)
    print("\nThe catalog as it grows: median latency for one client, ms (storefront seed --products N)")
    print(f"| page | 40 | 10,000 | 100,000 | 100,000 vs 40 |")
    print("|---|---:|---:|---:|---:|")
    for name in pages:
        row = [columns[count][name] for count in (40, 10_000, 100_000)]
        print(f"| {name} | {row[0]:.2f} | {row[1]:.2f} | {row[2]:.2f} | {row[2] / row[0]:.1f}x |")
        goal(f"{name} at 100,000 products vs 40 (median latency)", row[2] / row[0], 2.0, higher_is_better=False)
    print("| resident memory, idle / after the load (MB) | "
          + " | ".join(f"{memory[count][0]:.0f} / {memory[count][1]:.0f}" for count in (40, 10_000, 100_000)) + " | |")


def live_regions(servers, subscribers=1000):
    """Live regions: what being live costs a page (tessera-bench's three regions at their own
    URLs, without topics and with, in the same rounds; the storefront's product page with live
    regions on and off), and 1,000 pages following one storefront product page (release build,
    SQLite): the server's memory per open stream, and the time from a checkout that changes the
    stock to each page's stream carrying the new stock."""
    if not any(getattr(server, "args", [None])[-1:] == [".build/release/tessera-bench"] for server in servers):
        data = tempfile.mkdtemp(prefix="tessera-bench-live-")
        atexit.register(shutil.rmtree, data, ignore_errors=True)
        servers.append(start([".build/release/tessera-bench"], 18091, DATA_DIR=data))
    reference = "Tessera /regions-sourced (regions at their URLs)"
    results = measure({
        reference: "http://127.0.0.1:18091/regions-sourced",
        "Tessera /regions-live (the same, live)": "http://127.0.0.1:18091/regions-live",
    }, reference)
    table("A page with live regions against the same page without (medians; the ratio is live / not live)", results, "ratio")

    # The storefront's product page (two live regions, the layout, a session) on two servers of
    # the same build and demo data, one with live regions off (LIVE_STREAMS_PER_CLIENT=0): the
    # same page with and without them.
    bases, pair = {}, []
    for port, streams in ((18098, "0"), (18099, "16")):
        data = tempfile.mkdtemp(prefix=f"tessera-bench-live-page-{streams}-")
        atexit.register(shutil.rmtree, data, ignore_errors=True)
        pair.append(start([".build/release/storefront"], port, probe="/healthz", DATA_DIR=data, LIVE_STREAMS_PER_CLIENT=streams))
        bases[streams] = f"http://127.0.0.1:{port}"
    servers.extend(pair)
    for streams, marked in (("0", False), ("16", True)):
        page = urllib.request.urlopen(bases[streams] + "/products/2", timeout=5).read().decode()
        if ("data-live-stream" in page) != marked:
            sys.exit(f"/products/2 with LIVE_STREAMS_PER_CLIENT={streams}: live markup {'missing' if marked else 'present'}")
    reference = "storefront /products/2, live regions off"
    results = measure({
        reference: bases["0"] + "/products/2",
        "storefront /products/2, live": bases["16"] + "/products/2",
    }, reference)
    table("The storefront's product page with live regions against the same page without (medians; live / off)", results, "ratio")
    for server in pair:
        server.terminate()
        server.wait()

    sys.path.insert(0, os.path.join(ROOT, "Benchmarks"))
    import asyncio
    import live_subscribers
    data = tempfile.mkdtemp(prefix="tessera-bench-live-shop-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    # Eight client addresses of 125 subscribers each: within the per-address caps once raised to 200.
    server = start([".build/release/storefront"], 18097, probe="/healthz", DATA_DIR=data, LIVE_STREAMS_PER_CLIENT="200")
    servers.append(server)
    numbers = asyncio.run(live_subscribers.run(18097, subscribers, 2, lambda: resident_mb(server)))
    print(f"\n{subscribers} pages following /products/2 on one storefront (SQLite, server pinned as above)")
    print("| resident memory before / with the streams (MB) | per stream (KB) | change to page p50 (ms) | p99 (ms) | max (ms) |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {numbers['before_mb']:.0f} / {numbers['held_mb']:.0f} | {numbers['per_subscriber_kb']:.1f} | "
          f"{numbers['p50_ms']:.0f} | {numbers['p99_ms']:.0f} | {numbers['max_ms']:.0f} |")


def storefront_pages(servers):
    """The storefront's real pages on the demo data (SQLite), each against the same server's
    `/healthz` in the same round, pinned and unpinned: a visitor without a session gets the
    page kept for everyone (KeptPages); the same bytes served as a static file by Tessera's own
    static route are what is possible; a signed-in shopper's page is rendered in full."""
    data = tempfile.mkdtemp(prefix="tessera-bench-shop-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    run([".build/release/storefront", "seed", "--data-dir", data])
    # The kept page's bytes as a static file, beside the shop's own files, there before the
    # measured servers start, as a deployed file would be.
    public = os.path.join(data, "public")
    shutil.copytree(os.path.join(ROOT, "Public"), public)
    first = start([".build/release/storefront"], 18092, probe="/healthz", DATA_DIR=data, PUBLIC_DIR=public)
    with urllib.request.urlopen("http://127.0.0.1:18092/products/2", timeout=5) as kept:
        if kept.headers.get("Cache-Control") != "public, no-cache" or kept.headers.get("Set-Cookie"):
            sys.exit("/products/2 is not answered from the kept page")
        page = kept.read()
    first.terminate()
    first.wait()
    with open(os.path.join(public, "products-2.html"), "wb") as file:
        file.write(page)
    for pinned, port in ((True, 18093), (False, 18094)):
        label = "pinned" if pinned else "unpinned"
        servers.append(start([".build/release/storefront"], port, pinned=pinned, probe="/healthz", DATA_DIR=data, PUBLIC_DIR=public))
        base = f"http://127.0.0.1:{port}"
        if urllib.request.urlopen(base + "/products-2.html", timeout=5).read() != page:
            sys.exit("/products-2.html does not send the kept page's bytes")
        cookie = signed_in_cookie(base, "ada@example.com", "ada-lovelace-1815")
        reference = "storefront /healthz"
        results = measure({
            reference: base + "/healthz",
            "/ (product list), kept": base + "/",
            "/products/2, kept": base + "/products/2",
            "/products-2.html, the same bytes as a file": base + "/products-2.html",
            "/?q=lamp, kept": base + "/?q=lamp",
            "/products/2, signed in (rendered)": (base + "/products/2", "Cookie: " + cookie),
            "/orders, signed in (rendered)": (base + "/orders", "Cookie: " + cookie),
        }, reference, pinned=pinned)
        table(f"The storefront's pages, demo data, {label} (medians; the ratio is to /healthz of the same server)", results, "vs /healthz")
        goal(f"storefront / kept vs its /healthz (SQLite), {label}", results["/ (product list), kept"][2], 0.6)
        goal(f"storefront /products/2 kept vs its /healthz (SQLite), {label}", results["/products/2, kept"][2], 0.6)
        goal(f"storefront /products/2 signed in vs its /healthz (SQLite), {label}", results["/products/2, signed in (rendered)"][2], 0.25)
        servers[-1].terminate()
        servers[-1].wait()
        del servers[-1]


def repeat_view_headers(url, cookie=None):
    """A returning visitor's headers for `url`: the ETag its first view got (and the session's
    cookie, for a signed-in shopper), checked to bring a 304."""
    first_headers = {"Cookie": cookie} if cookie else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=first_headers), timeout=5) as first:
        etag = first.headers.get("ETag")
    if not etag:
        sys.exit(f"{url}: no ETag on a returning visitor's view")
    headers = ([f"Cookie: {cookie}"] if cookie else []) + [f"If-None-Match: {etag}"]
    check = urllib.request.Request(url, headers=dict(header.split(": ", 1) for header in headers))
    try:
        urllib.request.urlopen(check, timeout=5)
        sys.exit(f"{url}: the repeat view was not answered 304")
    except urllib.error.HTTPError as reply:
        if reply.code != 304:
            sys.exit(f"{url}: the repeat view was answered {reply.code}")
    return headers


def conditional(servers):
    """A repeat view answered 304 before the page loads, against the same server's /healthz in
    the same round, pinned and unpinned, with metrics on."""
    data = tempfile.mkdtemp(prefix="tessera-bench-304-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    run([".build/release/storefront", "seed", "--data-dir", data])
    for pinned, port in ((True, 18096), (False, 18098)):
        label = "pinned" if pinned else "unpinned"
        # Every step runs, the metrics step included, as in production.
        servers.append(start([".build/release/storefront"], port, pinned=pinned, probe="/healthz", DATA_DIR=data,
                             METRICS_PORT=str(port + 1000)))
        base = f"http://127.0.0.1:{port}"
        reference = "storefront /healthz"
        results = measure({
            reference: base + "/healthz",
            "storefront /products/2, repeat view (304)": (base + "/products/2", repeat_view_headers(base + "/products/2")),
            "storefront /, repeat view (304)": (base + "/", repeat_view_headers(base + "/")),
        }, reference, pinned=pinned)
        table(f"A repeat view answered 304 before loading, {label} (medians; the ratio is to /healthz)", results, "vs /healthz")
        goal(f"/products/2 repeat view (304) vs /healthz, {label}", results["storefront /products/2, repeat view (304)"][2], 0.8)
        goal(f"/ repeat view (304) vs /healthz, {label}", results["storefront /, repeat view (304)"][2], 0.8)
        servers[-1].terminate()
        servers[-1].wait()
        del servers[-1]


class PostgresCluster:
    """A throwaway PostgreSQL cluster from scripts/with-postgres.sh, kept while its command waits
    for a line on its input; terminate() ends the script, which stops and deletes the cluster."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["scripts/with-postgres.sh", "sh", "-c", 'printf "%s\\n" "$TESSERA_POSTGRES_URL"; read line'],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("postgres://"):
            sys.exit("the throwaway PostgreSQL did not start")

    def terminate(self):
        self.process.stdin.close()

    def wait(self):
        self.process.wait()


def slow_statement(servers):
    """A 2 s statement in the database at every moment (`/slow-statement`, sent again as each
    ends) beside TechEmpower's single query on the same server, pinned to one thread: one loop
    for both, so `/db`'s p99 says whether anything waited for the slow statement."""
    cluster = PostgresCluster()
    servers.append(cluster)
    data = tempfile.mkdtemp(prefix="tessera-bench-slow-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    servers.append(start([".build/release/tessera-bench"], 18294, pinned=True, DATA_DIR=data, DATABASE_URL=cluster.url))
    base = "http://127.0.0.1:18294"
    done, slept = threading.Event(), []

    def sleeper():
        while not done.is_set():
            with urllib.request.urlopen(base + "/slow-statement", timeout=10) as reply:
                slept.append(reply.read() == b"slept")

    thread = threading.Thread(target=sleeper, daemon=True)
    thread.start()
    time.sleep(0.5)  # the first slow statement is in the database
    requests, p99 = wrk(base + "/db", duration=6, pinned=True)
    done.set()
    thread.join()
    if len(slept) < 3 or not all(slept):
        sys.exit(f"/slow-statement answered {len(slept)} times during the run, not 3 or more")
    print(f"\n/db beside a 2 s statement on its loop, pinned: {requests:,.0f} requests/s, p99 {p99:.1f} ms "
          f"({len(slept)} slow statements ran meanwhile)")
    goal("TechEmpower /db p99 (ms) beside a 2 s statement on its loop, pinned", p99, 50, higher_is_better=False)


def postgres_pages(servers):
    """The same pages on PostgreSQL (DATABASE_URL) and on SQLite, one instance each, in the same
    rounds: the ratio is PostgreSQL's to SQLite's. The cluster runs unpinned, beside both."""
    cluster = PostgresCluster()
    servers.append(cluster)
    data = tempfile.mkdtemp(prefix="tessera-bench-shop-")
    atexit.register(shutil.rmtree, data, ignore_errors=True)
    secret = "bench-" + "s" * 40
    run([".build/release/storefront", "seed", "--data-dir", data + "/sqlite"])
    run([".build/release/storefront", "seed"], env=dict(os.environ, DATABASE_URL=cluster.url))
    servers.append(start([".build/release/storefront"], 18094, probe="/healthz", DATA_DIR=data + "/sqlite", SESSION_SECRET=secret))
    servers.append(start([".build/release/storefront"], 18095, probe="/readyz", DATA_DIR=data + "/postgres",
                         DATABASE_URL=cluster.url, SESSION_SECRET=secret))
    sqlite, postgres = "http://127.0.0.1:18094", "http://127.0.0.1:18095"
    cookies = {base: signed_in_cookie(base, "ada@example.com", "ada-lovelace-1815") for base in (sqlite, postgres)}
    rows = {}
    for page, path in [("/ (product list)", "/"), ("/products/2", "/products/2"), ("/?q=lamp", "/?q=lamp"), ("/orders, signed in", "/orders")]:
        def target(base):
            return (base + path, "Cookie: " + cookies[base]) if path == "/orders" else base + path
        reference = f"SQLite {page}"
        rows.update(measure({reference: target(sqlite), f"PostgreSQL {page}": target(postgres)}, reference))
    table("The storefront's pages on PostgreSQL and on SQLite, one instance each "
          "(medians; the ratio is to the same page on SQLite)", rows, "vs SQLite")
    for name, (_, _, ratio, _) in rows.items():
        if name.startswith("PostgreSQL"):
            goal(f"storefront {name[len('PostgreSQL '):]} on PostgreSQL vs SQLite", ratio, 0.6)


if __name__ == "__main__":
    main()

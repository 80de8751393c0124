#!/usr/bin/env python3
"""Where a request's CPU goes: tessera-bench and the C reference on the same path, each pinned to
core 0 with one thread and loaded by wrk on core 1 at the same 64 connections, sampled with
`perf record -e cpu-clock -g` (the software clock: hardware counters do not work here). Each
sample is charged to the frame it was taken in, and frames are grouped by what they are: the
kernel, libmicrohttpd, the allocator, retain and release (their atomics), Swift's concurrency
runtime, other Swift runtime, copying, libc, and the server's own code. The groups come out in
microseconds per request (their share of the samples times the CPU per request that perf stat
measured beside them), so the two servers' columns subtract.

After `make bench` (or run-http.py's build). The database routes need a cluster:
    Benchmarks/profile-split.py [PATH]      default /plaintext
    scripts/with-postgres.sh Benchmarks/profile-split.py '/cached-queries?count=20'

"""
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = sys.argv[1] if len(sys.argv) > 1 else "/plaintext"
MHD = os.path.join(ROOT, ".build-deps/libmicrohttpd/lib/libmicrohttpd.a")
SECONDS = 5

# libmicrohttpd is linked statically into both servers: its functions are known by name.
mhd_symbols = {line.split()[-1] for line in subprocess.run(["nm", MHD], capture_output=True, text=True).stdout.splitlines()
               if len(line.split()) == 3 and line.split()[1] in "Tt"}

GROUPS = [
    ("kernel (system calls, wake-ups)", lambda sym, dso: dso.startswith("[kernel") or sym.startswith("[k]")),
    ("libmicrohttpd", lambda sym, dso: sym in mhd_symbols or sym.startswith("MHD_")),
    ("allocator (malloc, free)", lambda sym, dso: re.match(r"_?_?(libc_)?(malloc|free|calloc|realloc|cfree)|_int_(malloc|free)|tcache|malloc_consolidate|unlink_chunk|swift_slowAlloc|swift_slowDealloc|swift_allocObject|swift_deallocObject|swift_deallocClassInstance", sym)),
    ("retain and release (atomics)", lambda sym, dso: re.match(r"swift_(unknownObject|bridgeObject|nonatomic_)?(retain|release)|swift_.*[Rr]etain|swift_.*[Rr]elease", sym)),
    ("Swift concurrency (tasks, executor)", lambda sym, dso: "libswift_Concurrency" in dso or re.match(r"swift_(task|job|continuation|asyncLet|Concurrency)|swift::(AsyncTask|Job)", sym)),
    ("other Swift runtime (casts, metadata, existentials)", lambda sym, dso: "libswiftCore" in dso or sym.startswith("swift_") or sym.startswith("swift::")),
    ("copying (memcpy, memmove)", lambda sym, dso: re.search(r"mem(cpy|move|set)|__memcpy|__memmove", sym)),
    ("libc, other", lambda sym, dso: dso.startswith("libc") or dso.startswith("ld-linux")),
    ("Foundation", lambda sym, dso: "Foundation" in dso),
]


def group_of(symbol, dso):
    for name, test in GROUPS:
        if test(symbol, dso):
            return name
    return "the server's own code"


def profile(name, command, port, env):
    data = tempfile.mkdtemp(prefix="tessera-profile-")
    environment = dict(os.environ, PORT=str(port), HOST="127.0.0.1", THREADS="1", LOG_LEVEL="error", DATA_DIR=data, **env)
    server = subprocess.Popen(["taskset", "-c", "0"] + command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}{PATH}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url).read()
            break
        except OSError:
            time.sleep(0.05)
    wrk = ["taskset", "-c", "1", "wrk", "-t1", "-c64"]
    subprocess.run(wrk + ["-d2s", url], capture_output=True, check=True)
    record = os.path.join(data, "perf.data")
    stat = os.path.join(data, "stat")
    load = subprocess.Popen(wrk + [f"-d{SECONDS + 1}s", url], stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)
    subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", "-o", stat, "-p", str(server.pid), "--",
                    "perf", "record", "-q", "-e", "cpu-clock", "-g", "-o", record, "-p", str(server.pid), "--", "sleep", str(SECONDS)],
                   check=True, capture_output=True)
    output = load.communicate()[0]
    server.terminate()
    server.wait()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    cpu_ms = float(open(stat).read().split("task-clock")[0].strip().splitlines()[-1].split(",")[0])
    requests = rate * SECONDS
    report = subprocess.run(["perf", "report", "-i", record, "--no-children", "--sort", "dso,sym", "--stdio", "-g", "none",
                             "--percent-limit", "0"], capture_output=True, text=True).stdout
    shares = {}
    top = []
    for line in report.splitlines():
        match = re.match(r"\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)", line)
        if not match:
            continue
        percent, dso, kind, symbol = float(match.group(1)), match.group(2), match.group(3), match.group(4).strip()
        group = group_of(("[k]" + symbol) if kind == "k" else symbol, "[kernel]" if kind == "k" else dso)
        shares[group] = shares.get(group, 0) + percent
        top.append((percent, symbol, group))
    per_request_us = cpu_ms * 1000 / requests
    return rate, per_request_us, shares, sorted(top, reverse=True)[:12]


def main():
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"Model name:\s*(.*)", cpu).group(1)
    database = os.environ.get("TESSERA_POSTGRES_URL")
    results = {
        "tessera": profile("tessera", [".build/release/tessera-bench"], 18581, {"DATABASE_URL": database} if database else {}),
        "C": profile("C", ["Benchmarks/c-reference/reference"], 18582, {"FORTUNES_POSTGRES": database} if database else {}),
    }
    print(f"GET {PATH}, pinned, one thread, wrk -c64 on the other core; {model}")
    for name, (rate, per_request, _, _) in results.items():
        print(f"  {name}: {rate:,.0f} requests/s, {per_request:.2f} µs of CPU per request")
    print(f"| where | tessera µs/request | C µs/request | difference |")
    print(f"|---|---:|---:|---:|")
    groups = [name for name, _ in GROUPS] + ["the server's own code"]
    for group in groups:
        ours = results["tessera"][2].get(group, 0) / 100 * results["tessera"][1]
        theirs = results["C"][2].get(group, 0) / 100 * results["C"][1]
        print(f"| {group} | {ours:.2f} | {theirs:.2f} | {ours - theirs:+.2f} |")
    print(f"| all | {results['tessera'][1]:.2f} | {results['C'][1]:.2f} | {results['tessera'][1] - results['C'][1]:+.2f} |")
    for name in results:
        print(f"\n{name}'s hottest frames:")
        for percent, symbol, group in results[name][3]:
            print(f"  {percent:5.2f}%  {symbol[:90]}  ({group})")


main()

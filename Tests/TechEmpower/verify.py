"""TechEmpower's own verifier against the bench app's seven TechEmpower routes, query counts included.

Why: TechEmpower accepts an entry only when its toolset's verifier passes every test type, and
its checks are not what one would write by reading the rules: the Date header must change within
3 s, a stringy or empty `queries` must give one row and 501 must give 500, the Fortunes page is
compared row by row after parsing, and siege sends a route 512 requests at once while
pg_stat_statements counts the statements and rows they cost the database. Running their code,
not a copy of their rules, is the only way to know an entry would pass.

How: scripts/techempower-test.sh (make test) extracts `toolset/` from a snapshot of TechEmpower's
repository into .build/techempower/ (their code is never committed here), makes a venv with the
verifier's imports (requests, colorama, psycopg2-binary), and runs this inside
scripts/with-postgres.sh, whose cluster loads pg_stat_statements. This then
  1. makes TechEmpower's database as its PostgreSQL image does (create-postgres.sql): the role
     benchmarkdbuser (password benchmarkdbpass), the database hello_world it owns, the extension
     pg_stat_statements, and the table "World" (quoted, apart from world), which the /updates
     check reads before `world` and without which it sees no update at all;
  2. starts the server on a free loopback port with DATABASE_URL naming that database (the bench
     app makes `world` and `fortune` itself) and waits until /plaintext answers;
  3. runs each test type's verify(), as TechEmpower's framework_test.py does, and prints every
     result line (pass, warn or fail, the message, the URL); any fail exits 1.
The server is stopped at the end, whatever happened; the cluster is with-postgres.sh's to stop.

Loading their toolset unchanged: toolset.databases and toolset.test_types each load their
modules from /FrameworkBenchmarks/toolset/… only (their Docker image's path). Here the test
types are loaded by file path (`cached-query` has a hyphen), as their loader does, and the
PostgreSQL module likewise, put into the `databases` table verifications.py reads. The module
connects to port 5432, written into it; psycopg2.connect is wrapped in this process only, to
send that port to the throwaway cluster's. Nothing under .build/techempower/ is edited.

Environment:
  TECHEMPOWER_TOOLSET   the extracted toolset/ folder (set by the script)
  TESSERA_POSTGRES_URL  the cluster, as its superuser (set by scripts/with-postgres.sh)
  TESSERA_BENCH_BINARY  the server: tessera-bench, given PORT, HOST, DATA_DIR, DATABASE_URL, LOG_LEVEL
  SERVER_COMMAND        or another server: a shell command given the same, and FORTUNES_POSTGRES
                        (= DATABASE_URL), e.g. 'exec Benchmarks/c-reference/reference' with
                        CREATE_SCHEMA=1; it runs in its own process group, which is stopped
  CREATE_SCHEMA=1       make `world` (10,000 random rows) and `fortune` (the 12 rows of
                        Sources/TesseraBench/Fortunes.swift) first, for a server that only reads
  TECHEMPOWER_CI=1      the verifier's rules for TechEmpower's CI (1.5 % margin on query counts,
                        siege's failed transactions ignored) instead of those of a real run
  TECHEMPOWER_TYPES     some test types only, e.g. update,fortune (default: all seven)
  LOG_LEVEL             the server's (default warning: no access log for siege's requests)
"""
import importlib.util
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import types
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import colorama
import psycopg2
import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TOOLSET = Path(os.environ["TECHEMPOWER_TOOLSET"])
CLUSTER_URL = os.environ["TESSERA_POSTGRES_URL"]
SERVER_LOG = ROOT / ".build/techempower/server.log"

# Each test type, its key in a benchmark_config.json, and the bench app's path for it.
ROUTES = [
    ("json", "json_url", "/json"),
    ("plaintext", "plaintext_url", "/plaintext"),
    ("db", "db_url", "/db"),
    ("query", "query_url", "/queries?queries="),
    ("update", "update_url", "/updates?queries="),
    ("cached-query", "cached_query_url", "/cached-queries?count="),
    ("fortune", "fortune_url", "/fortunes"),
]

# TechEmpower's database, as their PostgreSQL image makes it: its role owns it.
DB_USER, DB_PASSWORD, DB_NAME = "benchmarkdbuser", "benchmarkdbpass", "hello_world"


def cluster_url(database, user=None, password=None):
    """The cluster's URL for another database, as its superuser unless another user is given."""
    parts = urllib.parse.urlsplit(CLUSTER_URL)
    user, password = user or urllib.parse.unquote(parts.username), password or urllib.parse.unquote(parts.password)
    netloc = f"{urllib.parse.quote(user)}:{urllib.parse.quote(password)}@{parts.hostname}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, netloc, "/" + database, parts.query, ""))


def stored_fortunes():
    """The 12 rows, from the bench app's own list, so that there is one copy of them here."""
    source = (ROOT / "Sources/TesseraBench/Fortunes.swift").read_text()
    source = source[source.index("static let rows"):]
    source = source[:source.index("]\n")]  # the stored rows only, not the one added at request time
    rows = [(int(id), re.sub(r'\\(.)', r'\1', message))
            for id, message in re.findall(r'Fortune\(id: (\d+), message: "((?:[^"\\]|\\.)*)"\)', source)]
    assert len(rows) == 12, f"expected 12 fortunes in Fortunes.swift, found {len(rows)}"
    return rows


def prepare_database(create_schema):
    admin = psycopg2.connect(CLUSTER_URL)
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {DB_USER} LOGIN PASSWORD '{DB_PASSWORD}'")
        # In their image benchmarkdbuser is the cluster's superuser, so it sees the text of every
        # statement in pg_stat_statements, whoever ran it; this role sees them too, and no more.
        cursor.execute(f"GRANT pg_read_all_stats TO {DB_USER}")
        cursor.execute(f"CREATE DATABASE {DB_NAME} OWNER {DB_USER}")
    admin.close()
    # The extension needs a superuser; the verifier's own CREATE EXTENSION IF NOT EXISTS, run as
    # benchmarkdbuser at each connection, then finds it there.
    superuser = psycopg2.connect(cluster_url(DB_NAME))
    superuser.autocommit = True
    with superuser.cursor() as cursor:
        cursor.execute("CREATE EXTENSION pg_stat_statements")
    superuser.close()

    owner = psycopg2.connect(cluster_url(DB_NAME, DB_USER, DB_PASSWORD))
    with owner, owner.cursor() as cursor:
        # Their verifier reads "World" and then world before and after /updates, in one try:
        # without "World" it reads neither and reports "No items were updated in the database."
        cursor.execute('CREATE TABLE "World" (id integer NOT NULL, randomNumber integer NOT NULL DEFAULT 0, PRIMARY KEY (id))')
        cursor.execute('INSERT INTO "World" (id, randomnumber) '
                       'SELECT x.id, least(floor(random() * 10000 + 1), 10000) FROM generate_series(1, 10000) AS x(id)')
        if create_schema:
            cursor.execute("CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL)")
            cursor.executemany("INSERT INTO world (id, randomnumber) VALUES (%s, %s)",
                               [(id, random.randint(1, 10000)) for id in range(1, 10001)])
            cursor.execute("CREATE TABLE fortune (id integer PRIMARY KEY, message varchar(2048) NOT NULL)")
            cursor.executemany("INSERT INTO fortune (id, message) VALUES (%s, %s)", stored_fortunes())
    owner.close()


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_toolset(database_port):
    """Their test types and their PostgreSQL module, from the extracted toolset, unchanged."""
    sys.path.insert(0, str(TOOLSET.parent))

    connect = psycopg2.connect

    def connect_to_cluster(*args, **kwargs):
        if kwargs.get("port") == "5432":
            kwargs["port"] = str(database_port)
        return connect(*args, **kwargs)

    psycopg2.connect = connect_to_cluster

    import toolset.databases  # finds nothing outside their image: filled in below
    toolset.databases.databases.clear()
    toolset.databases.databases["postgres"] = load_module(
        "Database", TOOLSET / "databases/postgres/postgres.py").Database
    return {name: load_module("TestType", TOOLSET / "test_types" / name / f"{name}.py").TestType
            for name, _, _ in ROUTES}


def start_server(port, database_url, data_dir):
    env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", DATA_DIR=data_dir, DATABASE_URL=database_url,
               LOG_LEVEL=os.environ.get("LOG_LEVEL", "warning"))
    for name in ("TESSERA_POSTGRES_URL", "TESSERA_POSTGRES_CLUSTER", "TESSERA_POSTGRES_CTL"):
        env.pop(name, None)  # the server gets TechEmpower's database only
    if os.environ.get("SERVER_COMMAND"):
        command, name = ["sh", "-c", os.environ["SERVER_COMMAND"]], os.environ["SERVER_COMMAND"]
        env["FORTUNES_POSTGRES"] = database_url
    else:
        binary = Path(os.environ.get("TESSERA_BENCH_BINARY", ROOT / ".build/test/release/tessera-bench"))
        if not binary.exists():
            sys.exit(f"FAIL: no server at {binary}: build it (swift build --product tessera-bench)")
        command, name = [str(binary)], str(binary.relative_to(ROOT) if binary.is_relative_to(ROOT) else binary)
    SERVER_LOG.parent.mkdir(parents=True, exist_ok=True)
    log = open(SERVER_LOG, "wb")
    # Its own process group, so that stopping it stops whatever the command started.
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    return server, name


def stop_server(server):
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    else:  # the command is gone; anything it left in its group goes too
        try:
            os.killpg(server.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def server_log_tail(lines=40):
    text = SERVER_LOG.read_text(errors="replace").splitlines() if SERVER_LOG.exists() else []
    return "\n".join(text[-lines:]) or "(empty)"


def wait_until_answering(server, base_url, seconds=180):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return f"the server exited ({server.returncode}) before answering"
        try:
            with urllib.request.urlopen(base_url + "/plaintext", timeout=2) as response:
                if response.status == 200:
                    return None
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    return f"/plaintext did not answer within {seconds} s"


def verify(test, base_url):
    """One test type's results, with the exceptions turned into results as framework_test.py does."""
    try:
        return test.verify(base_url)
    except requests.ConnectionError as error:
        return [("fail", f"Server did not respond to request: {error}", base_url)]
    except requests.Timeout as error:
        return [("fail", f"Connection to server timed out: {error}", base_url)]
    except Exception as error:
        return [("fail", f"Caused Exception in TFB: {error}\n{traceback.format_exc()}", base_url)]


def main():
    # Their output is coloured; a log file gets it plain.
    colorama.init(strip=not sys.stdout.isatty())
    # TERM from make or a CI runner ends this through `finally`, so the server is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    database_port = urllib.parse.urlsplit(CLUSTER_URL).port
    commit = (TOOLSET.parent / "COMMIT").read_text().strip() if (TOOLSET.parent / "COMMIT").exists() else "?"
    prepare_database(os.environ.get("CREATE_SCHEMA") == "1")
    test_types = load_toolset(database_port)
    chosen = os.environ.get("TECHEMPOWER_TYPES", "").split(",") if os.environ.get("TECHEMPOWER_TYPES") else None
    routes = [route for route in ROUTES if chosen is None or route[0] in chosen]
    if chosen and len(routes) != len(chosen):
        sys.exit(f"TECHEMPOWER_TYPES: not test types: {set(chosen) - {name for name, _, _ in ROUTES}}")
    # What their run-tests.py is given by default (its siege runs at the highest level, 512), and
    # the rules of a real run unless asked for CI's.
    config = types.SimpleNamespace(
        concurrency_levels=[16, 32, 64, 128, 256, 512],
        is_ci=os.environ.get("TECHEMPOWER_CI") == "1",
        database_host="127.0.0.1",
        db_root=str(TOOLSET / "databases"),
    )

    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    data_dir = tempfile.mkdtemp(prefix="tessera-techempower.")
    database_url = cluster_url(DB_NAME, DB_USER, DB_PASSWORD)
    server, server_name = start_server(port, database_url, data_dir)
    summary = []
    try:
        problem = wait_until_answering(server, base_url)
        if problem:
            print(f"FAIL: {server_name}: {problem}; its log ({SERVER_LOG}):\n{server_log_tail()}")
            return 1
        print(f"TechEmpower's verifier (toolset at {commit[:12]}) against {server_name} on {base_url}")
        for name, key, path in routes:
            print(f"\n{'-' * 100}\nVERIFYING {name.upper()}\n{'-' * 100}", flush=True)
            started = time.monotonic()
            test = test_types[name](config).parse({key: path, "database": "postgres"})
            results = verify(test, base_url)
            for result, reason, url in results:
                print(f"   {result.upper()} for {url}")
                for line in (reason or "").splitlines():
                    print(f"     {line}")
            if any(result != "pass" for result, _, _ in results):
                # What TechEmpower prints then: the last answer the verifier got, whichever URL it was.
                body = test.body.decode(errors="replace") if isinstance(test.body, bytes) else str(test.body)
                print(f"   the verifier's last answer: {test.status} {dict(test.headers)}\n   {body[:2000]}"
                      + (f" … ({len(body)} characters)" if len(body) > 2000 else ""))
            outcome = ("fail" if any(r == "fail" for r, _, _ in results)
                       else "warn" if any(r == "warn" for r, _, _ in results) else "pass")
            print(f"   => {name}: {outcome.upper()} ({time.monotonic() - started:.0f} s)")
            summary.append((name, outcome, results))
    finally:
        stop_server(server)
        shutil.rmtree(data_dir, ignore_errors=True)

    print(f"\n{'=' * 100}\nTechEmpower's verifier against {server_name}:")
    for name, outcome, _ in summary:
        print(f"  {name:<13} {outcome.upper()}")
    warnings = [(name, reason, url) for name, _, results in summary for result, reason, url in results if result == "warn"]
    failures = [(name, reason, url) for name, _, results in summary for result, reason, url in results if result == "fail"]
    for title, lines in (("Warnings", warnings), ("Failures", failures)):
        if lines:
            print(f"{title}:")
            for name, reason, url in lines:
                print(f"  {name}: {reason.splitlines()[0] if reason else ''} ({url})")
    if failures:
        print(f"Server log: {SERVER_LOG}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

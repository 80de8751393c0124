"""One product page's trace, as an OTLP receiver on loopback gets it from the storefront on
PostgreSQL: the request's server span continues the caller's traceparent and is named after its
route, its regions are children that overlap in time, their database calls are theirs, the
traceparent reaches PostgreSQL in a comment, and the request's log lines carry the trace id.

Run by scripts/trace-test.sh (make test), inside scripts/with-postgres.sh. The receiver decodes
with the official opentelemetry-proto package (Debian has no OpenTelemetry Collector).
"""
import gzip
import http.client
import http.server
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request
from pathlib import Path

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse
from opentelemetry.proto.trace.v1.trace_pb2 import Span

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from shopper import Shopper  # noqa: E402
from ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/test/release/storefront"))
CLUSTER_URL = os.environ["TESSERA_POSTGRES_URL"]
CLUSTER_LOG = Path(os.environ["TESSERA_POSTGRES_CLUSTER"]) / "log"


def psql(url, sql):
    return subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-tAc", sql], capture_output=True, text=True, check=True).stdout.strip()


class Receiver(http.server.ThreadingHTTPServer):
    """OTLP/HTTP's traces endpoint: every span it was sent, decoded."""

    def __init__(self):
        self.spans = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), ReceiverHandler)

    def spans_of(self, trace_id):
        with self.lock:
            return [span for span in self.spans if span["trace_id"] == trace_id]


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
            self.send_error(415)
            return
        export = ExportTraceServiceRequest()
        export.ParseFromString(body)
        with self.server.lock:
            for resource in export.resource_spans:
                service = next((a.value.string_value for a in resource.resource.attributes if a.key == "service.name"), None)
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        self.server.spans.append({
                            "service": service, "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(),
                            "parent": span.parent_span_id.hex(), "name": span.name, "kind": span.kind,
                            "start": span.start_time_unix_nano, "end": span.end_time_unix_nano,
                            "attributes": {a.key: getattr(a.value, a.value.WhichOneof("value")) for a in span.attributes},
                        })
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


class TraceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.receiver = Receiver()
        threading.Thread(target=cls.receiver.serve_forever, daemon=True).start()
        cls.database = "trace_" + secrets.token_hex(6)
        psql(CLUSTER_URL, f"CREATE DATABASE {cls.database}")
        # Every statement in the cluster's log, to find the one carrying the trace.
        psql(CLUSTER_URL, f"ALTER DATABASE {cls.database} SET log_statement = 'all'")
        parts = urllib.parse.urlsplit(CLUSTER_URL)
        cls.url = urllib.parse.urlunsplit(parts._replace(path="/" + cls.database))
        cls.folder = tempfile.mkdtemp(prefix="tessera-trace-")
        cls.port = free_port()
        cls.log_path = Path(cls.folder) / "storefront.log"
        cls.log = open(cls.log_path, "w")
        inherited = {name: value for name, value in os.environ.items() if not name.startswith("OTEL_")}
        environment = {**inherited, "HOST": "127.0.0.1", "PORT": str(cls.port), "DATA_DIR": cls.folder, "DATABASE_URL": cls.url,
                       "SESSION_SECRET": "t" * 40, "LOG_FORMAT": "json", "LOG_LEVEL": "info", "DATABASE_TIMEOUT": "60",
                       "PASSWORD_HASH_ROUNDS": "1000",
                       "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{cls.receiver.server_address[1]}",
                       "OTEL_SERVICE_NAME": "tessera-trace-test", "OTEL_BSP_SCHEDULE_DELAY": "100"}
        cls.process = subprocess.Popen([str(BINARY)], env=environment, stdout=cls.log, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{cls.port}/readyz", timeout=2):
                    break
            except OSError:
                if cls.process.poll() is not None or time.monotonic() > deadline:
                    cls.tearDownClass()
                    raise AssertionError("the storefront did not start: " + cls.log_path.read_text()[-2000:])
                time.sleep(0.2)

    @classmethod
    def tearDownClass(cls):
        if cls.process.poll() is None:
            cls.process.terminate()
            cls.process.wait(timeout=30)
        cls.log.close()
        cls.receiver.shutdown()
        psql(CLUSTER_URL, f"DROP DATABASE IF EXISTS {cls.database} WITH (FORCE)")

    def get(self, path, headers):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", headers=headers)
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.read()

    def test_a_product_pages_trace_tree(self):
        # Signed in, the page has a fourth region, the shopper's purchases: with the related
        # products, two regions that wait for the database, so they overlap in time. (Regions
        # that render from what the page already read finish before the next one starts.)
        shopper = Shopper(f"http://127.0.0.1:{self.port}")
        self.assertEqual(shopper.sign_in("ada@example.com", "ada-lovelace-1815"), 303)
        trace_id, caller_span = secrets.token_hex(16), secrets.token_hex(8)
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/products/3", headers={"traceparent": f"00-{trace_id}-{caller_span}-01"})
        with shopper.opener.open(request, timeout=30) as reply:
            self.assertEqual(reply.status, 200)
        # Children end before their page, but may come in another export: wait for the tree.
        deadline = time.monotonic() + 30
        while True:
            spans = self.receiver.spans_of(trace_id)
            servers = {span["span_id"] for span in spans if span["kind"] == Span.SPAN_KIND_SERVER}
            regions = {span["span_id"] for span in spans if span["parent"] in servers and span["name"].startswith("region ")}
            if len(regions) >= 4 and any(span["parent"] in regions and span["name"].startswith("db.") for span in spans):
                break
            self.assertLess(time.monotonic(), deadline, "no trace tree reached the receiver: " + json.dumps([s["name"] for s in spans]))
            time.sleep(0.1)
        [page] = [span for span in spans if span["kind"] == Span.SPAN_KIND_SERVER]
        self.assertEqual(page["name"], "GET /products/{id}")
        self.assertEqual(page["parent"], caller_span, "the caller's traceparent is continued")
        self.assertEqual(page["service"], "tessera-trace-test")
        self.assertEqual(page["attributes"].get("http.route"), "/products/{id}")
        self.assertEqual(page["attributes"].get("http.response.status_code"), 200)

        regions = [span for span in spans if span["name"].startswith("region ") and span["parent"] == page["span_id"]]
        self.assertEqual(sorted(span["name"] for span in regions),
                         ["region add-to-cart", "region detail", "region purchases", "region related"])
        overlapping = [(a["name"], b["name"]) for a in regions for b in regions
                       if a is not b and a["start"] < b["end"] and b["start"] < a["end"]]
        self.assertTrue(overlapping, "the page's regions run at once: " + json.dumps(
            [(r["name"], r["start"] - page["start"], r["end"] - page["start"]) for r in regions]))
        for region in regions:
            self.assertTrue(page["start"] <= region["start"] and region["end"] <= page["end"], region["name"])

        region_ids = {region["span_id"] for region in regions}
        database = [span for span in spans if span["name"].startswith("db.") and span["parent"] in region_ids]
        self.assertTrue(database, "the regions' database calls are their children: " + json.dumps([(s["name"], s["parent"]) for s in spans]))
        self.assertTrue(all(span["kind"] == Span.SPAN_KIND_CLIENT and span["attributes"].get("db.system.name") == "postgresql"
                            for span in database))
        queries = [span for span in database if span["name"] == "db.query"]
        print(f"\ntrace of GET /products/3: {len(spans)} spans, {len(regions)} regions ({len(overlapping) // 2} overlapping pairs), "
              f"{len(database)} database calls under them ({', '.join(sorted(span['name'] for span in database))})", file=sys.stderr)

        # A statement carried the trace to PostgreSQL, as a comment its log shows.
        self.assertTrue(queries, "a plain query among the page's calls: " + json.dumps([s["name"] for s in database]))
        deadline = time.monotonic() + 10
        while f"traceparent='00-{trace_id}-" not in CLUSTER_LOG.read_text(errors="replace"):
            self.assertLess(time.monotonic(), deadline, "no statement in the cluster's log carried the trace")
            time.sleep(0.1)

        # Every log line of the request has its trace id, the access line too.
        lines = [json.loads(line) for line in self.log_path.read_text().splitlines() if line.startswith("{")]
        access = [line for line in lines if "GET /products/3 200" in line.get("message", "")]
        self.assertTrue(access, "the access line")
        self.assertTrue(all(line.get("trace_id") == trace_id for line in access), access)

    def test_a_request_without_a_traceparent_starts_a_trace_of_its_own(self):
        status, _ = self.get("/", {})
        self.assertEqual(status, 200)
        deadline = time.monotonic() + 30
        while True:
            with self.receiver.lock:
                pages = [span for span in self.receiver.spans if span["name"] == "GET /" and span["kind"] == Span.SPAN_KIND_SERVER]
            if pages:
                break
            self.assertLess(time.monotonic(), deadline, "no span for GET /")
            time.sleep(0.1)
        self.assertEqual(pages[-1]["parent"], "", "a root span")
        self.assertEqual(len(pages[-1]["trace_id"]), 32)


    def test_a_malformed_traceparent_is_ignored_and_nothing_of_the_request_is_logged(self):
        status, _ = self.get("/products/4", {"traceparent": "00-not-a-trace-01", "Cookie": "tessera_session=secret-cookie-value"})
        self.assertEqual(status, 200)
        deadline = time.monotonic() + 30
        while True:
            with self.receiver.lock:
                pages = [span for span in self.receiver.spans if span["name"] == "GET /products/{id}"
                         and span["attributes"].get("url.path") == "/products/4"]
            if pages:
                break
            self.assertLess(time.monotonic(), deadline, "no span for GET /products/4")
            time.sleep(0.1)
        self.assertEqual(pages[-1]["parent"], "", "a trace of its own")
        self.assertNotIn("secret-cookie-value", self.log_path.read_text())

    def test_a_reset_links_token_reaches_no_span_and_no_log_line(self):
        # Its route's requests end every way one can: answered, refused by the CSRF step,
        # refused by the server before routing, and failed with a 500 (its table gone a moment).
        token = "resettoken" + secrets.token_hex(16) + "Q"  # 43 characters, as a link spells one
        path = f"/password/reset/{token}"

        def status(method, body=None, headers=None):
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                connection.request(method, path, body=body, headers=headers or {})
                return connection.getresponse().status
            finally:
                connection.close()

        statuses = {"page": status("GET")}  # an unknown link: its page says so, with a 404
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        statuses["cross-site"] = status("POST", b"password=x&confirm=x", {**form, "Origin": "http://elsewhere.example"})
        statuses["too large"] = status("POST", b"password=x", {**form, "Content-Length": "99999999999999999999999"})
        psql(self.url, "ALTER TABLE password_reset RENAME TO password_reset_away")
        try:
            statuses["failed"] = status("GET")
        finally:
            psql(self.url, "ALTER TABLE password_reset_away RENAME TO password_reset")
        self.assertEqual(statuses, {"page": 404, "cross-site": 403, "too large": 413, "failed": 500})

        # The server's refusal before routing has no span; its access line is checked below.
        wanted = {404, 403, 500}
        deadline = time.monotonic() + 30
        while True:
            with self.receiver.lock:
                spans = list(self.receiver.spans)
            shown = {span["attributes"].get("http.response.status_code") for span in spans
                     if span["attributes"].get("url.path") == "/password/reset/{token}"}
            if wanted <= shown:
                break
            self.assertLess(time.monotonic(), deadline, f"a span for each answer: {sorted(map(str, shown))}")
            time.sleep(0.1)
        leaking = [span for span in spans if token in json.dumps(span, default=str)]
        self.assertEqual(leaking, [], "no span holds the token")
        log = self.log_path.read_text()
        for answer in ["GET /password/reset/{token} 404", "POST /password/reset/{token} 403",
                       " /password/reset/{token} 413 ", "GET /password/reset/{token} 500"]:
            self.assertIn(answer, log)
        self.assertNotIn(token, log, "no log line holds the token")


if __name__ == "__main__":
    unittest.main()

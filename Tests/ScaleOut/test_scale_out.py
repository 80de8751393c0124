"""Three storefront instances on one PostgreSQL behind nginx, as deploy/compose.yaml runs them,
all started here: a shopper's requests land on every instance in turn, checkouts racing through
different instances never oversell, a sign-out through one instance holds on all, an instance
killed under load is routed around, loses no acknowledged order, and rejoins when restarted, a
change made through one instance reaches live pages whose streams are on the others, and nginx
serves HTTPS with HTTP/2 and sends plain HTTP there.

Run by scripts/scale-out-test.sh (make test), inside scripts/with-postgres.sh, which provides
TESSERA_POSTGRES_URL. nginx runs deploy/nginx.conf with loopback ports for the service names and
the ports, and a certificate from a test CA (scripts/test-ca.sh). The load goes through a plain
listener the test adds to the HTTPS server block: the same locations, without Python's TLS
costing the two cores the instances need.
"""
import html
import itertools
import http.client
import http.cookiejar
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from shopper import NoRedirects, Shopper, hidden_fields  # noqa: E402
from ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/test/release/storefront"))
DATABASE_URL = os.environ["TESSERA_POSTGRES_URL"]
SECRET = "scale-out-" + "s" * 40


def wait_for(url, status=200, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == status:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer {status} in {timeout} s")
        time.sleep(0.2)


def psql(sql):
    return subprocess.run(["psql", DATABASE_URL, "-tAc", sql], capture_output=True, text=True, check=True).stdout.strip()


class Instance:
    """One storefront process on the shared database, with its log on disk."""

    def __init__(self, folder, name, database_url=DATABASE_URL, **overrides):
        self.name = name
        self.database_url = database_url
        self.overrides = overrides
        self.port = free_port()
        self.data = Path(folder) / name
        self.data.mkdir()
        self.log_path = self.data / "storefront.log"
        self.process = None
        self.log = None

    def settings(self):
        return {"HOST": "127.0.0.1", "PORT": str(self.port), "DATA_DIR": str(self.data),
                "DATABASE_URL": self.database_url, "SESSION_SECRET": SECRET, "LOG_LEVEL": "info",
                "TRUSTED_PROXIES": "127.0.0.1", "DATABASE_TIMEOUT": "60", "PASSWORD_HASH_ROUNDS": "1000",
                # The default registration limit, which test_8 checks; checkouts unlimited for the loaded tests.
                "CHECKOUT_LIMIT": "100000/minute",
                # As deploy/compose.yaml's 5 s: after SIGTERM an instance serves on while nginx's reload takes hold.
                "DRAIN_DELAY": "2", **self.overrides}

    @property
    def pid_path(self):
        return self.data / "pid"

    def start(self):
        self.close_log()
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen([str(BINARY)], env={**os.environ, **self.settings()}, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)
        self.pid_path.write_text(str(self.process.pid))
        wait_for(f"http://127.0.0.1:{self.port}/readyz")

    def start_command(self):
        """A shell command that starts the instance in the background, as a supervisor would,
        for deploy/rolling-deploy.sh."""
        settings = " ".join(f"{name}={shlex.quote(value)}" for name, value in self.settings().items())
        # `exec`: the background subshell becomes the storefront, so `$!` is its pid in any sh.
        return (f"(cd {shlex.quote(str(ROOT))} && exec env {settings} {shlex.quote(str(BINARY))} >> {shlex.quote(str(self.log_path))} 2>&1 "
                f"< /dev/null) & echo $! > {shlex.quote(str(self.pid_path))}")

    def stop_command(self):
        """A shell command that sends SIGTERM and returns once the process is gone (or a zombie
        of this test's, which has exited)."""
        pid = f"$(cat {shlex.quote(str(self.pid_path))})"
        return (f"pid={pid}; kill -TERM $pid; while kill -0 $pid 2>/dev/null && "
                f"[ \"$(cut -d' ' -f3 /proc/$pid/stat 2>/dev/null)\" != Z ]; do sleep 0.05; done")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.close_log()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        if self.pid_path.exists() and (not self.process or int(self.pid_path.read_text()) != self.process.pid):
            subprocess.run(["sh", "-c", self.stop_command()], timeout=30)  # started by the deploy script
        self.close_log()

    def close_log(self):
        if self.log:
            self.log.close()
            self.log = None

    def served(self):
        """How many requests this instance has logged (its access log lines)."""
        return len(re.findall(r"\] (GET|POST|HEAD) /\S* \d{3} ", self.log_path.read_text()))

    def session_ends_heard(self):
        """How many session ends this instance heard from the database's listener (its log's
        "session end heard" lines): each was in force there when it was logged."""
        return self.log_path.read_text().count("session end heard:")


class SilentRelay:
    """A TCP relay in front of PostgreSQL that can go silent without closing anything: what an
    instance sees of a network partition. Once silent it still reads what either side sends, so
    no write fails, and forwards nothing; `heal()` closes what it held (as a partition that ends
    leaves broken connections behind) and relays new connections again."""

    def __init__(self, upstream_host, upstream_port):
        self.upstream = (upstream_host, upstream_port)
        self.silent = threading.Event()
        self.sockets = []
        self.lock = threading.Lock()
        self.listening = socket.socket()
        self.listening.bind(("127.0.0.1", 0))
        self.listening.listen(64)
        self.port = self.listening.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listening.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source, target):
        try:
            while data := source.recv(65536):
                if not self.silent.is_set():
                    target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def go_silent(self):
        self.silent.set()

    def heal(self):
        with self.lock:
            held, self.sockets = self.sockets, []
        self.silent.clear()
        for end in held:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def close(self):
        self.listening.close()
        self.heal()


LISTENERS = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'tessera listen tessera_session_ends'"


def wait_for_listeners(count, timeout=30):
    """Waits until `count` instances listen for session ends (their listeners' backends)."""
    deadline = time.monotonic() + timeout
    while psql(LISTENERS) != str(count):
        if time.monotonic() > deadline:
            raise AssertionError(f"{count} instances did not listen in {timeout} s")
        time.sleep(0.1)


def wait_for_session_ends(instances, before, timeout=20):
    """Waits until every instance has heard one more session end than `before` counted: the
    event after which each refuses the session. A sign-out reaches the other instances through
    PostgreSQL's NOTIFY, so it takes effect there a moment after the answer that made it."""
    deadline = time.monotonic() + timeout
    while any(instance.session_ends_heard() <= count for instance, count in zip(instances, before)):
        if time.monotonic() > deadline:
            raise AssertionError(f"not every instance heard the session end in {timeout} s: "
                                 f"{[i.session_ends_heard() for i in instances]} against {before}")
        time.sleep(0.05)


class Nginx:
    """nginx in the foreground with deploy/nginx.conf, its files in a folder of its own."""

    def __init__(self, folder, instances):
        self.folder = Path(folder) / "nginx"
        self.folder.mkdir()
        # nginx's workers (`nobody`) keep pages in a cache folder in here: they must reach it.
        os.chmod(folder, 0o755)
        os.chmod(self.folder, 0o755)
        self.port, self.tls_port, self.redirect_port = free_port(), free_port(), free_port()
        self.ca = self.folder / "tls/ca.crt"
        subprocess.run([str(ROOT / "scripts/test-ca.sh"), str(self.folder / "tls")], check=True, stdout=subprocess.DEVNULL)
        config = (ROOT / "deploy/nginx.conf").read_text()
        for number, instance in enumerate(instances, start=1):
            config = config.replace(f"server shop{number}:8080", f"server 127.0.0.1:{instance.port}")
        config = config.replace("listen 80;", f"listen 127.0.0.1:{self.redirect_port};")
        config = config.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{self.tls_port} ssl http2;\n        listen 127.0.0.1:{self.port};")
        config = config.replace("/etc/nginx/tls/fullchain.pem", str(self.folder / "tls/server.crt"))
        config = config.replace("/etc/nginx/tls/privkey.pem", str(self.folder / "tls/server.key"))
        config = config.replace("/var/cache/nginx/pages", str(self.folder / "cache"))
        config = config.replace("http {", "http {\n    access_log off;\n" + "".join(
            f"    {kind}_temp_path {self.folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")), 1)
        assert "shop1" not in config and "listen 80" not in config and "/etc/nginx" not in config, "the deploy config changed shape"
        config = f"daemon off;\npid {self.folder}/nginx.pid;\nerror_log {self.folder}/error.log;\n" + config
        (self.folder / "nginx.conf").write_text(config)
        self.process = subprocess.Popen(["nginx", "-c", str(self.folder / "nginx.conf"), "-p", str(self.folder)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        self.reload_command = f"nginx -s reload -c {shlex.quote(str(self.folder / 'nginx.conf'))} -p {shlex.quote(str(self.folder))}"
        try:
            wait_for(self.base + "/healthz")
        except BaseException:
            self.stop()
            raise

    def stop(self):
        self.process.send_signal(signal.SIGQUIT)
        self.process.wait(timeout=30)


ADDRESSES = itertools.count(1)


def new_address():
    """A client address of its own (TEST-NET-2 and -3), as nginx reports it: each shopper comes
    from somewhere else, as real ones do, so the per-address limits count them apart."""
    number = next(ADDRESSES)
    return f"198.51.{number // 250 % 250 + 1}.{number % 250 + 1}"


def new_shopper(base, tag, address=None):
    """A newly registered shopper, signed in, from `address` (by default one of its own)."""
    shopper = Shopper(base, address or new_address())
    email = f"{tag}-{uuid.uuid4().hex[:10]}@example.com"
    status, _, body = shopper.post("/register", "/register", {"name": tag.title(), "email": email, "password": "long-enough-1"})
    assert status == 303, f"registration answered {status}: {body[:300]}"
    shopper.email = email
    return shopper


def place_order(shopper, product_id):
    """Adds one of the product and checks out: the order's URL when the shop acknowledged it,
    None when it did not (a refusal, or a 502 from an instance that died mid-request)."""
    try:
        status, _, _ = shopper.post(f"/products/{product_id}", "/cart/items", {"productID": str(product_id), "quantity": "1"})
        if status != 303:
            return None
        status, location, _ = shopper.post("/checkout", "/checkout", {})
    except (OSError, http.client.HTTPException, AttributeError):  # no answer, one cut short, or an error page without the form
        return None
    return location if status == 303 and re.fullmatch(r"/orders/\d+", location or "") else None


class ScaleOutTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="tessera-scale-out-")
        cls.instances = [Instance(cls.folder, f"shop{number}") for number in (1, 2, 3)]
        # The demo shop's photos, which only `storefront seed` adds, as an operator would run it once.
        subprocess.run([str(BINARY), "seed"], cwd=ROOT, env={**os.environ, "DATABASE_URL": DATABASE_URL, "LOG_LEVEL": "warning", "PASSWORD_HASH_ROUNDS": "1000"},
                       check=True, stdout=subprocess.DEVNULL, timeout=600)
        try:
            # Started together: the migrations and the demo data happen once between them.
            threads = [threading.Thread(target=instance.start) for instance in cls.instances]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for instance in cls.instances:
                assert instance.process.poll() is None, instance.log_path.read_text()
            cls.nginx = Nginx(cls.folder, cls.instances)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "nginx", None):
            cls.nginx.stop()
        for instance in cls.instances:
            instance.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_1_the_demo_data_is_seeded_once(self):
        self.assertEqual(psql("SELECT count(*) FROM product"), "40")
        self.assertEqual(psql("SELECT count(*) FROM shop_user WHERE email LIKE '%@example.com' AND email IN "
                              "('ada@example.com', 'grace@example.com', 'alan@example.com')"), "3")
        self.assertEqual(psql("SELECT email FROM shop_user WHERE is_staff"), "sam@example.com", "the demo staff account, once")
        self.assertEqual(psql("SELECT count(*) FROM customer_order"), "6", "the demo orders, once")

    def test_2_a_journey_lands_on_every_instance(self):
        before = [instance.served() for instance in self.instances]
        shopper = new_shopper(self.nginx.base, "journey")
        location = place_order(shopper, 5)
        self.assertIsNotNone(location, "the order was placed")
        _, order_page = shopper.get(location)
        key = re.search(r'name="idempotencyKey" value="([^"]+)"', order_page).group(1)
        status, _, _ = shopper.post(location, location + "/pay", {"idempotencyKey": key})
        self.assertEqual(status, 303)
        for _ in range(3):  # whichever instance answers, the order is paid and hers
            status, order_page = shopper.get(location)
            self.assertEqual(status, 200)
            self.assertIn('data-order-status="paid"', order_page)
        after = [instance.served() for instance in self.instances]
        self.assertTrue(all(a > b for a, b in zip(after, before)), f"every instance served the journey: {before} → {after}")

        # The cookie as it was while signed in, replayed after signing out: signed out on all.
        copied = http.cookiejar.CookieJar()
        for cookie in shopper.opener.handlers[[type(h).__name__ for h in shopper.opener.handlers].index("HTTPCookieProcessor")].cookiejar:
            copied.set_cookie(cookie)
        heard = [instance.session_ends_heard() for instance in self.instances]
        status, _, _ = shopper.post("/", "/logout", {})
        self.assertEqual(status, 303)
        wait_for_session_ends(self.instances, heard)
        replay = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(copied), NoRedirects())
        for _ in range(6):  # twice round the three instances
            try:
                with replay.open(self.nginx.base + "/orders", timeout=10) as reply:
                    self.fail(f"a replayed cookie was still signed in: {reply.status}")
            except urllib.error.HTTPError as answer:
                self.assertEqual(answer.code, 303)
                self.assertTrue(answer.headers["Location"].startswith("/login"))

    def test_3_a_password_change_signs_out_other_sessions_everywhere(self):
        first = new_shopper(self.nginx.base, "password")
        second = Shopper(self.nginx.base)
        self.assertEqual(second.sign_in(first.email, "long-enough-1"), 303)
        self.assertEqual(second.get("/orders")[0], 200)
        heard = [instance.session_ends_heard() for instance in self.instances]
        status, _, _ = first.post("/account/password", "/account/password",
                                  {"current": "long-enough-1", "password": "even-longer-2", "confirm": "even-longer-2"})
        self.assertEqual(status, 303)
        wait_for_session_ends(self.instances, heard)
        for _ in range(6):
            self.assertEqual(second.get("/orders")[0], 303, "the other session is signed out on every instance")

    def test_3b_an_instance_that_missed_a_sign_out_refuses_the_session_once_it_listens_again(self):
        """Every instance keeps the session ends in memory, kept current by NOTIFY. An instance
        whose listener was cut off while another one signed a session out never heard of it; once
        it listens again it loads every end anew, so the copied cookie is signed out there too."""

        first, deaf = self.instances[0], self.instances[1]
        shopper = new_shopper(f"http://127.0.0.1:{first.port}", "missed")
        copied = http.cookiejar.CookieJar()
        for cookie in shopper.opener.handlers[[type(h).__name__ for h in shopper.opener.handlers].index("HTTPCookieProcessor")].cookiejar:
            copied.set_cookie(cookie)
        replay = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(copied), NoRedirects())
        with replay.open(f"http://127.0.0.1:{deaf.port}/orders", timeout=10) as reply:
            self.assertEqual(reply.status, 200, "signed in on the other instance too")
        wait_for_listeners(3)

        deaf.process.send_signal(signal.SIGSTOP)
        try:
            # Every listener's backend is ended; the running instances listen again at once,
            # the stopped one cannot until it runs: it misses what is announced meanwhile.
            psql(LISTENERS.replace("count(*)", "pg_terminate_backend(pid)"))
            wait_for_listeners(2)
            status, _, _ = shopper.post("/", "/logout", {})
            self.assertEqual(status, 303)
        finally:
            deaf.process.send_signal(signal.SIGCONT)
        wait_for_listeners(3)
        for _ in range(3):
            try:
                with replay.open(f"http://127.0.0.1:{deaf.port}/orders", timeout=10) as reply:
                    self.fail(f"the instance that missed the sign-out still took the cookie: {reply.status}")
            except urllib.error.HTTPError as answer:
                self.assertEqual(answer.code, 303)
                self.assertTrue(answer.headers["Location"].startswith("/login"))

    def test_3d_taking_staff_rights_ends_that_accounts_sessions_everywhere(self):
        """Whether a session is staff is in its sealed cookie: taking the rights through one
        instance ends every session of the account on all of them, as a password change does,
        a copy of the cookie sent straight to each instance included."""

        def status_on(instance, shopper, path):
            # A copy of the shopper's cookies for each request: an ended session's answer deletes
            # the cookie, which must not make the next instance's answer vacuous.
            jar = http.cookiejar.CookieJar()
            for cookie in shopper.opener.handlers[[type(h).__name__ for h in shopper.opener.handlers].index("HTTPCookieProcessor")].cookiejar:
                jar.set_cookie(cookie)
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirects())
            try:
                with opener.open(f"http://127.0.0.1:{instance.port}{path}", timeout=10) as reply:
                    return reply.status, None
            except urllib.error.HTTPError as answer:
                return answer.code, answer.headers.get("Location")

        sam = Shopper(self.nginx.base, new_address())
        self.assertEqual(sam.sign_in("sam@example.com", "sam-staff-2026"), 303)
        member = new_shopper(self.nginx.base, "staffer")
        heard = [instance.session_ends_heard() for instance in self.instances]
        status, _, _ = sam.post("/admin/staff", "/admin/staff", {"email": member.email})
        self.assertEqual(status, 303)
        wait_for_session_ends(self.instances, heard)
        self.assertEqual(member.sign_in(member.email, "long-enough-1"), 303, "staff from the next sign-in")
        for instance in self.instances:
            self.assertEqual(status_on(instance, member, "/admin/orders")[0], 200, f"staff on :{instance.port}")

        _, page = sam.get("/admin/staff")
        found = re.search(r'data-staff-id="(\d+)">\s*<span data-name>[^<]*</span> · <code>' + re.escape(member.email), page)
        self.assertIsNotNone(found, "the new member on the staff page")
        heard = [instance.session_ends_heard() for instance in self.instances]
        status, _, _ = sam.post("/admin/staff", f"/admin/staff/{found.group(1)}/revoke", {})
        self.assertEqual(status, 303)
        wait_for_session_ends(self.instances, heard)
        for instance in self.instances:
            status, location = status_on(instance, member, "/admin/orders")
            self.assertEqual(status, 303, f"signed out on :{instance.port}")
            self.assertTrue(location.startswith("/login"), location)
        self.assertEqual(member.sign_in(member.email, "long-enough-1"), 303)
        for instance in self.instances:
            self.assertEqual(status_on(instance, member, "/admin/orders")[0], 404, "a shopper again")

    def test_3c_an_instance_behind_a_silent_partition_stops_trusting_its_copy(self):
        """A partition that closes nothing: a fourth instance reaches PostgreSQL through a relay
        that goes silent. Its listener's heartbeat notices within two heartbeats (5 s each) and
        says so in the log; from then on the instance asks the database about every session,
        which it cannot reach, so a session signed out elsewhere meanwhile is refused (503),
        never taken. Once the relay forwards again, the instance listens again, loads the ends
        it missed, and signs the session out (303). The page asked for, the password form,
        reads nothing from the database but the session's standing."""

        upstream = urllib.parse.urlsplit(DATABASE_URL)
        relay = SilentRelay(upstream.hostname, upstream.port)
        relayed = DATABASE_URL.replace(f"{upstream.hostname}:{upstream.port}", f"127.0.0.1:{relay.port}", 1)
        # A request's patience of 2 s (the default), not the others' 60: a request that asks the
        # database across the partition is answered 503 when it runs out.
        cut = Instance(self.folder, "shop4", database_url=relayed, DATABASE_TIMEOUT="2")
        try:
            cut.start()
            wait_for_listeners(4)
            shopper = new_shopper(f"http://127.0.0.1:{self.instances[0].port}", "partitioned")
            copied = http.cookiejar.CookieJar()
            for cookie in shopper.opener.handlers[[type(h).__name__ for h in shopper.opener.handlers].index("HTTPCookieProcessor")].cookiejar:
                copied.set_cookie(cookie)
            replay = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(copied), NoRedirects())
            form = f"http://127.0.0.1:{cut.port}/account/password"
            with replay.open(form, timeout=10) as reply:
                self.assertEqual(reply.status, 200, "signed in on the fourth instance too")

            relay.go_silent()
            status, _, _ = shopper.post("/", "/logout", {})
            self.assertEqual(status, 303)
            deadline = time.monotonic() + 60
            while "listener lost its connection" not in cut.log_path.read_text():
                self.assertLess(time.monotonic(), deadline, "the listener never noticed the silence")
                time.sleep(0.1)
            for _ in range(3):
                try:
                    with replay.open(form, timeout=30) as reply:
                        self.fail(f"an instance cut off from the sign-outs still took the session: {reply.status}")
                except urllib.error.HTTPError as answer:
                    self.assertEqual(answer.code, 503, "refused as unknown: the database cannot say")

            relay.heal()
            deadline = time.monotonic() + 60
            while True:
                try:
                    with replay.open(form, timeout=30) as reply:
                        self.fail(f"the session was taken after the partition healed: {reply.status}")
                except urllib.error.HTTPError as answer:
                    if answer.code == 303:
                        self.assertTrue(answer.headers["Location"].startswith("/login"))
                        break
                    self.assertEqual(answer.code, 503, "refused until the database answers again")
                self.assertLess(time.monotonic(), deadline, "the instance did not reach the database again")
                time.sleep(0.2)
        finally:
            cut.stop()
            relay.close()

    def test_4_checkouts_racing_through_all_instances_never_oversell(self):
        product = 7
        psql(f"UPDATE product SET stock = 5 WHERE id = {product}")
        shoppers = [new_shopper(self.nginx.base, f"racer{number}") for number in range(10)]
        for shopper in shoppers:
            status, _, _ = shopper.post(f"/products/{product}", "/cart/items", {"productID": str(product), "quantity": "1"})
            self.assertEqual(status, 303)
        with ThreadPoolExecutor(max_workers=10) as pool:
            results = list(pool.map(lambda shopper: shopper.post("/checkout", "/checkout", {}), shoppers))
        placed = [location for status, location, _ in results if status == 303 and re.fullmatch(r"/orders/\d+", location or "")]
        self.assertEqual(len(placed), 5, [status for status, _, _ in results])
        self.assertEqual(psql(f"SELECT stock FROM product WHERE id = {product}"), "0")
        emails = ",".join(f"'{shopper.email}'" for shopper in shoppers)
        self.assertEqual(psql(f"SELECT sum(quantity) FROM order_line JOIN customer_order o ON o.id = order_id "
                              f"JOIN shop_user u ON u.id = o.user_id WHERE product_id = {product} AND u.email IN ({emails})"), "5")

    def test_4b_the_same_checkout_sent_twice_at_once_places_one_order(self):
        """A double click through the balancer: the same form, twice at once, on two
        connections that nginx hands to different instances. One order, both answers on it,
        even when it takes the last items (the second must not read "sold out")."""
        product = 8
        for round_number in range(3):
            psql(f"UPDATE product SET stock = 2 WHERE id = {product}")
            shopper = new_shopper(self.nginx.base, f"twice{round_number}")
            status, _, _ = shopper.post(f"/products/{product}", "/cart/items", {"productID": str(product), "quantity": "2"})
            self.assertEqual(status, 303)
            _, page = shopper.get("/checkout")
            data = urllib.parse.urlencode(hidden_fields(page, "/checkout")).encode()

            def click(_):
                try:
                    with shopper.opener.open(self.nginx.base + "/checkout", data=data, timeout=30) as reply:
                        return reply.status, reply.headers.get("Location")
                except urllib.error.HTTPError as answer:
                    return answer.code, answer.headers.get("Location")
            with ThreadPoolExecutor(max_workers=2) as pool:
                answers = list(pool.map(click, range(2)))
            self.assertEqual([status for status, _ in answers], [303, 303], answers)
            self.assertEqual(answers[0][1], answers[1][1], "both land on the one order")
            self.assertRegex(answers[0][1], r"^/orders/\d+$")
            self.assertEqual(psql(f"SELECT count(*) FROM customer_order o JOIN shop_user u ON u.id = o.user_id "
                                  f"WHERE u.email = '{shopper.email}'"), "1")
            self.assertEqual(psql(f"SELECT stock FROM product WHERE id = {product}"), "0")

    def test_5_an_instance_killed_under_load_is_routed_around_and_rejoins(self):
        psql("UPDATE product SET stock = 100000 WHERE id = 9")
        shoppers = [new_shopper(self.nginx.base, f"loaded{number}") for number in range(4)]
        stop = threading.Event()
        page_statuses, acknowledged, refused = [], [], []

        cut_short = []

        def browse():
            visitor = Shopper(self.nginx.base)
            while not stop.is_set():
                for path in ("/", "/products/2", "/?q=lamp"):
                    try:
                        page_statuses.append(visitor.get(path)[0])
                    except http.client.IncompleteRead:
                        # A page the victim was sending when it died: nginx cannot replay it.
                        cut_short.append(path)

        def buy(shopper):
            while not stop.is_set():
                location = place_order(shopper, 9)
                (acknowledged if location else refused).append(location)

        victim = self.instances[1]
        with ThreadPoolExecutor(max_workers=8) as pool:
            workers = [pool.submit(browse) for _ in range(4)] + [pool.submit(buy, shopper) for shopper in shoppers]
            time.sleep(2)
            victim.kill()
            time.sleep(3)
            stop.set()
            for worker in workers:
                worker.result()  # a worker that failed fails the test

        self.assertGreater(len(page_statuses), 20)
        self.assertEqual({status for status in page_statuses}, {200}, "nginx sent every page to a live instance")
        self.assertLessEqual(len(cut_short), 4, "only pages in flight at the kill, one per browsing thread, are cut short")
        self.assertGreater(len(acknowledged), 4)
        ids = ",".join(location.rsplit("/", 1)[1] for location in acknowledged)
        self.assertEqual(psql(f"SELECT count(*) FROM customer_order WHERE id IN ({ids})"), str(len(acknowledged)),
                         "every order the shop acknowledged is in the database")
        # And nothing beyond them: an order whose answer was lost with the instance (a 502) may
        # exist, but no request placed two.
        emails = ",".join(f"'{shopper.email}'" for shopper in shoppers)
        placed = int(psql(f"SELECT count(*) FROM customer_order o JOIN shop_user u ON u.id = o.user_id WHERE u.email IN ({emails})"))
        self.assertGreaterEqual(placed, len(acknowledged))
        self.assertLessEqual(placed, len(acknowledged) + len(refused), "no checkout was placed twice")

        victim.start()
        served = victim.served()
        deadline = time.monotonic() + 20
        while victim.served() == served:
            self.assertLess(time.monotonic(), deadline, "the restarted instance gets requests again")
            Shopper(self.nginx.base).get("/healthz")
            time.sleep(0.1)

    def test_6_a_change_through_one_instance_reaches_pages_following_through_the_others(self):
        """Live regions across instances: product pages following their streams on the second
        and third instances directly, and on whichever nginx picks, and a purchase made on the
        first instance. Every stream gets the new stock: through PostgreSQL's LISTEN/NOTIFY, and
        through nginx's /_live location without buffering."""
        product = 12
        psql(f"UPDATE product SET stock = 2 WHERE id = {product}")
        for instance in self.instances:  # all three, even after a failed test_5
            if instance.process.poll() is not None:
                instance.start()
        streams = []
        try:
            for base in (f"http://127.0.0.1:{self.instances[1].port}", f"http://127.0.0.1:{self.instances[2].port}", self.nginx.base):
                watcher = Shopper(base)
                _, page = watcher.get(f"/products/{product}")
                url = html.unescape(re.search(r'data-live-stream="([^"]+)"', page).group(1))
                reply = watcher.opener.open(base + url, timeout=15)
                self.assertEqual(reply.status, 200)
                self.assertTrue(reply.headers["Content-Type"].startswith("text/event-stream"))
                streams.append(reply)
            buyer = new_shopper(f"http://127.0.0.1:{self.instances[0].port}", "live-buyer")
            self.assertIsNotNone(place_order(buyer, product))

            def new_stock(reply):
                seen = b""
                try:
                    for line in reply:
                        seen += line
                        found = re.search(rb'data-stock="(\d+)"', line)
                        if found:
                            return int(found.group(1))
                except Exception as error:
                    partial = getattr(error, "partial", b"")
                    raise AssertionError(f"{error!r} after {seen[-600:]!r} + {partial[-300:]!r}; logs: "
                                         + " | ".join(i.log_path.read_text()[-1500:] for i in self.instances)) from error
                return None

            with ThreadPoolExecutor(max_workers=3) as pool:
                self.assertEqual(list(pool.map(new_stock, streams)), [1, 1, 1])
            # The second and third instances kept the product's detail region when the watchers
            # loaded its page (the region cache): the change heard over NOTIFY ended it there.
            for instance in self.instances:
                _, page = Shopper(f"http://127.0.0.1:{instance.port}").get(f"/products/{product}")
                self.assertIn('data-stock="1"', page, f"instance on port {instance.port} showed a kept, stale region")
        finally:
            for reply in streams:
                reply.close()

    def test_6b_nginx_keeps_a_kept_page_and_drops_it_after_a_change(self):
        """A product page for visitors without a session is kept by the instances and, for a
        second at a time, by nginx: a repeat comes from nginx's cache; a shopper with a session
        passes by it; no kept answer carries a cookie; and a purchase made on one instance shows
        through nginx as soon as its copy's second is over."""
        product = 23
        url = f"{self.nginx.base}/products/{product}?nginx-keeps=1"  # a URL nobody asked for yet

        def fetch(cookie=None):
            headers = {"Cookie": cookie} if cookie else {}
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as reply:
                return reply.headers, reply.read().decode()

        first_headers, first = fetch()
        self.assertEqual(first_headers["X-Cache"], "MISS")
        self.assertEqual(first_headers["Cache-Control"], "public, no-cache")
        self.assertIsNone(first_headers["Set-Cookie"])
        stock = re.search(r'data-stock="(\d+)"', first).group(1)
        repeat_headers, repeat = fetch()
        # From nginx's copy: as it is within its second, or after a 304 from an instance.
        self.assertIn(repeat_headers["X-Cache"], ("HIT", "REVALIDATED"))
        self.assertEqual(repeat, first)

        shopper = new_shopper(self.nginx.base, "nginx-keeps")
        status, _, _ = shopper.post(f"/products/{product}?nginx-keeps=1", "/cart/items", {"productID": str(product), "quantity": "2"})
        self.assertEqual(status, 303)
        cookie = "; ".join(f"{c.name}={c.value}" for c in shopper.opener.handlers[
            [type(h).__name__ for h in shopper.opener.handlers].index("HTTPCookieProcessor")].cookiejar)
        signed_in_headers, signed_in = fetch(cookie)
        self.assertEqual(signed_in_headers["X-Cache"], "BYPASS", "a session passes by nginx's cache")
        self.assertIn('data-signed-in-as="Nginx-Keeps"', signed_in)
        self.assertIn('data-cart-count="2"', signed_in)
        self.assertIn('class="flash"', signed_in)
        anonymous_headers, anonymous = fetch()
        self.assertEqual(anonymous, first, "what the shopper got was not kept for the others")
        self.assertNotIn("data-signed-in-as", anonymous)
        self.assertIn('data-cart-count="0"', anonymous)
        self.assertIsNone(anonymous_headers["Set-Cookie"])

        buyer = new_shopper(f"http://127.0.0.1:{self.instances[0].port}", "nginx-buyer")
        self.assertIsNotNone(place_order(buyer, product))
        deadline = time.monotonic() + 10
        while True:
            headers, page = fetch()
            self.assertIsNone(headers["Set-Cookie"])
            if f'data-stock="{int(stock) - 1}"' in page:
                self.assertIn(headers["X-Cache"], ("EXPIRED", "MISS"), "nginx asked an instance again")
                break
            self.assertIn(headers["X-Cache"], ("HIT", "UPDATING"), f"a stale page came from nginx's second only: {headers['X-Cache']}")
            self.assertLess(time.monotonic(), deadline, "nginx never showed the purchase")
            time.sleep(0.05)

    def test_7_every_instance_serves_every_photo(self):
        """Photos live in the database on PostgreSQL: a demo photo the seed added, and a photo
        staff upload through nginx, are served by all three instances directly."""
        for instance in self.instances:
            if instance.process.poll() is not None:
                instance.start()
        bases = [f"http://127.0.0.1:{instance.port}" for instance in self.instances]

        def variant(base, url):
            with urllib.request.urlopen(base + url, timeout=15) as reply:
                return reply.status, reply.headers["Cache-Control"], reply.read()

        # Every instance shows the demo photo first, and so keeps it in memory (its PhotoShelf).
        pages = [Shopper(base).get("/products/7")[1] for base in bases]
        demo = re.search(r"/photos/[0-9a-f]{16}-640\.webp", pages[0]).group(0)
        demo_fingerprint = demo.split("/")[-1].split("-")[0]
        self.assertTrue(all(demo in page for page in pages))
        drawn = [variant(base, demo) for base in bases]
        self.assertEqual({status for status, _, _ in drawn}, {200})
        self.assertEqual(len({body for _, _, body in drawn}), 1, "the same bytes from every instance")

        staff = Shopper(self.nginx.base)
        self.assertEqual(staff.sign_in("sam@example.com", "sam-staff-2026"), 303)
        _, admin = staff.get("/admin/products")
        boundary = "scale-out-photo"
        photo = drawn[0][2]
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"new.webp\"\r\nContent-Type: image/webp\r\n\r\n").encode() \
            + photo + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(self.nginx.base + "/admin/products/7/photos", data=body, method="POST",
                                         headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        try:
            with staff.opener.open(request, timeout=30) as reply:
                status = reply.status
        except urllib.error.HTTPError as answer:
            status = answer.code
        self.assertEqual(status, 303, "the upload was taken")
        # Whichever instance took the upload, every one hears of it (NOTIFY) and shows it.
        leading = []
        for base in bases:
            deadline = time.monotonic() + 5
            while True:
                _, page = Shopper(base).get("/products/7")
                first = re.search(r"/photos/[0-9a-f]{16}-320\.jpg", page).group(0)
                if demo_fingerprint not in first or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            leading.append(first)
        uploaded = leading[0]
        self.assertNotIn(demo_fingerprint, uploaded, "the new photo leads")
        self.assertEqual(set(leading), {uploaded}, "on every instance")
        for base in bases:
            status, cache_control, _ = variant(base, uploaded)
            self.assertEqual((status, cache_control), (200, "public, max-age=31536000, immutable"), base)

    def test_8_limits_are_counted_once_for_all_instances(self):
        """Three instances allow what one allows: the registration limit (10 an hour per
        address) and the sign-in throttle (5 free guesses per account) count in PostgreSQL.
        The requests go to the instances in turn, as a balancer spreads them (each believes
        the forwarded address: 127.0.0.1 is a trusted proxy), and the last through nginx."""
        bases = [f"http://127.0.0.1:{instance.port}" for instance in self.instances]
        for instance in self.instances:  # all three, even after a failed test_5
            if instance.process.poll() is not None:
                instance.start()
        address = new_address()
        answers = []
        for number in range(11):
            shopper = Shopper(bases[number % 3] if number < 10 else self.nginx.base, address)
            email = f"limit{number}-{uuid.uuid4().hex[:8]}@example.com"
            status, _, body = shopper.post("/register", "/register", {"name": "Limit", "email": email, "password": "long-enough-1"})
            answers.append((status, body))
        self.assertEqual([status for status, _ in answers], [303] * 10 + [429])
        self.assertIn("Too many requests.", answers[-1][1])
        # Another address is not held up by that one.
        self.assertEqual(new_shopper(self.nginx.base, "neighbour").post("/logout", "/logout", {})[0], 303)

        guess_address = new_address()
        statuses = [Shopper(bases[number % 3], guess_address).post(
            "/login", "/login", {"email": "grace@example.com", "password": f"guess-{number}", "next": "/"})[0] for number in range(6)]
        # The 6th guess earned a 2 s wait, which the 7th, sent at once, meets.
        statuses.append(Shopper(self.nginx.base, guess_address).post(
            "/login", "/login", {"email": "grace@example.com", "password": "guess-6", "next": "/"})[0])
        self.assertEqual(psql("SELECT hits FROM tessera_rate_limit WHERE key = 'sign-in.account:grace@example.com'"), "6",
                         "one count for the account, whichever instance each guess reached; the refused 7th not counted")
        print(f"\nshared limits: registrations from one address through 3 instances {[status for status, _ in answers]}; "
              f"wrong passwords for one account {statuses}", file=sys.stderr)
        self.assertEqual(statuses, [422] * 6 + [429], "the 7th guess waits, whichever instance counted the 6 before it")

    def test_90_https_with_http2_in_front_and_plain_http_sent_there(self):
        """deploy/nginx.conf's TLS server block: HTTP/2 with the test CA's certificate, the
        instances told the visit is HTTPS (so the session cookie is Secure), and port 80 only a
        redirect to the same path on HTTPS."""
        base = f"https://127.0.0.1:{self.nginx.tls_port}"

        def curl(*arguments):
            return subprocess.run(["curl", "-sS", "--max-time", "20", *arguments], capture_output=True, text=True, timeout=30)

        # Adding to the cart starts a session: its cookie says whether the instance saw HTTPS.
        secure = curl("--http2", "--cacert", str(self.nginx.ca), "-D", "-", "-o", "/dev/null", "-w", "version=%{http_version}",
                      "-H", "Sec-Fetch-Site: same-origin", "--data", "productID=2&quantity=1", base + "/cart/items")
        self.assertEqual(secure.returncode, 0, secure.stderr)
        self.assertRegex(secure.stdout, r"(?m)^HTTP/2 303", "HTTP/2 over TLS")
        self.assertTrue(secure.stdout.endswith("version=2"), secure.stdout)
        self.assertRegex(secure.stdout, r"(?im)^set-cookie: [^\r\n]*; ?Secure", "X-Forwarded-Proto: https reached the instance")

        untrusted = curl("-o", "/dev/null", base + "/")
        self.assertEqual(untrusted.returncode, 60, "without the test CA, curl refuses the certificate: " + untrusted.stderr)

        plain = curl("-D", "-", "-o", "/dev/null", f"http://127.0.0.1:{self.nginx.redirect_port}/products/2?page=1")
        self.assertRegex(plain.stdout, r"^HTTP/1.1 301")
        self.assertRegex(plain.stdout, r"(?im)^location: https://127\.0\.0\.1/products/2\?page=1\r?$")

    def test_9_a_rolling_deploy_under_load_drops_nothing(self):
        """deploy/rolling-deploy.sh replaces the three instances one at a time while 8 clients
        browse, sign in, fill carts and check out, and a live page follows its stream through
        nginx. Every answer is counted: none fails, no order is lost or placed twice, nobody is
        signed out, and the live page reconnects and catches up."""
        for instance in self.instances:
            if instance.process.poll() is not None and int(instance.pid_path.read_text()) == instance.process.pid:
                instance.start()
        product = 14
        psql(f"UPDATE product SET stock = 100000 WHERE id = {product}")
        buyers = [new_shopper(self.nginx.base, f"roller{number}") for number in range(4)]
        browsers = [new_shopper(self.nginx.base, f"browser{number}") for number in range(4)]
        stop = threading.Event()
        lock = threading.Lock()
        counts = {"answers": 0, "failures": [], "signed_out": 0}
        acknowledged = []

        def record(method, path, call, expected):
            try:
                answer = call()
            except Exception as error:  # no answer, one cut short, a page without the form: all failures
                answer = (repr(error),)
            with lock:
                counts["answers"] += 1
                if answer[0] != expected:
                    counts["failures"].append((method, path, answer[0]))
            return answer

        def buy(shopper):
            while not stop.is_set():
                record("GET", f"/products/{product}", lambda: shopper.get(f"/products/{product}"), 200)
                record("POST", "/cart/items", lambda: shopper.post(f"/products/{product}", "/cart/items",
                                                                   {"productID": str(product), "quantity": "1"}), 303)
                answer = record("POST", "/checkout", lambda: shopper.post("/checkout", "/checkout", {}), 303)
                if answer[0] == 303 and re.fullmatch(r"/orders/\d+", answer[1] or ""):
                    with lock:
                        acknowledged.append(int(answer[1].rsplit("/", 1)[1]))

        def browse(shopper):
            while not stop.is_set():
                for path in ("/", f"/products/{product}", "/?q=lamp", "/account"):
                    answer = record("GET", path, lambda: shopper.get(path), 200)
                    if path == "/account" and answer[0] == 303:
                        with lock:
                            counts["signed_out"] += 1

        # The live page: its stream through nginx, reopened as EventSource does when cut.
        watcher = Shopper(self.nginx.base, new_address())
        _, page = watcher.get(f"/products/{product}")
        stream_url = html.unescape(re.search(r'data-live-stream="([^"]+)"', page).group(1))
        live = {"connections": 0, "stock": None}

        def follow():
            while not live.get("done"):
                try:
                    with watcher.opener.open(self.nginx.base + stream_url, timeout=15) as reply:
                        live["connections"] += 1
                        for line in reply:  # a heartbeat at least every 10 s
                            found = re.search(rb'data-stock="(\d+)"', line)
                            if found:
                                live["stock"] = int(found.group(1))
                            if live.get("done"):
                                return
                except (OSError, http.client.HTTPException):
                    time.sleep(0.2)  # EventSource's retry

        instances = " ".join(f"{instance.name}=127.0.0.1:{instance.port}" for instance in self.instances)
        commands = {"MIGRATE": f"{shlex.quote(str(BINARY))} migrate",
                    "RELOAD_NGINX": self.nginx.reload_command,
                    "CHECK_READY": 'curl -fsS --max-time 2 -o /dev/null "http://$ADDRESS/readyz"'}
        for instance in self.instances:
            commands[f"START_{instance.name}"] = instance.start_command()
            commands[f"STOP_{instance.name}"] = instance.stop_command()
        environment = {**os.environ, **commands, "DATABASE_URL": DATABASE_URL,
                       "START_INSTANCE": 'eval "$(printenv START_$INSTANCE)"', "STOP_INSTANCE": 'eval "$(printenv STOP_$INSTANCE)"'}
        with ThreadPoolExecutor(max_workers=9) as pool:
            workers = [pool.submit(buy, shopper) for shopper in buyers] + [pool.submit(browse, shopper) for shopper in browsers]
            pool.submit(follow)
            try:
                time.sleep(1)
                deploy = subprocess.run(["deploy/rolling-deploy.sh", str(self.nginx.folder / "nginx.conf")] + instances.split(),
                                        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
                time.sleep(1)
                stop.set()
                for worker in workers:
                    worker.result()
                live["final"] = int(psql(f"SELECT stock FROM product WHERE id = {product}"))
                deadline = time.monotonic() + 15
                while live["stock"] != live["final"] and time.monotonic() < deadline:
                    time.sleep(0.1)
            finally:
                stop.set()
                live["done"] = True
        self.assertEqual(deploy.returncode, 0, deploy.stdout + deploy.stderr)
        self.assertIn("done: 3 instances replaced", deploy.stdout)
        pids = [int(instance.pid_path.read_text()) for instance in self.instances]
        self.assertTrue(all(pid != instance.process.pid for pid, instance in zip(pids, self.instances)), "every instance was replaced")

        emails = ",".join(f"'{shopper.email}'" for shopper in buyers)
        placed = [int(row) for row in psql(f"SELECT o.id FROM customer_order o JOIN shop_user u ON u.id = o.user_id "
                                            f"WHERE u.email IN ({emails})").split()]
        lost = sorted(set(acknowledged) - set(placed))
        doubled = len(placed) - len(set(acknowledged))
        print(f"\nrolling deploy: {counts['answers']} answers, {len(counts['failures'])} failed, {len(acknowledged)} orders "
              f"acknowledged, {len(lost)} lost, {doubled} doubled, {counts['signed_out']} signed out; live page: "
              f"{live['connections']} stream connections, stock {live['stock']} of {live['final']}", file=sys.stderr)
        self.assertEqual(counts["failures"], [])
        self.assertGreater(counts["answers"], 200)
        self.assertGreater(len(acknowledged), 10)
        self.assertEqual(lost, [], "every acknowledged order is in the database")
        self.assertEqual(doubled, 0, "no order beyond the acknowledged ones")
        self.assertEqual(counts["signed_out"], 0)
        self.assertGreaterEqual(live["connections"], 2, "the live page's stream was cut with its instance, and reopened")
        self.assertEqual(live["stock"], live["final"], "the live page caught up with the stock")


if __name__ == "__main__":
    unittest.main()

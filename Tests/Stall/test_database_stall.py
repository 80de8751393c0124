"""A database that stalls, while 64 clients load pages signed in (`make stall-test`, part of
`make test`).

- PostgreSQL: every process of the throwaway cluster is stopped (SIGSTOP) for 3 s.
- PostgreSQL's host name: its DNS server stops answering while the storefront must connect again
  (a name server of the test's own on 127.0.0.9, seen through a mount namespace's resolv.conf).
- SQLite: another process holds the database file's write lock for 3 s.

What must hold. Each is an event or a count, or a time far from what a loaded machine's noise can
reach, so that the test passes with the machine's cores kept busy:
- nothing that needs no database waits for it: `/healthz`, `/readyz` and a static file answer as
  fast during the stall as before it (p99 within 2x, or within a tenth of the deadline: a loop
  held by a database wait would hold its requests for up to the whole deadline, 2 s);
- every page answers: 200, or 503 with `Retry-After` once its deadline (DATABASE_TIMEOUT, 2 s,
  all of a request's waits together) has passed; none takes longer than the deadline and a
  second, as the server itself timed it (its access log: a client's clock on a loaded machine
  also counts its own threads' turns);
- once the server has written to the database again (the first write after the stall that
  succeeds), every page and write succeeds.

A failure quotes the warnings and errors the storefront logged; STALL_LOG_LEVEL=debug logs more.
"""
import http.client
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/test/release/storefront"))
SECRET = "stall-" + "s" * 40
CLIENTS = 64
DEADLINE = 2.0
SHOPPERS = [("ada@example.com", "ada-lovelace-1815"), ("grace@example.com", "grace-hopper-1906"), ("alan@example.com", "alan-turing-1912")]


class Connection:
    """One keep-alive connection, as a browser's, with the session cookie it was given."""

    def __init__(self, port, cookie=None):
        self.port = port
        self.cookie = cookie
        self.http = None

    def request(self, method, path, body=None, timeout=10):
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):
            if self.http is None:
                self.http = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                self.http.request(method, path, body=body, headers=headers)
                reply = self.http.getresponse()
                text = reply.read().decode("utf-8", "replace")
                if reply.getheader("Connection", "").lower() == "close":
                    self.close()
                for value in reply.headers.get_all("Set-Cookie") or []:
                    self.cookie = value.split(";")[0]
                return reply.status, reply.headers, text
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A kept-alive connection the server closed meanwhile: once more, on a new one.
                self.close()
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.http:
            self.http.close()
            self.http = None


class Storefront:
    def __init__(self, folder, launcher=(), **environment):
        self.port = free_port()
        self.data = Path(folder) / "data"
        self.log_path = Path(folder) / "storefront.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [*launcher, str(BINARY)], cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "DATA_DIR": str(self.data), "SESSION_SECRET": SECRET,
                 "LOG_LEVEL": os.environ.get("STALL_LOG_LEVEL", "info"), "DATABASE_TIMEOUT": str(DEADLINE),
                 "PASSWORD_HASH_ROUNDS": "1000", **environment})
        deadline = time.monotonic() + 60
        while True:
            probe = Connection(self.port)
            try:
                if probe.request("GET", "/readyz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            finally:
                probe.close()
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise AssertionError("the storefront did not start: " + (Path(folder) / "storefront.log").read_text()[-2000:])
            time.sleep(0.2)

    def signed_in(self, email, password):
        connection = Connection(self.port)
        status, _, _ = connection.request("POST", "/login", urllib.parse.urlencode(
            {"email": email, "password": password, "next": "/"}))
        connection.close()
        assert status == 303, f"sign-in answered {status}"
        return connection.cookie

    def errors_logged(self):
        """The storefront's own account of what went wrong, for a failing test's report."""
        self.log.flush()
        lines = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(line for line in lines if " error " in line or " warning " in line)[-4000:]

    ACCESS = re.compile(r" (GET|POST) (\S+) (\d{3}) \d+ ([\d.]+)ms")

    def answer_times(self):
        """Each answer the server gave, as its access log says: (method and path, status, seconds
        from its head to its last byte)."""
        self.log.flush()
        return [(f"{m.group(1)} {m.group(2)}", int(m.group(3)), float(m.group(4)) / 1000)
                for m in map(self.ACCESS.search, self.log_path.read_text(errors="replace").splitlines()) if m]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        self.log.close()


class NameServer:
    """A DNS server on UDP port 53 of `address` that answers A queries for `names`, until told to
    go silent: then it takes every query and answers none, as a name server that is down
    behind a firewall that drops packets."""

    def __init__(self, address, names):
        import socket
        self.names = names
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind((address, 53))
        self.silent = threading.Event()
        self.unanswered = threading.Event()
        self.answered = 0
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def go_silent(self):
        self.silent.set()

    def answer_again(self):
        self.silent.clear()

    def close(self):
        self.socket.close()

    def serve(self):
        import struct
        while True:
            try:
                query, client = self.socket.recvfrom(512)
            except OSError:
                return
            if self.silent.is_set():
                self.unanswered.set()
                continue
            ident, _flags, count = struct.unpack(">HHH", query[:6])
            if count != 1:
                continue
            end = 12
            labels = []
            while query[end]:
                labels.append(query[end + 1:end + 1 + query[end]].decode())
                end += 1 + query[end]
            qtype = struct.unpack(">H", query[end + 1:end + 3])[0]
            question = query[12:end + 5]
            address = self.names.get(".".join(labels).lower())
            if address is None:
                header = struct.pack(">HHHHHH", ident, 0x8183, 1, 0, 0, 0)  # NXDOMAIN
                answers = b""
            elif qtype == 1:
                header = struct.pack(">HHHHHH", ident, 0x8180, 1, 1, 0, 0)
                answers = b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 5, 4) + bytes(int(part) for part in address.split("."))
            else:  # no other record of the name: an empty answer
                header = struct.pack(">HHHHHH", ident, 0x8180, 1, 0, 0, 0)
                answers = b""
            self.socket.sendto(header + question + answers, client)
            self.answered += 1


class Workers:
    """Threads that run until told to stop."""

    def __init__(self, targets):
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=target, args=args, daemon=True) for target, args in targets]

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)


class Load(Workers):
    """64 clients, each on its own connection with a signed-in session, loading pages back to
    back; some of them add to their cart as they go (a write). Every answer is kept with when
    it was asked and how long it took."""

    def __init__(self, storefront, cookies, writers=8):
        self.storefront = storefront
        self.answers = []  # (started, seconds, path, status, retry_after)
        self.lock = threading.Lock()
        super().__init__([(self.client, (number, cookies[number % len(cookies)], number < writers)) for number in range(CLIENTS)])

    def client(self, number, cookie, writes):
        connection = Connection(self.storefront.port, cookie)
        pages = ["/orders", f"/products/{number % 40 + 1}", "/", "/cart"]
        turn = 0
        while not self.stopping.is_set():
            turn += 1
            if writes and turn % 3 == 0:
                # Add one, then take the line out again, so the stock lasts.
                if turn % 6 == 0:
                    method, path, body = "POST", "/cart/items", urllib.parse.urlencode({"productID": "3", "quantity": "1"})
                else:
                    method, path, body = "POST", "/cart/items/3/remove", ""
            else:
                method, path, body = "GET", pages[turn % len(pages)], None
            started = time.monotonic()
            try:
                status, headers, text = connection.request(method, path, body)
                retry_after = headers.get("Retry-After")
            except Exception as error:  # any failure is an answer that counts against the server
                status, retry_after = f"failed: {error!r}", None
                connection.close()
            with self.lock:
                self.answers.append((started, time.monotonic() - started, f"{method} {path}", status, retry_after))
        connection.close()



class Probe(Workers):
    """What needs no database, each path asked every 10 ms on a connection and thread of its
    own (so a slow answer of one does not thin out the others' samples)."""

    PATHS = ["/healthz", "/readyz", "/css/site.css"]

    def __init__(self, port):
        self.port = port
        self.samples = []  # (started, path, seconds, status)
        super().__init__([(self.run, (path,)) for path in self.PATHS])


    def run(self, path):
        connection = Connection(self.port)
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                status, _, _ = connection.request("GET", path)
            except Exception as error:  # recorded, so that it fails the test
                status = f"failed: {error!r}"
                connection.close()
            self.samples.append((started, path, time.monotonic() - started, status))
            time.sleep(0.01)
        connection.close()

    def p99(self, path, start, end):
        times = sorted(seconds for started, probed, seconds, _ in self.samples if probed == path and start <= started < end)
        assert times, f"no probe of {path} between {start} and {end}"
        return times[min(len(times) - 1, int(len(times) * 0.99))]


class DatabaseStallTest(unittest.TestCase):
    def run_stall(self, storefront, stall, resume, needs_database_statuses):
        cookies = [storefront.signed_in(email, password) for email, password in SHOPPERS]
        load, probe = Load(storefront, cookies), Probe(storefront.port)
        load.start()
        probe.start()
        try:
            time.sleep(4)  # warm up, then the probe's "before"
            stalled_at = time.monotonic()
            stall()
            time.sleep(3)
            resumed_at = time.monotonic()
            resume()
            time.sleep(4)
        finally:
            resume()
            probe.stop()
            load.stop()
        try:
            self.check(storefront, load, probe, stalled_at, resumed_at, needs_database_statuses)
        except AssertionError as failure:
            raise AssertionError(f"{failure}\nwhat the storefront logged:\n{storefront.errors_logged()}") from None

    def check(self, storefront, load, probe, stalled_at, resumed_at, needs_database_statuses):
        # Nothing that needs no database waits for it.
        for path in Probe.PATHS:
            before = probe.p99(path, stalled_at - 3, stalled_at)
            during = probe.p99(path, stalled_at, resumed_at)
            print(f"  {path}: p99 {before * 1000:.1f} ms before the stall, {during * 1000:.1f} ms during it")
            self.assertLessEqual(during, max(2 * before, DEADLINE / 10), f"{path} waited for the stalled database")
        self.assertTrue(all(status in (200, 503) for _, path, _, status in probe.samples if path == "/readyz"),
                        {status for _, path, _, status in probe.samples if path == "/readyz"})
        self.assertTrue(all(status == 200 for _, path, _, status in probe.samples if path != "/readyz"),
                        [sample for sample in probe.samples if sample[1] != "/readyz" and sample[3] != 200][:5])

        # Every page answers, 200 or 503 with Retry-After, within its deadline and a second, as
        # the server timed it.
        answers = storefront.answer_times()
        self.assertTrue(answers, "the access log holds the answers")
        slowest = max(answers, key=lambda answer: answer[2])
        print(f"  the slowest answer, as the server timed it: {slowest[0]}, {slowest[2]:.2f} s (status {slowest[1]})")
        for path, status, seconds in answers:
            self.assertLessEqual(seconds, DEADLINE + 1, f"{path} took {seconds:.2f} s (status {status})")
        during = [answer for answer in load.answers if stalled_at - DEADLINE <= answer[0] < resumed_at]
        self.assertTrue(during, "the load went on during the stall")
        for started, seconds, path, status, retry_after in load.answers:
            # A write may also be refused on its merits (422: another client of the same account
            # took the stock first); an answer is what matters.
            self.assertIn(status, (200, 303, 503) + ((422,) if path.startswith("POST") else ()), f"{path}: {status}")
            if status == 503:
                self.assertEqual(retry_after, "5", f"{path}: a 503 says when to come back")
        statuses = {status for _, _, _, status, _ in during}
        for status in needs_database_statuses:
            self.assertIn(status, statuses, f"a page answered {status} during the stall")
        print(f"  during the stall: {len(during)} answers, "
              + ", ".join(f"{sum(1 for a in during if a[3] == s)} × {s}" for s in sorted(statuses, key=str)))

        # Back to normal: from the end of the first write that succeeded after the stall, every
        # request succeeds.
        succeeded = (200, 303, 422)
        back = [started + seconds for started, seconds, path, status, _ in load.answers
                if path.startswith("POST") and status in (303, 422) and started >= resumed_at]
        self.assertTrue(back, "a write succeeded after the stall")
        back_at = min(back)
        after = [answer for answer in load.answers if answer[0] >= back_at]
        self.assertTrue(after, "the load went on after the stall")
        failed = [(f"{started - resumed_at:+.2f} s", path, status, f"{seconds:.2f} s")
                  for started, seconds, path, status, _ in after if status not in succeeded]
        self.assertFalse(failed, f"after the first write that succeeded {back_at - resumed_at:.2f} s after the stall, "
                                 f"answers that failed (start after the stall, path, status, time): {failed[:10]}")
        print(f"  the first write after the stall succeeded {back_at - resumed_at:.2f} s after it; "
              f"{len(after)} answers since, every one a success")

    def test_postgresql_stopped_for_3_seconds(self):
        cluster = Path(os.environ["TESSERA_POSTGRES_CLUSTER"])
        postmaster = int((cluster / "data/postmaster.pid").read_text().split()[0])

        def processes():
            children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
            return [postmaster] + [int(pid) for pid in children]

        stopped = []

        def stall():
            for pid in processes():
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)

        def resume():
            while stopped:
                try:
                    os.kill(stopped.pop(), signal.SIGCONT)
                except ProcessLookupError:
                    pass

        with tempfile.TemporaryDirectory(prefix="tessera-stall-") as folder:
            storefront = Storefront(folder, DATABASE_URL=os.environ["TESSERA_POSTGRES_URL"])
            try:
                # Pages read the database: during the stall they answer 503 at their deadline.
                self.run_stall(storefront, stall, resume, needs_database_statuses=[503])
            finally:
                resume()
                storefront.stop()

    def test_a_silent_dns_server_holds_no_event_loop(self):
        """libpq resolves `host=` on the thread that starts a connection; the storefront resolves it
        on a thread of its own. While the name server holds a lookup unanswered (5 s, its client's
        timeout), a server with one event loop answers `/healthz` and a static file, and a page
        that needs the database is a 503 at its deadline; once the name server answers again,
        pages are whole again."""
        with tempfile.TemporaryDirectory(prefix="tessera-dns-") as folder:
            try:
                names = NameServer("127.0.0.9", {"db.tessera.test": "127.0.0.1"})
            except PermissionError as error:
                self.skipTest(f"cannot listen on 127.0.0.9:53 ({error}): a name server needs root")
            resolv = Path(folder) / "resolv.conf"
            resolv.write_text("nameserver 127.0.0.9\noptions timeout:5 attempts:1\n")
            launcher = ["unshare", "--mount", "sh", "-c", 'mount --bind "$0" /etc/resolv.conf && exec "$@"', str(resolv)]
            if subprocess.run([*launcher, "true"], capture_output=True).returncode != 0:
                names.close()
                self.skipTest("unshare --mount is not allowed here: no private resolv.conf for the storefront")
            url = urllib.parse.urlsplit(os.environ["TESSERA_POSTGRES_URL"])
            named = url._replace(netloc=url.netloc.replace("127.0.0.1", "db.tessera.test")).geturl()
            storefront = Storefront(folder, launcher=launcher, DATABASE_URL=named, THREADS="1")

            def get(path, timeout=10):
                connection = Connection(storefront.port)
                try:
                    return connection.request("GET", path, timeout=timeout)
                finally:
                    connection.close()

            try:
                self.assertEqual(get("/?q=oak")[0], 200, "the database through its name")
                self.assertGreater(names.answered, 0, "the name was looked up through the test's name server")
                names.go_silent()
                # Every connection ends: the next page must connect, and look the name up, again.
                subprocess.run([os.environ["TESSERA_POSTGRES_CTL"], "restart-fast"], check=True)
                page = {}
                reader = threading.Thread(target=lambda: page.update(answer=get("/?q=walnut", timeout=30)))
                reader.start()
                self.assertTrue(names.unanswered.wait(30), "the storefront asked the silent name server")
                # The lookup is held for 5 s: a loop blocked in it would answer none of these in 4 s.
                for _ in range(10):
                    self.assertEqual(get("/healthz", timeout=4)[0], 200)
                    self.assertEqual(get("/favicon.svg", timeout=4)[0], 200)
                reader.join(30)
                status, headers, _ = page["answer"]
                self.assertEqual((status, headers.get("Retry-After")), (503, "5"), "the page waited its deadline, not the lookup")
                names.answer_again()
                deadline = time.monotonic() + 30
                while get("/?q=lamp")[0] != 200:
                    self.assertLess(time.monotonic(), deadline, "pages whole again once the name server answers")
                    time.sleep(0.2)
                self.assertIsNone(storefront.process.poll(), "the server lives")
            finally:
                storefront.stop()
                names.close()

    def test_sqlite_write_locked_by_another_process_for_3_seconds(self):
        with tempfile.TemporaryDirectory(prefix="tessera-stall-") as folder:
            storefront = Storefront(folder)
            holder = {}

            def stall():
                # Another process (here this one, through Python's sqlite3) takes the write lock.
                connection = sqlite3.connect(storefront.data / "storefront.sqlite", isolation_level=None, timeout=5)
                connection.execute("BEGIN IMMEDIATE")
                holder["connection"] = connection

            def resume():
                connection = holder.pop("connection", None)
                if connection:
                    connection.execute("COMMIT")
                    connection.close()

            try:
                # Reads never wait for a writer (WAL): pages stay 200; writes wait for the
                # lock, then answer 503 (or get it in time).
                self.run_stall(storefront, stall, resume, needs_database_statuses=[200, 503])
            finally:
                resume()
                storefront.stop()


if __name__ == "__main__":
    unittest.main()

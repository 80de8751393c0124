"""The order e-mail (`make mail-test`, part of `make test`): checkout writes the confirmation to an
outbox in the order's transaction, and a worker sends it to a real SMTP server on loopback
(aiosmtpd). What must hold:

- one mail per order, to the buyer, with a text and an HTML part and the order's Message-ID;
- `kill -9` after the order is committed and before its mail is sent loses no mail, and the
  restarted server sends it once;
- an SMTP server that refuses for 10 s delays the mail but loses nothing and sends it once;
- on PostgreSQL, two instances share one outbox and send each mail once (FOR UPDATE SKIP LOCKED);
- without SMTP_URL, mail is written to DATA_DIR/mail;
- a malformed SMTP_URL or MAIL_FROM stops the start with a message that names it.
"""
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/Support"))
sys.path.insert(0, str(Path(__file__).parent))
from shopper import Shopper  # noqa: E402
from smtp_server import SMTPServer  # noqa: E402

BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/debug/storefront"))
DATABASE_URL = os.environ.get("TESSERA_POSTGRES_URL")
SECRET = "mail-" + "m" * 40
SENDER = "Tessera Shop <orders@shop.example>"


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Storefront:
    def __init__(self, data, **environment):
        self.data = Path(data)
        self.data.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = self.data / f"storefront-{self.port}.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [str(BINARY)], cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "DATA_DIR": str(self.data), "SESSION_SECRET": SECRET,
                 "MAIL_FROM": SENDER, "LOG_LEVEL": "info", "DEMO_PHOTOS": "on-request", **environment})
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise AssertionError("the storefront did not start: " + self.log_path.read_text()[-2000:])
            time.sleep(0.2)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.log.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        self.log.close()

    def logged(self):
        return self.log_path.read_text(errors="replace")


def buyer(base):
    shopper = Shopper(base)
    shopper.email = f"buyer-{uuid.uuid4().hex[:10]}@example.com"
    status, _, body = shopper.post("/register", "/register", {"name": "Mail Buyer", "email": shopper.email, "password": "long-enough-1"})
    assert status == 303, f"registration answered {status}: {body[:300]}"
    return shopper


def place_order(shopper, product_id=3):
    status, _, _ = shopper.post(f"/products/{product_id}", "/cart/items", {"productID": str(product_id), "quantity": "1"})
    assert status == 303, f"adding to the cart answered {status}"
    status, location, body = shopper.post("/checkout", "/checkout", {})
    assert status == 303 and re.fullmatch(r"/orders/\d+", location or ""), f"checkout answered {status} {location}: {body[:300]}"
    return int(location.rsplit("/", 1)[1])


def mails_for(mailbox, order_id):
    return [m for m in mailbox.received() if re.match(rf"<order-{order_id}\.\d+@shop\.example>$", m[2]["Message-ID"] or "")]


def wait_for_mail(mailbox, order_id, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if mails_for(mailbox, order_id):
            return
        time.sleep(0.1)
    raise AssertionError(f"no mail for order {order_id} within {timeout} s")


class OrderMailOnSQLiteTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(prefix="tessera-mail-")
        self.smtp_port = free_port()
        self.smtp = None
        self.storefront = None

    def tearDown(self):
        if self.storefront:
            self.storefront.stop()
        if self.smtp:
            self.smtp.stop()
        self.folder.cleanup()

    def start(self, **environment):
        self.storefront = Storefront(Path(self.folder.name) / "data", SMTP_URL=f"smtp://127.0.0.1:{self.smtp_port}", **environment)
        return self.storefront

    def outbox(self):
        with sqlite3.connect(Path(self.folder.name) / "data/storefront.sqlite") as database:
            return database.execute("SELECT message_id, attempts, delivered_at IS NOT NULL FROM tessera_mail_outbox").fetchall()

    def failed_attempt_recorded(self):
        with sqlite3.connect(Path(self.folder.name) / "data/storefront.sqlite") as database:
            return database.execute("SELECT count(*) FROM tessera_mail_outbox WHERE last_error IS NOT NULL").fetchone()[0] > 0

    def test_one_mail_per_order_with_both_parts(self):
        self.smtp = SMTPServer(self.smtp_port)
        storefront = self.start()
        shopper = buyer(storefront.base)
        order = place_order(shopper)
        wait_for_mail(self.smtp.mailbox, order, timeout=10)
        time.sleep(2)  # a second mail would come within the worker's next polls
        [(sender, recipients, message)] = mails_for(self.smtp.mailbox, order)
        self.assertEqual(sender, "orders@shop.example")
        self.assertEqual(recipients, [shopper.email])
        self.assertEqual(message["Subject"], f"Order #{order} is placed")
        self.assertIn(shopper.email, message["To"])
        self.assertEqual(message.get_content_type(), "multipart/alternative")
        text = message.get_body(preferencelist=("plain",)).get_content()
        html = message.get_body(preferencelist=("html",)).get_content()
        self.assertIn(f"Order #{order} is placed", text)
        self.assertIn(f"{storefront.base}/orders/{order}", text)
        self.assertIn(f'<a href="{storefront.base}/orders/{order}">', html)
        self.assertNotRegex(text, r"<[a-z/!]", "the text part has no markup")
        self.assertEqual(len(self.smtp.mailbox.received()), 1)

    def test_a_kill_between_the_commit_and_the_send_loses_no_mail_and_sends_it_once(self):
        # No SMTP server yet: the order commits, its mail cannot go.
        storefront = self.start()
        order = place_order(buyer(storefront.base))
        # Killed once the failed attempt is written down (its error recorded). Killed while the
        # worker still held the row, the mail would wait for the worker's lease (120 s) to run
        # out before another worker took it: delayed, not lost, but past this test's patience.
        deadline = time.monotonic() + 10
        while not self.failed_attempt_recorded() and time.monotonic() < deadline:
            time.sleep(0.1)
        [(message_id, attempts, delivered)] = self.outbox()
        self.assertGreaterEqual(attempts, 1, "the worker tried to send")
        self.assertTrue(self.failed_attempt_recorded(), "the failed attempt is recorded")
        self.assertFalse(delivered)
        storefront.kill()
        self.smtp = SMTPServer(self.smtp_port)
        self.start()
        wait_for_mail(self.smtp.mailbox, order, timeout=20)
        time.sleep(2)
        self.assertEqual(len(mails_for(self.smtp.mailbox, order)), 1)
        self.assertEqual(self.smtp.mailbox.received()[0][2]["Message-ID"], f"<{message_id}>")
        self.assertEqual([delivered for _, _, delivered in self.outbox()], [1])

    def test_a_server_that_refuses_for_10_seconds_delays_the_mail_and_loses_nothing(self):
        self.smtp = SMTPServer(self.smtp_port)
        self.smtp.mailbox.refuse_for(10)
        refused_from = time.monotonic()
        storefront = self.start()
        order = place_order(buyer(storefront.base))
        wait_for_mail(self.smtp.mailbox, order, timeout=40)
        self.assertGreaterEqual(time.monotonic() - refused_from, 10)
        self.assertGreaterEqual(self.smtp.mailbox.refusals, 2, "it was refused, and tried again")
        time.sleep(2)
        self.assertEqual(len(mails_for(self.smtp.mailbox, order)), 1)
        self.assertIn("will retry", storefront.logged())

    def test_without_smtp_url_mail_is_written_to_the_data_folder(self):
        data = Path(self.folder.name) / "data"
        self.storefront = Storefront(data)
        order = place_order(buyer(self.storefront.base))
        deadline = time.monotonic() + 10
        while not list((data / "mail").glob(f"order-{order}.*.eml")) and time.monotonic() < deadline:
            time.sleep(0.1)
        [file] = list((data / "mail").glob(f"order-{order}.*.eml"))
        import email
        import email.policy
        message = email.message_from_bytes(file.read_bytes(), policy=email.policy.default)
        self.assertEqual(message["Subject"], f"Order #{order} is placed")

    def test_a_buyer_who_chose_german_gets_the_mail_in_german(self):
        data = Path(self.folder.name) / "data"
        self.storefront = Storefront(data)
        shopper = buyer(self.storefront.base)
        shopper.get("/?lang=de")
        order = place_order(shopper)
        deadline = time.monotonic() + 10
        while not list((data / "mail").glob(f"order-{order}.*.eml")) and time.monotonic() < deadline:
            time.sleep(0.1)
        [file] = list((data / "mail").glob(f"order-{order}.*.eml"))
        import email
        import email.policy
        message = email.message_from_bytes(file.read_bytes(), policy=email.policy.default)
        self.assertEqual(message["Subject"], f"Bestellung Nr. {order} ist aufgegeben")
        self.assertEqual(message["Content-Language"], "de")
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        self.assertIn("Vielen Dank, Mail Buyer.", text)
        self.assertIn("Summe:", text)
        self.assertRegex(text, r"\d+,\d\d\s\$", "prices as German writes them")
        self.assertIn('<html lang="de">', html)
        self.assertIn("ansehen und bezahlen", html)

    def test_a_malformed_smtp_url_or_sender_stops_the_start_and_says_which(self):
        data = Path(self.folder.name) / "data"
        for variable, value in [("SMTP_URL", "https://mail.example.com"), ("SMTP_URL", "smtp://"), ("MAIL_FROM", "not an address\r\nBcc: x@y.z")]:
            with self.subTest(variable=variable, value=value):
                run = subprocess.run([str(BINARY)], cwd=ROOT, capture_output=True, text=True, timeout=60,
                                     env={**os.environ, "PORT": "0", "DATA_DIR": str(data), variable: value})
                self.assertEqual(run.returncode, 64, run.stderr)
                self.assertIn(variable, run.stderr)


class OrderMailOnPostgreSQLTest(unittest.TestCase):
    def test_two_instances_share_one_outbox_and_send_each_mail_once(self):
        self.assertIsNotNone(DATABASE_URL, "needs TESSERA_POSTGRES_URL: run it with scripts/mail-test.sh")
        with tempfile.TemporaryDirectory(prefix="tessera-mail-pg-") as folder:
            smtp = SMTPServer(free_port())
            # A backlog first (the server refuses), so both workers race for the same mails.
            smtp.mailbox.refuse_for(4)
            environment = {"DATABASE_URL": DATABASE_URL, "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}"}
            instances = [Storefront(Path(folder) / name, **environment) for name in ("one", "two")]
            try:
                shoppers = [buyer(instances[number % 2].base) for number in range(12)]
                with ThreadPoolExecutor(6) as pool:
                    orders = list(pool.map(place_order, shoppers))
                deadline = time.monotonic() + 40
                while len(smtp.mailbox.received()) < len(orders) and time.monotonic() < deadline:
                    time.sleep(0.2)
                time.sleep(3)
                ids = [message["Message-ID"] for _, _, message in smtp.mailbox.received()]
                self.assertEqual(len(ids), len(set(ids)), "no mail was sent twice")
                for order in orders:
                    self.assertEqual(len(mails_for(smtp.mailbox, order)), 1, f"order {order}")
                senders = [instance for instance in instances if "mail sent" in instance.logged()]
                print(f"\n  {len(ids)} mails, sent by {len(senders)} of 2 instances", file=sys.stderr)
            finally:
                for instance in instances:
                    instance.stop()
                smtp.stop()


if __name__ == "__main__":
    unittest.main()

"""The order e-mail (`make mail-test`, part of `make test`): checkout writes the confirmation to an
outbox in the order's transaction, and a worker sends it to a real SMTP server on loopback
(aiosmtpd). What must hold:

- one mail per order, to the buyer, with a text and an HTML part and the order's Message-ID;
- `kill -9` after the order is committed and before its mail is sent loses no mail, and the
  restarted server sends it once;
- an SMTP server that refuses for 10 s delays the mail but loses nothing and sends it once;
- on PostgreSQL, two instances share one outbox and send each mail once (FOR UPDATE SKIP LOCKED);
- over STARTTLS and over TLS from the first byte (smtps), the relay's certificate from a test CA
  (SMTP_CA_FILE) is verified and the password goes encrypted; a certificate from another CA is
  refused with a log line that says so, and the mail waits, then goes once the relay is mended;
- without SMTP_URL, mail is written to DATA_DIR/mail;
- a malformed SMTP_URL or MAIL_FROM stops the start with a message that names it;
- registration and mail agree on every kind of address: what the form takes is mailed, an
  address outside ASCII is refused at the form, a name loses its control characters;
- an order whose mail cannot be made, or whose recipient the server refuses for good, becomes a
  dead letter (recorded, logged, counted, never retried) that staff see at /admin/mail, mend
  and send again, or discard; on SQLite and on PostgreSQL.
"""
import atexit
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
import uuid
from html import escape as html_escape
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/Support"))
sys.path.insert(0, str(Path(__file__).parent))
from shopper import Shopper, html_unescape  # noqa: E402
from ports import free_port  # noqa: E402
from smtp_server import SMTPServer  # noqa: E402

BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/test/release/storefront"))
DATABASE_URL = os.environ.get("TESSERA_POSTGRES_URL")
SECRET = "mail-" + "m" * 40
SENDER = "Tessera Shop <orders@shop.example>"


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
                 "MAIL_FROM": SENDER, "LOG_LEVEL": "info", "DATABASE_TIMEOUT": "60", "PASSWORD_HASH_ROUNDS": "1000",
                 "REGISTRATION_LIMIT": "100000/hour", "CHECKOUT_LIMIT": "100000/minute", **environment})
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


_test_ca = []


def test_ca():
    """A folder with a throwaway CA and certificates it signs (scripts/test-ca.sh), made once."""
    if not _test_ca:
        folder = tempfile.mkdtemp(prefix="tessera-mail-ca-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        subprocess.run([str(ROOT / "scripts/test-ca.sh"), folder], check=True, stdout=subprocess.DEVNULL)
        _test_ca.append(folder)
    return _test_ca[0]


def buyer(base, email=None, name="Mail Buyer"):
    shopper = Shopper(base)
    shopper.email = email or f"buyer-{uuid.uuid4().hex[:10]}@example.com"
    status, _, body = shopper.post("/register", "/register", {"name": name, "email": shopper.email, "password": "long-enough-1"})
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


STAFF = ("sam@example.com", "sam-staff-2026")


def metric(port, name, **labels):
    """The value of one Prometheus sample, 0 when it is not there yet."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    for line in text.splitlines():
        if line.startswith(f"{name}{{") and all(f'{key}="{value}"' in line for key, value in labels.items()) or line.startswith(f"{name} ") and not wanted:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s")
        time.sleep(0.1)


class MailRules:
    """The address and dead-letter rules, on whichever database a subclass names: it provides
    `database` (the storefront's environment for it), set_email(old, new) and dead_letters()."""

    database = {}
    # Each order of these tests is of another product in stock: on PostgreSQL they share one
    # database's stock with the other tests.
    products = iter([5, 6, 12, 13, 15, 20, 22, 23, 29, 30, 31, 36, 37, 38, 39, 4, 11, 19])

    def place(self, shopper):
        return place_order(shopper, product_id=next(self.products))

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
        self.storefront = Storefront(Path(self.folder.name) / "data", **{"SMTP_URL": f"smtp://127.0.0.1:{self.smtp_port}",
                                                                         **self.database, **environment})
        return self.storefront

    def test_registration_and_mail_agree_on_every_kind_of_address(self):
        self.smtp = SMTPServer(self.smtp_port)
        storefront = self.start()
        # Outside ASCII: refused where it enters, with a message that says why, and no account made.
        for address in ["jürgen@example.de", "anna@bücher.example", "用户@例子.example"]:
            status, _, body = Shopper(storefront.base).post("/register", "/register",
                                                           {"name": "Intl", "email": address, "password": "long-enough-1"})
            self.assertEqual(status, 422, address)
            self.assertIn("Latin letters", html_unescape(body), address)
        # What the form takes, the mail reaches; a name loses its control characters where it enters.
        for address, name, shown in [(f"o'brien+{uuid.uuid4().hex[:6]}@mail.example.co.uk", "Ó Briain", "Ó Briain"),
                                     (f"Upper.{uuid.uuid4().hex[:6]}@Example.COM", "Ada\tLove\x07lace\x85\r\nBcc: x@y.z", "AdaLovelaceBcc: x@y.z")]:
            shopper = buyer(storefront.base, email=address, name=name)
            order = self.place(shopper)
            wait_for_mail(self.smtp.mailbox, order, timeout=10)
            [(_, recipients, message)] = mails_for(self.smtp.mailbox, order)
            self.assertEqual(recipients, [address.lower()])
            self.assertEqual(message["To"].addresses[0].display_name, shown)
            self.assertEqual(message["Bcc"], None)
            _, account = shopper.get("/account")
            self.assertIn(html_escape(shown), account, "the account keeps the cleaned name")

    def test_an_address_mail_cannot_reach_is_a_dead_letter_that_staff_mend_and_send_again(self):
        self.smtp = SMTPServer(self.smtp_port)
        metrics_port = free_port()
        storefront = self.start(METRICS_PORT=str(metrics_port))
        shopper = buyer(storefront.base)
        # An account from before the address rule: the shop keeps working for it.
        older = f"jürgen.{uuid.uuid4().hex[:6]}@example.de"
        self.set_email(shopper.email, older)
        order = self.place(shopper)
        _, placed = shopper.get(f"/orders/{order}")
        self.assertIn(f"No confirmation e-mail can be sent to {html_escape(older)}", placed, "the buyer is told at once")
        wait_until(lambda: self.dead_letters(), 10, "a dead letter")
        [(message_id, reason)] = self.dead_letters()
        self.assertTrue(message_id.startswith(f"order-{order}."), message_id)
        self.assertIn("ASCII", reason)
        self.assertIn("mail is a dead letter", storefront.logged())
        self.assertEqual(metric(metrics_port, "tessera_mail_dead_letters_total", cause="unsendable"), 1)
        time.sleep(2)
        self.assertEqual(mails_for(self.smtp.mailbox, order), [], "nothing was sent")

        staff = Shopper(storefront.base)
        self.assertEqual(staff.sign_in(*STAFF), 303)
        _, orders_page = staff.get("/admin/orders")
        self.assertIn('href="/admin/mail"', orders_page, "the back office's navigation links the page")
        status, page = staff.get("/admin/mail")
        self.assertEqual(status, 200)
        self.assertIn(f'href="/admin/orders/{order}">Order #{order}</a>', page)
        self.assertIn("ASCII", html_unescape(page))
        self.assertIn(html_escape(older), page, "the address it was for")
        letter = re.search(r'data-dead-letter-id="(\d+)"', page).group(1)
        # Mended to an address mail cannot reach either: the same rule as registration refuses it.
        status, _, body = staff.post("/admin/mail", f"/admin/mail/{letter}/resend", {"email": "still.jürgen@example.de"})
        self.assertEqual(status, 422)
        self.assertIn("Latin letters", html_unescape(body))
        mended = f"mended-{uuid.uuid4().hex[:6]}@example.com"
        status, location, _ = staff.post("/admin/mail", f"/admin/mail/{letter}/resend", {"email": mended})
        self.assertEqual((status, location), (303, "/admin/mail"))
        wait_for_mail(self.smtp.mailbox, order, timeout=10)
        [(_, recipients, message)] = mails_for(self.smtp.mailbox, order)
        self.assertEqual(recipients, [mended])
        self.assertEqual(message["Message-ID"], f"<{message_id}>", "the same message, made again")
        self.assertEqual(self.dead_letters(), [])
        _, page = staff.get("/admin/mail")
        self.assertIn("No unsent mail.", page)
        self.assertEqual(Shopper(storefront.base).sign_in(mended, "long-enough-1"), 303, "the account has the mended address")
        # A second click on the same letter finds it gone, and sends nothing more.
        status, location, _ = staff.post("/admin/orders", f"/admin/mail/{letter}/resend", {"email": mended})
        self.assertEqual((status, location), (303, "/admin/mail"))
        time.sleep(2)
        self.assertEqual(len(mails_for(self.smtp.mailbox, order)), 1)

    def test_a_recipient_the_server_refuses_is_a_dead_letter_never_retried_and_staff_discard_or_resend(self):
        self.smtp = SMTPServer(self.smtp_port)
        self.smtp.mailbox.unknown_users = ("nobody-",)
        metrics_port = free_port()
        storefront = self.start(METRICS_PORT=str(metrics_port))
        orders = [self.place(buyer(storefront.base, email=f"nobody-{uuid.uuid4().hex[:6]}@example.com")) for _ in range(2)]
        wait_until(lambda: len(self.dead_letters()) == 2, 10, "two dead letters")
        self.assertTrue(all("550" in reason for _, reason in self.dead_letters()))
        time.sleep(3)  # the worker polls every second: a retry would have come
        self.assertEqual(self.smtp.mailbox.recipient_refusals, 2, "refused for good: each tried once")
        self.assertEqual(metric(metrics_port, "tessera_mail_dead_letters_total", cause="refused"), 2)
        staff = Shopper(storefront.base)
        self.assertEqual(staff.sign_in(*STAFF), 303)
        _, page = staff.get("/admin/mail")
        self.assertIn(f"Order #{orders[0]}", page)
        self.assertIn(f"Order #{orders[1]}", page)
        first = re.search(rf'data-dead-letter-id="(\d+)">\s*<h2><a href="/admin/orders/{orders[0]}"', page).group(1)
        status, location, _ = staff.post("/admin/mail", f"/admin/mail/{first}/discard", {})
        self.assertEqual((status, location), (303, "/admin/mail"))
        self.assertEqual(len(self.dead_letters()), 1)
        # The mailbox exists now: Send all again sends what is left, to the address the account has.
        self.smtp.mailbox.unknown_users = ()
        status, location, _ = staff.post("/admin/mail", "/admin/mail/resend", {})
        self.assertEqual((status, location), (303, "/admin/mail"))
        wait_for_mail(self.smtp.mailbox, orders[1], timeout=10)
        self.assertEqual(self.dead_letters(), [])
        _, page = staff.get("/admin/mail")
        self.assertIn("No unsent mail.", page)
        time.sleep(2)
        self.assertEqual(mails_for(self.smtp.mailbox, orders[0]), [], "the discarded one is never sent")

    def test_a_5xx_to_the_sender_is_the_settings_fault_and_is_retried(self):
        self.smtp = SMTPServer(self.smtp_port)
        self.smtp.mailbox.refuse_for(600, code="550 5.7.1 Relaying denied")
        storefront = self.start()
        order = self.place(buyer(storefront.base))
        wait_until(lambda: self.smtp.mailbox.refusals >= 2, 20, "two refused attempts")
        self.assertEqual(self.dead_letters(), [], "a 5xx to MAIL FROM buries nothing")
        self.smtp.mailbox.refuse_for(0)  # the relay takes the sender again
        wait_for_mail(self.smtp.mailbox, order, timeout=20)
        self.assertEqual(self.dead_letters(), [], "not this mail's fault: no dead letter")
        self.assertIn("will retry", storefront.logged())


class OrderMailOnSQLiteTest(MailRules, unittest.TestCase):

    def outbox(self):
        with sqlite3.connect(Path(self.folder.name) / "data/storefront.sqlite") as database:
            return database.execute("SELECT message_id, attempts, delivered_at IS NOT NULL FROM tessera_mail_outbox").fetchall()

    def sqlite(self, sql, *arguments):
        with sqlite3.connect(Path(self.folder.name) / "data/storefront.sqlite") as database:
            return database.execute(sql, arguments).fetchall()

    def set_email(self, old, new):
        self.sqlite("UPDATE user SET email = ? WHERE email = ?", new, old)

    def dead_letters(self):
        return self.sqlite("SELECT message_id, last_error FROM tessera_mail_outbox WHERE dead_at IS NOT NULL AND discarded_at IS NULL")

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

    def test_mail_goes_over_starttls_and_over_tls_with_the_password_only_encrypted(self):
        ca = test_ca()
        for tls, url in (("starttls", "smtp://shop:secret@127.0.0.1:{port}?starttls=required"), ("implicit", "smtps://shop:secret@127.0.0.1:{port}")):
            with self.subTest(tls=tls):
                self.smtp_port = free_port()
                self.smtp = SMTPServer(self.smtp_port, tls=tls, certificate=(ca, "server"))
                try:
                    storefront = self.start(SMTP_URL=url.format(port=self.smtp_port), SMTP_CA_FILE=f"{ca}/ca.crt")
                    order = place_order(buyer(storefront.base))
                    try:
                        wait_for_mail(self.smtp.mailbox, order, timeout=20)
                    except AssertionError as missing:
                        raise AssertionError(f"{missing}; the storefront logged: {storefront.logged()[-1500:]}") from None
                    self.assertEqual(self.smtp.mailbox.links, [{"tls": True, "login": b"shop"}])
                finally:
                    self.storefront.stop()
                    self.smtp.stop()
                    self.storefront = self.smtp = None

    def test_a_certificate_from_another_authority_is_refused_and_the_mail_waits(self):
        ca = test_ca()
        # What a machine in the middle would show: a certificate for the right name, from a CA
        # the shop does not trust.
        self.smtp = SMTPServer(self.smtp_port, tls="starttls", certificate=(ca, "stranger"))
        storefront = self.start(SMTP_URL=f"smtp://shop:secret@127.0.0.1:{self.smtp_port}", SMTP_CA_FILE=f"{ca}/ca.crt")
        order = place_order(buyer(storefront.base))
        wait_until(lambda: "certificate was refused: unable to get local issuer certificate" in storefront.logged(), 20,
                   "a log line that says the certificate was refused")
        self.assertEqual(self.smtp.mailbox.received(), [], "nothing went to the stranger")
        self.smtp.stop()
        self.smtp = SMTPServer(self.smtp_port, tls="starttls", certificate=(ca, "server"))
        wait_for_mail(self.smtp.mailbox, order, timeout=60)
        time.sleep(2)
        self.assertEqual(len(mails_for(self.smtp.mailbox, order)), 1)
        self.assertEqual(self.smtp.mailbox.links, [{"tls": True, "login": b"shop"}])

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


def psql(sql):
    run = subprocess.run(["psql", DATABASE_URL, "-AtX", "-v", "ON_ERROR_STOP=1", "-F", "\t", "-c", sql], capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    return [tuple(line.split("\t")) for line in run.stdout.splitlines() if line]


def sql_text(value):
    return "'" + value.replace("'", "''") + "'"


class OrderMailOnPostgreSQLTest(MailRules, unittest.TestCase):
    """The address and dead-letter rules on PostgreSQL. The tests share the database, so each
    starts with the dead letters of the ones before it discarded."""

    database = {"DATABASE_URL": DATABASE_URL} if DATABASE_URL else {}

    def setUp(self):
        self.assertIsNotNone(DATABASE_URL, "needs TESSERA_POSTGRES_URL: run it with scripts/mail-test.sh")
        super().setUp()
        if psql("SELECT to_regclass('tessera_mail_outbox') IS NOT NULL")[0][0] == "t":
            psql("UPDATE tessera_mail_outbox SET discarded_at = now() WHERE dead_at IS NOT NULL AND discarded_at IS NULL")

    def set_email(self, old, new):
        psql(f"UPDATE shop_user SET email = {sql_text(new)} WHERE email = {sql_text(old)}")

    def dead_letters(self):
        return psql("SELECT message_id, last_error FROM tessera_mail_outbox WHERE dead_at IS NOT NULL AND discarded_at IS NULL")

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

"""A real SMTP server on loopback for the mail tests: aiosmtpd (PyPI), which keeps every message
it accepts, and can be told to refuse for a while (451 to MAIL FROM, as a busy server does) or
to refuse some recipients for good (550 to RCPT TO, as for an unknown user). With a certificate
it speaks TLS, by STARTTLS (required, as hosted relays do) or from the first byte, and then
takes AUTH PLAIN, over TLS only."""
import email
import email.policy
import ssl
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Mailbox:
    """What the server accepted, and whether it refuses now."""

    def __init__(self):
        self.lock = threading.Lock()
        self.messages = []
        self.refuse_until = 0.0
        self.refusal = "451 4.3.2 Try again later"
        self.refusals = 0
        self.unknown_users = ()
        self.recipient_refusals = 0
        # For each message accepted: whether it came over TLS, and who signed in.
        self.links = []

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if time.monotonic() < self.refuse_until:
            with self.lock:
                self.refusals += 1
            return self.refusal
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if any(address.startswith(user) for user in self.unknown_users):
            with self.lock:
                self.recipient_refusals += 1
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), message))
            self.links.append({"tls": server.transport.get_extra_info("ssl_object") is not None, "login": session.auth_data.login if session.auth_data else None})
        return "250 Message accepted for delivery"

    def received(self):
        with self.lock:
            return list(self.messages)

    def refuse_for(self, seconds, code="451 4.3.2 Try again later"):
        self.refusal = code
        self.refuse_until = time.monotonic() + seconds


def accept_shop_login(server, session, envelope, mechanism, auth_data):
    """The relay's one account: shop, with the password secret."""
    return AuthResult(success=auth_data.login == b"shop" and auth_data.password == b"secret", auth_data=auth_data)


class SMTPServer:
    """tls: None (plain), "starttls" (required before any mail) or "implicit" (smtps);
    certificate: the folder and name of a scripts/test-ca.sh pair, such as (folder, "server")."""

    def __init__(self, port, tls=None, certificate=None):
        self.mailbox = Mailbox()
        options = {}
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            folder, name = certificate
            context.load_cert_chain(f"{folder}/{name}.crt", f"{folder}/{name}.key")
            if tls == "starttls":
                options = {"authenticator": accept_shop_login, "tls_context": context, "require_starttls": True, "auth_require_tls": True}
            else:
                # Encrypted from the first byte; aiosmtpd's auth_require_tls only knows STARTTLS.
                options = {"authenticator": accept_shop_login, "ssl_context": context, "auth_require_tls": False}
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=port, **options)
        self.controller.start()
        self.port = port

    def stop(self):
        self.controller.stop()

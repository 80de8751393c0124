"""A shopper over plain HTTP, for the tests that drive a running storefront (the container test,
the scale-out test): the session cookie, and the form token of each page, as a browser keeps them.
"""
import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Shopper:
    """A browser's worth of state: the session cookie, and the form token of each page."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirects())

    def get(self, path):
        try:
            with self.opener.open(self.base + path, timeout=10) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as answer:  # 303 (not followed), 4xx and 5xx land here
            return answer.code, answer.read().decode()

    def post(self, page, action, fields):
        """Fills the form on `page` with `fields` and its token, and sends it to `action`."""
        _, html = self.get(page)
        token = re.search(r'name="_csrf" value="([^"]+)"', html).group(1)
        data = urllib.parse.urlencode({**fields, "_csrf": token}).encode()
        try:
            with self.opener.open(self.base + action, data=data, timeout=30) as reply:
                return reply.status, reply.headers.get("Location"), reply.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers.get("Location"), answer.read().decode()

    def sign_in(self, email, password):
        status, _, _ = self.post("/login", "/login", {"email": email, "password": password, "next": "/"})
        return status

"""A shopper over plain HTTP, for the tests that drive a running storefront (the container test,
the scale-out test): the session cookie, as a browser keeps it, and each form's hidden fields.
"""
import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def hidden_fields(html, action):
    """The hidden fields of the first form on the page that posts to `action`; none without one."""
    form = re.search(r'<form\b[^>]*\baction="' + re.escape(action) + r'"[^>]*>(.*?)</form>', html, re.S)
    if form is None:
        return {}
    fields = {}
    for tag in re.findall(r'<input\b[^>]*>', form.group(1)):
        if 'type="hidden"' in tag:
            name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
            if name:
                fields[html_unescape(name.group(1))] = html_unescape(value.group(1) if value else "")
    return fields


def html_unescape(text):
    import html
    return html.unescape(text)


class Shopper:
    """A browser's worth of state: the session cookie."""

    def __init__(self, base, address=None):
        """`address`: the client address a proxy in front reports (`X-Forwarded-For`), for a
        shopper of their own behind nginx; by default the connection's."""
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirects())
        if address:
            self.opener.addheaders.append(("X-Forwarded-For", address))

    def get(self, path):
        try:
            with self.opener.open(self.base + path, timeout=10) as reply:
                return reply.status, reply.read().decode()
        except urllib.error.HTTPError as answer:  # 303 (not followed), 4xx and 5xx land here
            return answer.code, answer.read().decode()

    def post(self, page, action, fields):
        """Fills the form on `page` that posts to `action` with `fields`, and sends it with its
        hidden fields, as a browser does."""
        _, html = self.get(page)
        data = urllib.parse.urlencode({**hidden_fields(html, action), **fields}).encode()
        try:
            with self.opener.open(self.base + action, data=data, timeout=30) as reply:
                return reply.status, reply.headers.get("Location"), reply.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers.get("Location"), answer.read().decode()

    def sign_in(self, email, password):
        status, _, _ = self.post("/login", "/login", {"email": email, "password": password, "next": "/"})
        return status

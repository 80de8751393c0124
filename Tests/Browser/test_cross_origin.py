"""Forms carry no token (decision 0035): where Chromium says a post comes from decides.

A page on another site (another origin on loopback: `localhost` on a port of its own, against
the shop on `127.0.0.1`) holds a form that posts to the shop's cart. Chromium sends it with
`Sec-Fetch-Site: cross-site`; the shop answers its 403 page, in the layout, and nothing reaches
the cart. The same form on the shop's own product page, sent from there, adds to the cart, with
JavaScript on (this class) and off (test_no_javascript.py buys everything that way).
"""
import http.server
import threading
import unittest

from harness import BrowserTest, free_port


class FormFromAnotherSite(BrowserTest):
    def test_a_form_on_another_site_is_refused_and_the_shops_own_works(self):
        shop = self.base

        class Elsewhere(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                page = (f'<!DOCTYPE html><html lang="en"><head><title>Elsewhere</title></head><body>'
                        f'<form method="post" action="{shop}/cart/items">'
                        f'<input type="hidden" name="productID" value="2"><input type="hidden" name="quantity" value="3">'
                        f'<button type="submit">Win a prize</button></form></body></html>').encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args):
                pass

        port = free_port()
        elsewhere = http.server.ThreadingHTTPServer(("127.0.0.1", port), Elsewhere)
        threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
        try:
            self.browser.get(f"http://localhost:{port}/")
            self.assertEqual(self.browser.title, "Elsewhere")
            self.submit("button[type=submit]")
            self.assertTrue(self.path().startswith("/cart/items"), self.browser.current_url)
            self.assertIn("403", self.browser.title)
            self.assertIn("did not come from this site", self.find("main").text)
            self.open("/cart")
            self.assertFalse(self.find_all("[data-product-id='2']"), "nothing reached the cart")
        finally:
            elsewhere.shutdown()
            elsewhere.server_close()

        # The shop's own form: the same post, sent from its page, is taken.
        self.open("/products/2")
        self.type("input[name=quantity]", "3")
        self.submit("form[action='/cart/items'] button[type=submit]")
        self.open("/cart")
        self.assertTrue(self.find_all("[data-product-id='2']"), "the shop's own form filled the cart")


if __name__ == "__main__":
    unittest.main(verbosity=2)

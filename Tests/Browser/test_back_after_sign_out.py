"""After signing out, the browser's Back button must not bring the shopper's pages back.

On a shared computer the next person at the keyboard presses Back after the last one signed out.
If the browser shows its stored copies of the pages seen while signed in, they see the previous
shopper's name and orders without any session. The storefront prevents it by sending
`Cache-Control: private, no-store` with every page made for a signed-in user: the browser keeps
no copy (and Chromium does not restore such a page from its back/forward cache once the cookies
changed), so Back asks the server again, which now answers as to anybody signed out.

The test walks Back through every page seen signed in and lists each one that still shows her
name, her orders or the signed-in navigation.
"""
import unittest

from harness import DEMO_NAME, BrowserTest


class BackAfterSignOut(BrowserTest):

    def private_data_shown(self):
        """What on the page on screen belongs to the signed-in shopper."""
        found = []
        if self.find_all("[data-signed-in-as]"):
            found.append("[data-signed-in-as]")
        orders = self.find_all("[data-order-id]")
        if orders:
            found.append(f"{len(orders)} [data-order-id]")
        if DEMO_NAME in self.browser.page_source:
            found.append(f"the name {DEMO_NAME!r}")
        return found

    def test_back_after_sign_out_shows_nothing_private(self):
        self.sign_in()
        self.open("/orders")
        self.assertTrue(self.find_all("[data-order-id]"), "the order list shows her orders")
        self.open("/orders/4")
        self.assertIn("[data-signed-in-as]", self.private_data_shown(), "signed in, the page shows who she is")
        self.sign_out()
        self.assertEqual(self.private_data_shown(), [], "the page after signing out")

        # History: the sign-in form, the catalogue she landed on, /orders, /orders/4, and now the
        # catalogue signed out. Back four times walks through every page she saw signed in.
        leaks = []
        for presses in range(1, 5):
            self.browser.back()
            self.wait.until(lambda browser: browser.execute_script("return document.readyState") == "complete")
            shown = self.private_data_shown()
            if shown:
                leaks.append(f"Back ×{presses} shows {self.path()} with {', '.join(shown)}")
        self.assertEqual(leaks, [], "signed out, Back must not show a signed-in page from the browser's cache")


if __name__ == "__main__":
    unittest.main(verbosity=2)

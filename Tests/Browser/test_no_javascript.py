"""The whole purchase (purchase_flow.py) in Chromium with JavaScript off.

Every page must work without /js/regions.js: it only refreshes a region in place, and forms and
links do the rest. Chrome's content setting blocks page scripts here as a shopper's settings or
an extension would, and the test first proves that regions.js really did not run: the click
listener it adds to the document, which test_purchase.py sees, is absent.

Screenshots go to SCREENSHOT_DIR as no-javascript-order-page.png and no-javascript-product-page.png.
"""
import unittest

from harness import BrowserTest
from purchase_flow import PurchaseFlow


class PurchaseWithoutJavaScript(PurchaseFlow, BrowserTest):
    javascript = False
    screenshot_prefix = "no-javascript-"

    def test_a_shopper_buys_from_start_to_finish_without_javascript(self):
        self.open("/")
        self.assertTrue(self.find_all("script[src*='regions']"), "the layout does load regions.js")
        self.assertFalse(self.regions_js_listens(), "regions.js must not have run: JavaScript is off")
        self.buy_from_start_to_finish()
        self.assertFalse(self.regions_js_listens(), "JavaScript stayed off to the end")


if __name__ == "__main__":
    unittest.main(verbosity=2)

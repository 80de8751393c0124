"""The whole purchase (purchase_flow.py) in Chromium with JavaScript on, as most shoppers have it.

Screenshots of the paid order and of the product page with its purchase go to SCREENSHOT_DIR as
order-page.png and product-page.png.
"""
import unittest

from harness import BrowserTest
from purchase_flow import PurchaseFlow


class PurchaseWithJavaScript(PurchaseFlow, BrowserTest):
    javascript = True

    def test_a_shopper_buys_from_start_to_finish(self):
        # The control for test_no_javascript.py: here the site's script does run.
        self.open("/")
        self.assertTrue(self.regions_js_listens(), "regions.js ran and listens for clicks")
        self.buy_from_start_to_finish()



class PurchaseInGerman(PurchaseFlow, BrowserTest):
    """The same purchase after choosing Deutsch in the footer: every page on the way is German."""
    javascript = True
    language = "de"
    screenshot_prefix = "de-"

    def test_a_shopper_buys_in_german(self):
        self.buy_from_start_to_finish()


if __name__ == "__main__":
    unittest.main(verbosity=2)

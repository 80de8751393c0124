"""A whole purchase, as a shopper clicks through it: register, search, add to the cart, check
out, pay, see the order turn to paid and the purchase on the product page, sign out from an error
page, and see that region vanish. No page may log an error to the browser console but the 404
page's own status.

The same clicks run with JavaScript (test_purchase.py) and without it (test_no_javascript.py):
the storefront promises that every page works without its script, which only saves page loads.
"""
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from harness import SCREENSHOTS


# What the shopper reads on the way, in each of the shop's languages.
TEXTS = {
    "en": {"all_products": "All products", "cart": "Your cart", "to_checkout": "Go to checkout",
           "checkout": "Checkout", "charged": "Thank you! We charged", "price": r"^\$\d+\.\d\d$"},
    "de": {"all_products": "Alle Produkte", "cart": "Ihr Warenkorb", "to_checkout": "Zur Kasse",
           "checkout": "Kasse", "charged": "Vielen Dank! Wir haben", "price": r"^\d+,\d\d\s\$$"},
}


class PurchaseFlow:
    """Mixed into a harness.BrowserTest; `screenshot_prefix` keeps the runs' screenshots apart,
    and `language` is the shop's language the shopper picks first with the switcher."""

    screenshot_prefix = ""
    language = "en"

    def order_status(self):
        return self.find("[data-view=OrderPage]").get_attribute("data-order-status")

    def buy_from_start_to_finish(self):
        shots = [self.screenshot_prefix + "order-page.png", self.screenshot_prefix + "product-page.png"]
        text = TEXTS[self.language]

        # Pick the language with the switcher in the footer, as a shopper would.
        self.open("/register")
        self.browser.find_element(By.CSS_SELECTOR, f"nav.languages a[hreflang={self.language}]").click()
        self.wait.until(lambda browser: self.find("html").get_attribute("lang") == self.language)

        # Register.
        self.type("#name", "Browser Shopper")
        self.type("#email", f"shopper-{uuid.uuid4().hex[:8]}@example.com")
        self.type("#password", "a-long-password")
        self.submit("[data-view=Register] button[type=submit]")
        self.wait_for_title(text["all_products"])
        self.assertEqual(self.find("[data-signed-in-as]").text, "Browser Shopper")

        # Search, then open a result.
        self.type("#q", "lamp")
        self.submit("form.search button")
        self.wait.until(EC.url_contains("q=lamp"))
        cards = self.find_all("[data-product-id]")
        self.assertGreater(len(cards), 0)
        names = [card.find_element(By.CSS_SELECTOR, "h2").text for card in cards]
        self.assertTrue(all("lamp" in name.lower() for name in names), names)
        self.assertIn("Brass Desk Lamp", names)
        self.browser.find_element(By.LINK_TEXT, "Brass Desk Lamp").click()
        self.wait_for_title("Brass Desk Lamp")
        product_url = self.browser.current_url

        # Add two to the cart; the navigation counts them.
        self.type("[data-view=AddToCart] input[name=quantity]", "2")
        self.submit("[data-view=AddToCart] button[type=submit]")
        self.wait_for_title(text["cart"])
        self.assertEqual(self.find("[data-cart-count]").get_attribute("data-cart-count"), "2")
        cart_total = self.find("[data-cart-total]").get_attribute("data-price-minor")

        # Check out: the order awaits payment, for the cart's total.
        self.assertRegex(self.find("[data-cart-total]").text, text["price"], "the total as the language writes money")
        self.browser.find_element(By.LINK_TEXT, text["to_checkout"]).click()
        self.wait_for_title(text["checkout"])
        self.submit("[data-view=Checkout] form button[type=submit]")
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-view=OrderPage]")))
        self.assertEqual(self.order_status(), "awaiting_payment")
        self.assertEqual(self.find("[data-order-total]").get_attribute("data-price-minor"), cart_total)
        order_url = self.browser.current_url

        # Pay: the order turns to paid.
        self.submit("[data-view=AwaitingPayment] form[action$='/pay'] button")
        self.wait.until(lambda browser: self.order_status() == "paid")
        self.assertIn(text["charged"], self.find(".flash").text)
        self.assertEqual(self.find("html").get_attribute("lang"), self.language)
        self.find("[data-view=AwaitingShipment]")
        self.browser.save_screenshot(str(SCREENSHOTS / shots[0]))

        # The product page now shows the purchase, linking to the order.
        self.browser.get(product_url)
        purchases = self.find("[data-region=purchases] [data-view=Purchases]")
        link = purchases.find_element(By.CSS_SELECTOR, "a")
        self.assertEqual(link.get_attribute("href"), order_url)
        self.assertEqual(purchases.find_element(By.CSS_SELECTOR, "[data-quantity]").text, "2")
        self.browser.save_screenshot(str(SCREENSHOTS / shots[1]))

        # Sign out from an error page, as a lost shopper would: the 404 page is in the site's
        # layout, knows who is signed in, and its sign-out form works.
        self.assertEqual(self.console_errors(), [], "no errors in the browser console before the 404")
        self.open("/no/such/page")
        self.wait_for_title("404")
        self.assertEqual(self.find("[data-signed-in-as]").text, "Browser Shopper")
        unexpected = [entry for entry in self.console_errors() if "404" not in entry["message"]]
        self.assertEqual(unexpected, [], "the 404 page itself is the only console error")
        self.sign_out()

        # Signed out: the purchase region is gone from the product page.
        self.browser.get(product_url)
        self.wait_for_title("Brass Desk Lamp")
        self.assertEqual(self.find_all("[data-region=purchases]"), [])
        self.assertEqual(self.find_all("[data-signed-in-as]"), [])

        self.assertEqual(self.console_errors(), [], "no errors in the browser console")
        for name in shots:
            self.assertGreater((SCREENSHOTS / name).stat().st_size, 10_000, name)

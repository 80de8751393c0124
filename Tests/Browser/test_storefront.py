"""The storefront in a real browser: headless Chromium driven through Selenium and Debian's
chromedriver. A shopper registers, searches, adds to the cart, checks out, pays, sees the order
turn to paid and the purchase on the product page, signs out, and sees that region vanish.
No page may log an error to the browser console.

Run by `make test` through scripts/browser-test.sh, which installs Chromium, chromedriver and
Selenium and passes the storefront binary in STOREFRONT_BINARY. Screenshots go to
SCREENSHOT_DIR (by default .build/browser-screenshots).
"""
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request
import uuid
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/debug/storefront"))
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", ROOT / ".build/browser-screenshots"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StorefrontInChromium(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = tempfile.mkdtemp(prefix="tessera-browser-")
        port = free_port()
        cls.base = f"http://127.0.0.1:{port}"
        env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", DATA_DIR=cls.data, LOG_LEVEL="warning")
        cls.log = open(Path(cls.data) / "storefront.log", "w")
        cls.server = subprocess.Popen([str(BINARY)], cwd=ROOT, env=env, stdout=cls.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(cls.base + "/healthz", timeout=1) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                if cls.server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the storefront did not start; see " + cls.log.name)
                time.sleep(0.1)

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # Debian's chromedriver, named explicitly so that Selenium never tries to download one.
        service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
        cls.browser = webdriver.Chrome(service=service, options=options)
        # While a form's answer loads, the old page's elements go stale or vanish: keep waiting.
        cls.wait = WebDriverWait(cls.browser, 10, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.terminate()
        code = cls.server.wait(timeout=15)
        cls.log.close()
        shutil.rmtree(cls.data, ignore_errors=True)
        assert code == 0, f"the storefront exited with {code}"

    # Helpers

    def open(self, path):
        self.browser.get(self.base + path)

    def click(self, css):
        self.browser.find_element(By.CSS_SELECTOR, css).click()

    def type(self, css, text):
        field = self.browser.find_element(By.CSS_SELECTOR, css)
        field.clear()
        field.send_keys(text)

    def wait_for_title(self, fragment):
        self.wait.until(EC.title_contains(fragment))

    def order_status(self):
        return self.browser.find_element(By.CSS_SELECTOR, "[data-view=OrderPage]").get_attribute("data-order-status")

    def console_errors(self):
        return [entry for entry in self.browser.get_log("browser") if entry["level"] == "SEVERE"]

    # The flow

    def test_a_shopper_buys_from_start_to_finish(self):
        # Register.
        self.open("/register")
        self.type("#name", "Browser Shopper")
        self.type("#email", f"shopper-{uuid.uuid4().hex[:8]}@example.com")
        self.type("#password", "a-long-password")
        self.click("[data-view=Register] button[type=submit]")
        self.wait_for_title("All products")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-signed-in-as]").text, "Browser Shopper")

        # Search, then open a result.
        self.type("#q", "lamp")
        self.click("form.search button")
        self.wait.until(EC.url_contains("q=lamp"))
        cards = self.browser.find_elements(By.CSS_SELECTOR, "[data-product-id]")
        self.assertGreater(len(cards), 0)
        names = [card.find_element(By.CSS_SELECTOR, "h2").text for card in cards]
        self.assertTrue(all("lamp" in name.lower() for name in names), names)
        self.assertIn("Brass Desk Lamp", names)
        self.browser.find_element(By.LINK_TEXT, "Brass Desk Lamp").click()
        self.wait_for_title("Brass Desk Lamp")
        product_url = self.browser.current_url

        # Add two to the cart; the navigation counts them.
        self.type("[data-view=AddToCart] input[name=quantity]", "2")
        self.click("[data-view=AddToCart] button[type=submit]")
        self.wait_for_title("Your cart")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-cart-count]").get_attribute("data-cart-count"), "2")
        cart_total = self.browser.find_element(By.CSS_SELECTOR, "[data-cart-total]").get_attribute("data-price-minor")

        # Check out: the order awaits payment, for the cart's total.
        self.browser.find_element(By.LINK_TEXT, "Go to checkout").click()
        self.wait_for_title("Checkout")
        self.click("[data-view=Checkout] form button[type=submit]")
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-view=OrderPage]")))
        self.assertEqual(self.order_status(), "awaiting_payment")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-order-total]").get_attribute("data-price-minor"), cart_total)
        order_url = self.browser.current_url

        # Pay: the order turns to paid.
        self.click("[data-view=AwaitingPayment] form[action$='/pay'] button")
        self.wait.until(lambda browser: self.order_status() == "paid")
        self.assertIn("Thank you! We charged", self.browser.find_element(By.CSS_SELECTOR, ".flash").text)
        self.browser.find_element(By.CSS_SELECTOR, "[data-view=AwaitingShipment]")
        self.browser.save_screenshot(str(SCREENSHOTS / "order-page.png"))

        # The product page now shows the purchase, linking to the order.
        self.browser.get(product_url)
        purchases = self.browser.find_element(By.CSS_SELECTOR, "[data-region=purchases] [data-view=Purchases]")
        link = purchases.find_element(By.CSS_SELECTOR, "a")
        self.assertEqual(link.get_attribute("href"), order_url)
        self.assertEqual(purchases.find_element(By.CSS_SELECTOR, "[data-quantity]").text, "2")
        self.browser.save_screenshot(str(SCREENSHOTS / "product-page.png"))

        # Sign out from an error page, as a lost shopper would: the 404 page is in the site's
        # layout, knows who is signed in, and its sign-out form works.
        self.assertEqual(self.console_errors(), [], "no errors in the browser console before the 404")
        self.open("/no/such/page")
        self.wait_for_title("404")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-signed-in-as]").text, "Browser Shopper")
        unexpected = [entry for entry in self.console_errors() if "404" not in entry["message"]]
        self.assertEqual(unexpected, [], "the 404 page itself is the only console error")
        self.click("form[action='/logout'] button")
        self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".flash")))
        self.assertIn("You are signed out.", self.browser.find_element(By.CSS_SELECTOR, ".flash").text)

        # Signed out: the purchase region is gone from the product page.
        self.browser.get(product_url)
        self.wait_for_title("Brass Desk Lamp")
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "[data-region=purchases]"), [])
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "[data-signed-in-as]"), [])

        self.assertEqual(self.console_errors(), [], "no errors in the browser console")
        for name in ("order-page.png", "product-page.png"):
            self.assertGreater((SCREENSHOTS / name).stat().st_size, 10_000, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)

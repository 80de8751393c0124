"""Live regions in Chromium, with two browser sessions: staff ship an order in one, and the
shopper's open order page in the other shows "Shipped" without a reload; another shopper buys the
last item, and an open product page shows "Sold out", after the navigation script morphed it away
and back. The back office's pages pass axe-core at both widths. No console errors anywhere.

The back office's other duties, in the same staff browser: an order confirmation that could not
be sent is on the unsent-mail page, which staff reach from the navigation, mend and send again;
a 50 MB photo, too large, uploaded by Chromium and by curl, gets the 413 page, never a reset.
"""
import re
import sqlite3
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from harness import AXE_SOURCE, BrowserTest, chromium, describe_targets, submit_in
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SWAPPING = (StaleElementReferenceException, NoSuchElementException)

STAFF = ("sam@example.com", "sam-staff-2026", "Sam Staff")


class LiveRegions(BrowserTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        try:
            cls.staff = chromium()  # a second browser: its own cookies, its own window
        except Exception:
            super().tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.staff.quit()
        super().tearDownClass()

    # The staff's browser

    def staff_open(self, path):
        self.staff.get(self.base + path)

    def staff_submit(self, css):
        submit_in(self.staff, css)

    def staff_type(self, css, text):
        field = self.staff.find_element(By.CSS_SELECTOR, css)
        field.clear()
        field.send_keys(text)

    def staff_sign_in(self):
        email, password, name = STAFF
        self.staff_open("/login")
        self.staff_type("#email", email)
        self.staff_type("#password", password)
        self.staff_submit("[data-view=Login] button[type=submit]")
        self.assertEqual(self.staff.find_element(By.CSS_SELECTOR, "[data-signed-in-as]").text, name)

    def staff_axe(self, note):
        if not self.staff.execute_script("return typeof window.axe === 'object'"):
            self.staff.execute_script(AXE_SOURCE.read_text())
        violations = self.staff.execute_async_script(
            'const done = arguments[arguments.length - 1];'
            'axe.run(document, {resultTypes: ["violations"]}).then(r => done(r.violations), e => done({error: String(e)}));')
        self.assertEqual([], [f"{note}: {v['id']} on {describe_targets(v['nodes'])}" for v in violations])

    def staff_console_errors(self):
        return [entry for entry in self.staff.get_log("browser") if entry["level"] == "SEVERE"]

    # The tests

    def wait_for(self, predicate, seconds):
        """Waits for `predicate` on the shopper's page, whose regions may be swapped meanwhile."""
        WebDriverWait(self.browser, seconds, poll_frequency=0.05, ignored_exceptions=SWAPPING).until(lambda browser: predicate())

    def test_1_staff_ship_and_the_shoppers_open_order_page_shows_it(self):
        self.sign_in()
        self.open("/orders?status=paid")
        order_url = self.find("[data-view=OrderRow] .order-id a").get_attribute("href")
        order_id = order_url.rsplit("/", 1)[1]
        self.browser.get(order_url)
        self.assertEqual(self.find("[data-region=status] [data-view]").get_attribute("data-view"), "AwaitingShipment")
        version = self.find("[data-region=status]").get_attribute("data-region-version")

        self.staff_sign_in()
        for width in (1280, 390):
            self.staff.set_window_size(width, 900)
            self.staff_open("/admin/orders")
            self.staff_axe(f"/admin/orders at {width}px")
            self.staff_open("/admin/products")
            self.staff_axe(f"/admin/products at {width}px")
            self.staff_open("/admin/staff")
            self.staff_axe(f"/admin/staff at {width}px")
        self.staff_open(f"/admin/orders/{order_id}")
        self.staff_axe("/admin/orders/ID")
        self.staff_type("#trackingNumber", "1Z999AA10123456784")
        self.staff_submit("[data-view=ShipOrder] button[type=submit]")
        shipped_at = time.monotonic()
        self.assertIn("is shipped", self.staff.find_element(By.CSS_SELECTOR, ".flash").text)

        self.wait_for(lambda: self.find_all("[data-region=status] [data-view=Shipped]"), 2)
        waited = time.monotonic() - shipped_at
        self.assertLess(waited, 2)
        self.assertIn("1Z999AA10123456784", self.find("[data-region=status] [data-tracking-number]").text)
        self.assertNotEqual(self.find("[data-region=status]").get_attribute("data-region-version"), version)
        self.assertEqual(self.path(), f"/orders/{order_id}", "no reload, no navigation")
        print(f"\n  the shopper's page showed Shipped {waited * 1000:.0f} ms after the staff's ship answered")

        # The region's new form works as any: confirming receipt takes the shopper on.
        self.submit("[data-region=status] form button[type=submit]")
        self.assertEqual(self.find("[data-view=OrderPage]").get_attribute("data-order-status"), "completed")
        self.assertEqual([], self.console_errors())
        self.assertEqual([], self.staff_console_errors())

    def test_2_an_open_product_page_shows_sold_out_when_another_shopper_buys_the_last_item(self):
        self.forget_everything()
        product = 6
        self.open(f"/products/{product}")
        self.assertIsNotNone(self.find("[data-region=add-to-cart] form"))
        # Away and back with the navigation script: the page is morphed twice, never loaded
        # again, and its live regions follow the stream of the page shown now.
        document = self.browser.execute_script("return window.__documentMark ??= Math.random().toString(36)")
        self.submit("[data-view=RelatedProducts] a[href^='/products/']")
        self.assertNotEqual(self.path(), f"/products/{product}")
        self.browser.back()
        self.wait_for(lambda: self.path() == f"/products/{product}" and self.find_all("[data-region=add-to-cart] form"), 5)
        self.assertEqual(self.browser.execute_script("return window.__documentMark"), document, "morphed, not loaded")

        # Staff leave one in stock, then buy it as any shopper would.
        self.staff_sign_in()
        self.staff_open("/admin/products")
        self.staff_type(f"#stock-{product}", "1")
        self.staff_submit(f"#product-{product} button[type=submit]")
        self.wait_for(lambda: self.find("[data-region=detail] [data-stock]").get_attribute("data-stock") == "1", 2)

        self.staff_open(f"/products/{product}")
        self.staff_submit("[data-region=add-to-cart] button[type=submit]")
        self.staff_open("/checkout")
        self.staff_submit("[data-view=Checkout] button[type=submit]")
        bought_at = time.monotonic()

        self.wait_for(lambda: "Sold out" in self.find("[data-region=add-to-cart]").text, 2)
        waited = time.monotonic() - bought_at
        self.assertEqual(self.find("[data-region=detail] [data-stock]").get_attribute("data-stock"), "0")
        self.assertEqual([], self.find_all("[data-region=add-to-cart] form"), "nothing left to add")
        print(f"\n  the open product page showed Sold out {waited * 1000:.0f} ms after the checkout answered")
        self.assertEqual([], self.console_errors())
        self.assertEqual([], self.staff_console_errors())

    def test_3_staff_mend_an_unsent_confirmation_and_send_it_again(self):
        # A shopper whose account holds an address mail cannot reach: one made before the rule.
        self.forget_everything()
        email = f"older-{time.time_ns()}@example.com"
        self.open("/register")
        self.type("#name", "Older Account")
        self.type("#email", email)
        self.type("#password", "long-enough-1")
        self.submit("[data-view=Register] button[type=submit]")
        older = email.replace("older-", "jürgen-").replace("example.com", "example.de")
        with sqlite3.connect(Path(self.storefront.data) / "storefront.sqlite") as database:
            self.assertEqual(database.execute("UPDATE user SET email = ? WHERE email = ?", (older, email)).rowcount, 1)
        self.open("/products/2")
        self.submit("[data-region=add-to-cart] button[type=submit]")
        self.open("/checkout")
        self.submit("[data-view=Checkout] button[type=submit]")
        order_id = re.fullmatch(r"/orders/(\d+)", self.path()).group(1)
        self.assertIn(f"No confirmation e-mail can be sent to {older}", self.find(".flash").text, "the buyer is told at once")

        self.staff_sign_in()
        self.staff_open("/admin/orders")
        self.staff_submit("a[href='/admin/mail']")
        letter = self.staff.find_element(By.CSS_SELECTOR, "[data-view=DeadLetter]")
        self.assertIn(f"Order #{order_id}", letter.text)
        self.assertIn(older, letter.find_element(By.CSS_SELECTOR, "[data-recipient]").text)
        self.assertIn("ASCII", letter.find_element(By.CSS_SELECTOR, "[data-reason]").text)
        for width in (1280, 390):
            self.staff.set_window_size(width, 900)
            self.staff_axe(f"/admin/mail at {width}px")
            self.assertLessEqual(self.staff.execute_script("return document.documentElement.scrollWidth"), width, f"fits {width}px")
        letter_id = letter.get_attribute("data-dead-letter-id")
        self.staff_type(f"#email-{letter_id}", "mended@example.com")
        self.staff_submit(f"[data-dead-letter-id='{letter_id}'] [data-view=ResendMail] button[type=submit]")
        self.assertIn("on its way again", self.staff.find_element(By.CSS_SELECTOR, ".flash").text)
        self.assertEqual(self.staff.find_element(By.CSS_SELECTOR, "[data-dead-letters]").text, "No unsent mail.")
        self.staff_axe("/admin/mail, empty")
        # Without SMTP_URL the outbox writes to DATA_DIR/mail: the mail is there, to the mended address.
        folder = Path(self.storefront.data) / "mail"
        deadline = time.monotonic() + 10
        while not list(folder.glob(f"order-{order_id}.*.eml")) and time.monotonic() < deadline:
            time.sleep(0.1)
        [mail] = list(folder.glob(f"order-{order_id}.*.eml"))
        self.assertIn("To: \"Older Account\" <mended@example.com>", mail.read_text())
        self.assertEqual([], self.staff_console_errors())

    def test_4_a_photo_over_the_limit_gets_the_413_page_in_chromium_and_curl(self):
        self.staff_sign_in()
        self.staff_open("/admin/products")
        with tempfile.NamedTemporaryFile(suffix=".jpg") as photo:
            photo.write(b"\xff\xd8\xff\xe0" + bytes(50 * 1024 * 1024))
            photo.flush()
            self.staff.find_element(By.CSS_SELECTOR, "#photo-1").send_keys(photo.name)
            self.staff_submit("#photo-1 ~ button[type=submit]")
            self.assertIn("413", self.staff.title)
            self.assertIn("The upload is larger than 25 MB", self.staff.find_element(By.CSS_SELECTOR, "main").text)

            self.staff_open("/admin/products")
            form = self.staff.find_element(By.CSS_SELECTOR, "form[data-photo-form]")
            cookies = "; ".join(f"{c['name']}={c['value']}" for c in self.staff.get_cookies())
            # curl as it comes (Expect: 100-continue for a body this size; told to wait for the
            # answer as long as it takes, not its default 1 s, so a busy machine cannot make it
            # send the body anyway), and sending the body without waiting, as a browser does.
            for expect in (["--expect100-timeout", "60"], ["-H", "Expect:"]):
                run = subprocess.run(["curl", "-sS", "-o", "-", "-w", "\n%{http_code}", "-H", f"Cookie: {cookies}", "-H", "Accept: text/html",
                                      "-F", f"photo=@{photo.name};type=image/jpeg", form.get_attribute("action"), *expect],
                                     capture_output=True, text=True, timeout=60)
                self.assertEqual(run.returncode, 0, f"curl {expect}: {run.stderr}")
                body, status = run.stdout.rsplit("\n", 1)
                self.assertEqual(status, "413", f"curl {expect}")
                self.assertIn("The upload is larger than 25 MB", body, f"curl {expect}")
        # Chromium logs the 413 it showed; nothing else.
        self.assertEqual([], [entry for entry in self.staff_console_errors() if "status of 413" not in entry["message"]])


if __name__ == "__main__":
    unittest.main(verbosity=2)

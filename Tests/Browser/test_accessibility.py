"""Every page of the purchase and of the orders, judged by axe-core at desktop and phone widths,
and by the Nu Html Checker.

A shopper who uses a screen reader, the keyboard alone, or a phone must be able to buy. So every
page a purchase or an order goes through, signed out and signed in, with and without a form's
errors, and the error pages, is checked at 1280 px and at 390 px (a phone: a mobile viewport that
honours <meta name=viewport>):
  - axe-core (pinned by scripts/browser-test.sh) finds no violation, whatever its impact;
  - at 390 px the page is no wider than the screen, so nothing needs sideways scrolling;
  - the browser console has no errors, but the page's own status on the error and form pages;
  - the page's HTML, as the server sent it, has no error and no warning for the Nu Html Checker
    (html_checker.py: but for its short list of warnings that are not ours to fix). The pages
    are collected as the test goes and checked in one run of the checker at the end.
Each test visits all its pages first and then fails once, listing every problem with its page,
width, axe rule, impact and the offending elements (or the checker's message, line and extract),
so one run tells the template's authors all there is to fix.

Screenshots of the cart, a product page and an order page at both widths go to SCREENSHOT_DIR
(cart-1280.png, cart-390.png, product-…, order-…): they are for people to look at.
"""
import unittest
from collections import defaultdict

from harness import DESKTOP, PHONE, BrowserTest, describe_targets, SCREENSHOTS
from html_checker import HtmlChecker

WIDTHS = (DESKTOP, PHONE)


class EveryPageAtBothWidths(BrowserTest):
    """Two walks through the shop, one signed out and one as the demo shopper, checking each page
    they reach. Each walk starts from a fresh session: no cookie, an empty cart."""

    # For the Nu Html Checker: each page's HTML as the server sent it (harness.served_html).
    network_log = True
    # The German walks: their screenshots apart, and every page they reach must be German.
    screenshot_prefix = ""
    expected_lang = "en"
    # Reset links the walks asked for (one per signed-out walk), so each finds its own mail.
    links_asked = 0

    def setUp(self):
        self.forget_everything()
        # (page, problem) -> widths, so a problem seen at both widths is listed once.
        self.problems = defaultdict(list)
        self.html_checker = HtmlChecker()
        self.addCleanup(self.html_checker.close)

    def check_page(self, note=None, status=None, screenshot=None):
        """Checks the page on screen at both widths. `note` tells apart two states of one URL in
        the list of problems. `status` is the page's own HTTP status when it is not 200: Chromium
        logs it as a console error, and only that error is expected."""
        page = self.path() + (f" ({note})" if note else "")
        self.html_checker.add(page, self.served_html())
        lang = self.find("html").get_attribute("lang")
        if lang != self.expected_lang:
            self.problem(page, None, f"<html lang={lang!r}>, expected {self.expected_lang!r}")
        for width in WIDTHS:
            self.set_width(width)
            violations = self.axe_violations()
            if isinstance(violations, dict):
                self.problem(page, width, f"axe did not run: {violations['error']}")
                continue
            for violation in violations:
                problem = f"axe {violation['id']} ({violation['impact']}): {describe_targets(violation['nodes'])}"
                self.problem(page, width, problem)
            if width == PHONE:
                page_width = self.page_width()
                if page_width > PHONE:
                    self.problem(page, width, f"{page_width}px wide, wider than the screen")
            if screenshot:
                self.screenshot(f"{self.screenshot_prefix}{screenshot}-{width}.png")
        url = self.browser.current_url
        for entry in self.console_errors():
            # A form answered in place by the navigation script logs the form's URL, not the page's.
            own_status = status and entry["message"].startswith((url + " ", self.base + "/")) and f"status of {status}" in entry["message"]
            if not own_status:
                self.problem(page, None, "console error: " + entry["message"])

    def problem(self, page, width, problem):
        """Notes a problem; `width` None for one that does not depend on the width."""
        if width not in self.problems[(page, problem)]:
            self.problems[(page, problem)].append(width)

    def assert_no_problems(self):
        """Fails with every problem noted, after checking the HTML of all the pages at once."""
        for page, problem in self.html_checker.problems():
            self.problem(page, None, problem)
        lines = []
        for (page, problem), widths in self.problems.items():
            at = " and ".join(f"{width}px" for width in widths if width)
            lines.append(f"{page}{' at ' + at if at else ''}: {problem}")
        if lines:
            self.fail(f"{len(lines)} problems:\n" + "\n".join(lines))

    def assert_status(self, status):
        """An error page says its status in data-status; a form sent back says what is wrong."""
        if status in (404, 409):
            self.assertEqual(self.find("[data-view=ErrorPage]").get_attribute("data-status"), str(status), self.path())
        else:
            self.assertTrue(self.find_all("[data-field]"), f"{self.path()} shows the form's errors")

    def visit(self, path, **options):
        """Opens a page by its URL and checks it."""
        self.open(path)
        self.check_page(**options)

    # The pages anyone sees, signed in or not

    def browse_the_catalogue(self):
        # Product 7 is out of stock: its page has no add-to-cart form.
        for path in ("/", "/?category=kitchen", "/?q=lamp", "/?q=zzzz-no-match", "/?page=2", "/products/2", "/products/7"):
            self.visit(path)

    def fill_the_cart(self, screenshot=False):
        self.visit("/cart", note="empty")
        self.assertEqual(self.find("[data-view=Cart]").get_attribute("data-item-count"), "0", "the cart starts empty")
        for product in (2, 9):
            self.open(f"/products/{product}")
            self.submit("[data-view=AddToCart] button[type=submit]")
        self.assertEqual(self.path(), "/cart")
        self.check_page(note="two lines", screenshot="cart" if screenshot else None)

    def ask_for_more_than_the_stock(self):
        """The stock fell between loading a page and sending its form: the form's own `max`
        would stop the browser, so it is taken away first, as a stale page would not have it."""
        self.open("/products/2")
        self.browser.execute_script("document.querySelector('[data-view=AddToCart] input[name=quantity]').removeAttribute('max')")
        self.type("[data-view=AddToCart] input[name=quantity]", "9999")
        self.submit("[data-view=AddToCart] button[type=submit]")
        self.assert_status(422)
        self.check_page(note="422, more than the stock", status=422)
        self.open("/cart")
        self.browser.execute_script("document.querySelectorAll('[data-view=Cart] input[name=quantity]').forEach(i => i.removeAttribute('max'))")
        self.type("[data-view=Cart] tbody input[name=quantity]", "9999")
        self.submit("[data-view=Cart] tbody button[type=submit]")
        self.assert_status(422)
        self.check_page(note="422, a line over the stock", status=422)

    def forget_the_password(self):
        """The forgotten-password form, sent empty and sent, the mailed link's form with its
        errors, and a link that no longer works."""
        self.visit("/password/forgot")
        self.submit("[data-view=ForgotPassword] button[type=submit]")
        self.check_page(note="422, sent empty", status=422)
        # Another shopper per walk: a link asked for again within a minute is not mailed again.
        self.type("#email", "grace@example.com" if self.expected_lang == "en" else "alan@example.com")
        self.submit("[data-view=ForgotPassword] button[type=submit]")
        self.assertEqual(self.path(), "/login")
        self.check_page(note="a link asked for")
        type(self).links_asked += 1
        link = self.storefront.reset_links(self.links_asked)[-1]
        self.visit(link[link.index("/password/reset/"):])
        self.type("#password", "new-password-1")
        self.type("#confirm", "new-password-2")
        self.submit("[data-view=ResetPassword] button[type=submit]")
        self.check_page(note="422, the passwords differ", status=422)
        self.visit("/password/reset/" + "A" * 43, note="404, a dead link", status=404)

    def show_not_found(self):
        self.visit("/no/such/page", note="404", status=404)
        self.assert_status(404)

    def show_conflict(self, order):
        """A 409 as a shopper meets it: the order is cancelled in another tab, then paid from
        this one, whose page still offers the Pay button. The order page is live, so this tab
        would show the cancellation at once: its stream is dropped first, and cannot come back,
        as when the network is gone for a while (the page then stays as it was)."""
        self.open(order)
        self.browser.execute_script(
            "window.dispatchEvent(new PageTransitionEvent('pagehide'));"
            "window.EventSource = class { addEventListener() {} close() {} };")
        stale = self.browser.current_window_handle
        self.browser.switch_to.new_window("tab")
        self.open(order)
        self.submit("[data-view=CancelOrder] button[type=submit]")
        self.assertEqual(self.find("[data-view=OrderPage]").get_attribute("data-order-status"), "cancelled")
        self.browser.close()
        self.browser.switch_to.window(stale)
        self.submit("[data-view=AwaitingPayment] form[action$='/pay'] button")
        self.assert_status(409)
        self.check_page(note="409, paying an order cancelled in another tab", status=409)

    # The tests

    def test_signed_out(self):
        """The catalogue, the forms to sign in and register (and their errors), a cart, the way
        to checkout, a 404."""
        self.browse_the_catalogue()
        self.visit("/login")
        self.type("#email", "nobody@example.com")
        self.type("#password", "not-the-password")
        self.submit("[data-view=Login] button[type=submit]")
        self.assert_status(422)
        self.check_page(note="422, wrong password", status=422)
        self.visit("/register")
        self.submit("[data-view=Register] button[type=submit]")
        self.assert_status(422)
        self.check_page(note="422, sent empty", status=422)
        self.forget_the_password()
        self.fill_the_cart()
        self.ask_for_more_than_the_stock()
        self.open("/checkout")
        self.assertTrue(self.path().startswith("/login?next="), "checkout asks to sign in first")
        self.check_page(note="checkout, signed out")
        self.show_not_found()
        self.assert_no_problems()

    def test_signed_in(self):
        """The catalogue, a cart, checkout, a new order, an order in every status, the order
        list and its filter, the account, the forms' errors, a 404 and a 409."""
        self.sign_in()
        self.browse_the_catalogue()
        self.fill_the_cart(screenshot=True)
        self.visit("/checkout")
        self.submit("[data-view=Checkout] form button[type=submit]")
        new_order = self.path()
        self.assertEqual(self.find("[data-view=OrderPage]").get_attribute("data-order-status"), "awaiting_payment")
        self.check_page(note="just placed")
        # The product page again, now with the purchase region showing that order.
        self.open("/products/2")
        self.assertTrue(self.find_all("[data-region=purchases] [data-order-id]"), "the product page shows the purchase")
        self.check_page(note="with a purchase", screenshot="product")

        # The demo orders: one in each status, and a completed one both with and without its review.
        demo_orders = [(1, "completed", "reviewed"), (2, "completed", "not reviewed"), (3, "cancelled", ""),
                       (4, "shipped", ""), (5, "paid", ""), (6, "awaiting_payment", "")]
        for order, status, review in demo_orders:
            note = ", ".join(filter(None, [status.replace("_", " "), review]))
            self.visit(f"/orders/{order}", note=note, screenshot="order" if order == 6 else None)
            self.assertEqual(self.find("[data-view=OrderPage]").get_attribute("data-order-status"), status, f"order #{order}")
        self.assertTrue(self.find_all("[data-view=AwaitingPayment] form[action$='/pay']"), "order-390.png shows the Pay form")
        # A review sent without its text comes back with the error.
        self.open("/orders/2")
        self.submit("[data-view=Completed] form button[type=submit]")
        self.assert_status(422)
        self.check_page(note="422, review without text", status=422)

        self.visit("/orders")
        self.visit("/orders?status=paid")
        self.visit("/account")
        self.visit("/account/password")
        self.submit("[data-view=Password] button[type=submit]")
        self.assert_status(422)
        self.check_page(note="422, sent empty", status=422)

        self.show_not_found()
        self.show_conflict(new_order)

        for name in ("cart", "product", "order"):
            for width in WIDTHS:
                path = SCREENSHOTS / f"{self.screenshot_prefix}{name}-{width}.png"
                self.assertGreater(path.stat().st_size, 10_000, f"{path.name} shows a page, not a blank")
        self.assert_no_problems()

    # The same pages in German: the switcher's choice is kept in a cookie, so every page after
    # the first is German, with its own lang, words and formats, checked the same way.

    def test_signed_out_in_german(self):
        self.screenshot_prefix, self.expected_lang = "de-", "de"
        self.open("/?lang=de")
        self.test_signed_out()

    def test_signed_in_in_german(self):
        self.screenshot_prefix, self.expected_lang = "de-", "de"
        self.open("/?lang=de")
        self.test_signed_in()


if __name__ == "__main__":
    unittest.main(verbosity=2)

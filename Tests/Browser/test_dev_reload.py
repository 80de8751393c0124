"""`make dev` in a real browser: an edit reloads the open page by itself, keeping what was typed
and where the page was scrolled; a failed build shows over the page, at the template's line, and
goes away when the next build succeeds."""
import time
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import SCREENSHOTS, DevServer, chromium

TEMPLATE = "Views/Catalog/product_list.html"
CATALOG = "Views/Catalog/locales/en.json"


class DevReloadTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dev = DevServer()
        cls.dev.start()
        try:
            cls.browser = chromium()
        except Exception:
            cls.dev.stop()
            raise
        # A rebuild takes seconds; a page that is reloading answers nothing: keep asking.
        cls.wait = WebDriverWait(cls.browser, 120, poll_frequency=0.05, ignored_exceptions=(Exception,))

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.dev.stop()

    def script(self, code):
        return self.browser.execute_script(code)

    def label(self):
        return self.script("return document.querySelector('label[for=q]').textContent")

    def test_an_edit_reloads_the_page_and_a_failed_build_shows_over_it(self):
        self.browser.get(self.dev.base + "/")
        build = self.script("return document.querySelector('script[data-tessera-build]').dataset.tesseraBuild")
        self.assertTrue(build)
        self.assertEqual(self.label(), "Search")
        # Something typed and a scrolled page: both must survive the reload.
        self.browser.find_element(By.ID, "q").send_keys("walnut")
        self.script("window.scrollTo(0, 400)")
        scrolled = self.script("return window.scrollY")
        self.assertGreater(scrolled, 0, "the page must be long enough to scroll")

        self.dev.edit(TEMPLATE, "<label for=\"q\">{{ t \"list.search_label\" }}</label>", "<label for=\"q\">Find</label>")
        self.wait.until(lambda _: self.label() == "Find")
        self.assertNotEqual(self.script("return document.querySelector('script[data-tessera-build]').dataset.tesseraBuild"), build,
                            "the page was rendered by the new build")
        self.assertEqual(self.browser.find_element(By.ID, "q").get_attribute("value"), "walnut")
        self.assertAlmostEqual(self.script("return window.scrollY"), scrolled, delta=2)

        # A misspelt property: the Swift compiler's error, at the template's line, over the page.
        self.dev.edit(TEMPLATE, "{{ page.summary }}", "{{ page.summry }}")
        overlay = self.wait.until(lambda browser: browser.find_element(By.ID, "tessera-dev-overlay"))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.browser.save_screenshot(str(SCREENSHOTS / "dev-build-failed.png"))
        text = overlay.text
        self.assertIn("The build failed", text)
        self.assertIn(TEMPLATE + ":21:", text)
        self.assertIn("summry", text)
        self.assertEqual(self.label(), "Find", "the last good build goes on serving the page")

        # Fixed: the overlay goes, and the page reloads with the new build.
        self.dev.edit(TEMPLATE, "{{ page.summry }}", "{{ page.summary }}")
        self.dev.edit(TEMPLATE, "<label for=\"q\">Find</label>", "<label for=\"q\">{{ t \"list.search_label\" }}</label>")
        self.wait.until(lambda _: self.label() == "Search")
        self.wait.until(lambda browser: not browser.find_elements(By.ID, "tessera-dev-overlay"))
        self.assertEqual(self.browser.find_element(By.ID, "q").get_attribute("value"), "walnut")

        # A message catalog is a source too: its edit shows on the page like a template's.
        self.dev.edit(CATALOG, '"list.search_label": "Search"', '"list.search_label": "Look up"')
        self.wait.until(lambda _: self.label() == "Look up")
        self.dev.restore()


if __name__ == "__main__":
    unittest.main()

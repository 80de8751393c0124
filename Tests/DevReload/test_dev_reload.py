"""`make dev` in a real browser, on the Getting Started app (Examples/GettingStarted, built in
debug by scripts/example-test.sh just before): an edit reloads the open page by itself, keeping
what was typed and where the page was scrolled; an edit of markup alone shows without a rebuild
(the page's build stays the same); a failed build shows over the page, at the template's line,
and goes away when the next build succeeds.

The app is the example, not the storefront: its debug build is made anyway, and each rebuild here
takes seconds, where `make test` has no debug build of the storefront to start from."""
import sys
import unittest
from pathlib import Path

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Browser"))
from harness import SCREENSHOTS, DevServer, chromium  # noqa: E402

TEMPLATE = "Views/Cookbook/recipe_form.html"
# The line of `{{ page.minutes }}` in it, where the misspelt property's error is reported.
MINUTES_LINE = next(number for number, line in enumerate((Path(__file__).resolve().parents[2] / "Examples/GettingStarted" / TEMPLATE).read_text().splitlines(), 1) if "{{ page.minutes }}" in line)


class DevReloadTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dev = DevServer(package="Examples/GettingStarted", product="CookbookServer", seed=False, probe="/")
        cls.dev.start()
        try:
            cls.browser = chromium()
        except Exception:
            cls.dev.stop()
            raise
        # A short window, so that even this short page scrolls.
        cls.browser.set_window_size(390, 240)
        # A rebuild takes seconds; a page that is reloading answers nothing: keep asking.
        cls.wait = WebDriverWait(cls.browser, 120, poll_frequency=0.05, ignored_exceptions=(Exception,))

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.dev.stop()

    def script(self, code):
        return self.browser.execute_script(code)

    def label(self):
        return self.script("return document.querySelector('label[for=name]').textContent")

    def build(self):
        return self.script("return document.querySelector('script[data-tessera-build]').dataset.tesseraBuild")

    def test_an_edit_reloads_the_page_and_a_failed_build_shows_over_it(self):
        self.browser.get(self.dev.base + "/recipes/new")
        build = self.build()
        self.assertTrue(build)
        self.assertEqual(self.label(), "Name")
        # Something typed and a scrolled page: both must survive the reload.
        self.browser.find_element(By.ID, "name").send_keys("pancakes")
        self.script("window.scrollTo(0, 400)")
        scrolled = self.script("return window.scrollY")
        self.assertGreater(scrolled, 0, "the page must be long enough to scroll")

        # Markup alone: the same build serves it, read from what the watcher saved.
        self.dev.edit(TEMPLATE, '<label for="name">Name</label>', '<label for="name">Look up</label>')
        self.wait.until(lambda _: self.label() == "Look up")
        self.assertEqual(self.build(), build, "markup alone is shown without a rebuild")
        self.assertIn("without a rebuild", self.dev.log_path.read_text())
        self.assertEqual(self.browser.find_element(By.ID, "name").get_attribute("value"), "pancakes")
        self.assertAlmostEqual(self.script("return window.scrollY"), scrolled, delta=2)

        # A misspelt property: the Swift compiler's error, at the template's line, over the page.
        self.dev.edit(TEMPLATE, "{{ page.minutes }}", "{{ page.minuts }}")
        overlay = self.wait.until(lambda browser: browser.find_element(By.ID, "tessera-dev-overlay"))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.browser.save_screenshot(str(SCREENSHOTS / "dev-build-failed.png"))
        text = overlay.text
        self.assertIn("The build failed", text)
        self.assertIn(f"{TEMPLATE}:{MINUTES_LINE}:", text)
        self.assertIn("minuts", text)
        self.assertEqual(self.label(), "Look up", "the last good build goes on serving the page")

        # Fixed: the overlay goes, and the page reloads with the new build. This wait has failed
        # now and then in a fresh clone, for a reason not yet found: say what make dev did.
        self.dev.edit(TEMPLATE, "{{ page.minuts }}", "{{ page.minutes }}")
        try:
            self.wait.until(lambda _: self.build() != build)
        except TimeoutException:
            self.fail("no new build within 120 s of the fix; the end of make dev's log:\n" + self.dev.log_path.read_text()[-6000:])
        self.wait.until(lambda browser: not browser.find_elements(By.ID, "tessera-dev-overlay"))
        self.assertEqual(self.label(), "Look up", "the new build has the saved markup in it")
        rebuilt = self.build()
        self.dev.edit(TEMPLATE, '<label for="name">Look up</label>', '<label for="name">Name</label>')
        self.wait.until(lambda _: self.label() == "Name")
        self.assertEqual(self.build(), rebuilt, "markup alone again: no rebuild")
        self.assertEqual(self.browser.find_element(By.ID, "name").get_attribute("value"), "pancakes")
        self.dev.restore()


if __name__ == "__main__":
    unittest.main()

"""Pages that change in place, in Chromium, with the navigation script (the framework's `/_tessera/navigate.js`):
a link or a form fetches its page and morphs the document into it, with no page load.

- A form answered with a redirect to the page it was on keeps the scroll.
- A quantity typed in one cart line survives the morph that another line's form brings.
- A form sent back with its messages (422) keeps what was typed, and the focus goes to the field
  in error.
- Back and forward show each page again, at the URL it had; a search (a GET form) morphs too.
- In German the next page morphs in German, and the language switcher morphs the page back.
- A page asked for by the script is sent without the regions it shows already, and far smaller.
- A browser holding the shop's compression dictionary gets the next page against it (dcz).
- A form in flight is aria-busy with its button disabled, and goes once.
- A link to a file (not a page) is the browser's: it is not fetched first.
- An element marked data-tessera-permanent is kept as it is across a morph.
- axe-core finds nothing after a morph; no console errors but the 422's own.
"""
import urllib.request

from selenium.webdriver.support.ui import WebDriverWait

from harness import PHONE, BrowserTest, chromium, submit_in


class PagesChangeInPlace(BrowserTest):
    def setUp(self):
        self.forget_everything()

    def document_id(self):
        """A mark on the current document: it survives a morph, and is gone after a page load."""
        return self.browser.execute_script("return window.__documentMark ??= Math.random().toString(36)")

    def add_to_cart(self, product_id, quantity=1):
        self.open(f"/products/{product_id}")
        self.type(f"#quantity-{product_id}", str(quantity))
        self.submit("[data-view=AddToCart] button[type=submit]")
        self.wait.until(lambda browser: self.path() == "/cart")

    def test_links_morph_and_back_and_forward_restore_each_page(self):
        self.open("/products/1")
        first = self.find("h1").text
        document = self.document_id()
        self.submit("[data-view=RelatedProducts] a[href^='/products/']")
        second_path = self.path()
        self.assertNotEqual(second_path, "/products/1")
        self.assertNotEqual(self.find("h1").text, first)
        self.assertEqual(self.document_id(), document, "the link morphed the page; it did not load a new one")
        self.assertEqual(self.axe_violations(), [], "axe-core after a morph")

        self.browser.back()
        self.wait.until(lambda browser: self.path() == "/products/1" and self.find("h1").text == first)
        self.browser.forward()
        self.wait.until(lambda browser: self.path() == second_path and self.find("h1").text != first)
        self.assertEqual(self.document_id(), document, "back and forward morphed too")
        self.assertEqual(self.console_errors(), [])

    def test_a_morph_follows_the_language(self):
        """In German the next page morphs in German, its head follows it (lang, title, canonical,
        hreflang), and the language switcher, a plain link, morphs the page back to English."""
        self.open("/products/1?lang=de")
        document = self.document_id()
        self.assertEqual(self.browser.execute_script("return document.documentElement.lang"), "de")
        cart_de = self.find(".cart-link").text
        self.submit("[data-view=RelatedProducts] a[href^='/products/']")
        second = self.path()
        self.assertEqual(self.document_id(), document, "the German page morphed")
        self.assertEqual(self.browser.execute_script("return document.documentElement.lang"), "de")
        self.assertEqual(self.find(".cart-link").text, cart_de, "still German")
        canonical = self.browser.execute_script("return document.querySelector('link[rel=canonical]').href")
        self.assertTrue(canonical.endswith(second.split("?")[0] + "?lang=de") or canonical.endswith(second), canonical)
        self.assertEqual(self.browser.execute_script("return document.querySelectorAll('link[rel=canonical]').length"), 1)
        self.assertIn(self.find("h1").text, self.browser.title)

        self.submit("nav.languages a[hreflang=en]")
        self.wait.until(lambda browser: browser.execute_script("return document.documentElement.lang") == "en")
        self.assertEqual(self.document_id(), document, "the switcher's link morphed too")
        self.assertNotEqual(self.find(".cart-link").text, cart_de, "English words now")
        self.assertEqual(self.axe_violations(), [], "axe-core after a morph between languages")
        self.assertEqual(self.console_errors(), [])

    def test_a_search_form_morphs_too(self):
        """A GET form (the search) morphs like a link, which Turbo 8 cannot: its URL is pushed."""
        self.open("/")
        document = self.document_id()
        self.type("#q", "lamp")
        self.submit("form.search button")
        self.wait.until(lambda browser: "q=lamp" in self.path())
        self.assertEqual(self.document_id(), document, "the search morphed the page")
        names = [card.text.lower() for card in self.find_all("[data-product-id] h2")]
        self.assertTrue(names and all("lamp" in name for name in names), names)
        self.browser.back()
        self.wait.until(lambda browser: self.path() == "/" and not self.find("#q").get_attribute("value"))
        self.assertEqual(self.document_id(), document)

    def test_a_form_that_comes_back_to_its_page_keeps_the_scroll_and_typed_input(self):
        self.add_to_cart(1)
        self.add_to_cart(2)
        # A short window, so the cart scrolls.
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": PHONE, "height": 420, "deviceScaleFactor": 1, "mobile": True})
        self.addCleanup(self.browser.execute_cdp_cmd, "Emulation.clearDeviceMetricsOverride", {})
        self.open("/cart")
        rows = self.find_all("tr[data-product-id]")
        self.assertEqual(len(rows), 2)
        first_field = rows[0].find_element("css selector", "input[name=quantity]")
        first_id = first_field.get_attribute("id")
        # Typed into the first line, not sent.
        first_field.clear()
        first_field.send_keys("4")
        second = rows[1]
        second_id = second.find_element("css selector", "input[name=quantity]").get_attribute("id")
        self.browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", second)
        scrolled = self.browser.execute_script("return scrollY")
        self.assertGreater(scrolled, 0, "the cart scrolls in this window")
        document = self.document_id()

        self.type(f"#{second_id}", "3")
        self.submit(f"#{second_id} ~ button[type=submit]")

        self.assertEqual(self.path(), "/cart")
        self.assertEqual(self.document_id(), document)
        self.assertEqual(self.find(f"#{second_id}").get_attribute("value"), "3", "the line sent was saved")
        self.assertEqual(self.find(f"#{first_id}").get_property("value"), "4", "the line typed into kept its value")
        self.assertEqual(self.browser.execute_script("return scrollY"), scrolled, "the scroll stayed")
        self.assertEqual(self.axe_violations(), [], "axe-core after a morph")

    def test_a_form_sent_back_with_its_messages_keeps_what_was_typed(self):
        self.open("/register")
        document = self.document_id()
        self.type("#name", "Grace Hopper")
        # Taken by the demo shopper: only the server can say so.
        self.type("#email", "ada@example.com")
        self.type("#password", "a-long-password")
        self.submit("[data-view=Register] button[type=submit]")
        self.wait.until(lambda browser: self.find("#email").get_attribute("aria-invalid") == "true")
        self.assertEqual(self.document_id(), document)
        self.assertEqual(self.path(), "/register", "a form answered in place stays at its page")
        self.assertEqual(self.find("#name").get_property("value"), "Grace Hopper")
        self.assertEqual(self.find("#email").get_property("value"), "ada@example.com")
        focused = self.browser.execute_script("return document.activeElement.id")
        self.assertEqual(focused, "email", "the focus is on the field in error")
        self.assertEqual(self.axe_violations(), [], "axe-core after a morph")
        errors = [entry for entry in self.console_errors() if "status of 422" not in entry["message"]]
        self.assertEqual(errors, [])

    def test_the_next_page_travels_against_the_dictionary_the_browser_holds(self):
        """A browser that has never been here fetches the shop's compression dictionary, which
        the kept page announces; the next product page, morphed, then comes `dcz` against it:
        a tenth of the page's bytes or less, where gzip makes it a quarter."""
        browser = chromium()
        self.addCleanup(browser.quit)
        browser.get(self.base + "/products/1")
        dictionary_fetched = "return performance.getEntriesByType('resource').some((e) => e.name.includes('/_tessera/dictionary/'))"
        WebDriverWait(browser, 30).until(lambda browser: browser.execute_script(dictionary_fetched))
        browser.execute_script("performance.clearResourceTimings()")
        submit_in(browser, "[data-view=RelatedProducts] a[href^='/products/']")
        fetched = browser.execute_script(
            "return performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'fetch')"
            ".map((e) => ({name: e.name, encoded: e.encodedBodySize, decoded: e.decodedBodySize}))")
        self.assertEqual(len(fetched), 1, fetched)
        self.assertGreater(fetched[0]["decoded"], 5000, "the whole page arrived")
        self.assertLess(fetched[0]["encoded"] * 10, fetched[0]["decoded"], f"sent against the dictionary: {fetched[0]}")
        self.assertIn("/products/", browser.current_url)
        self.assertNotEqual(browser.find_element("css selector", "h1").text, "", "the morphed page reads right")

    def test_a_form_in_flight_is_busy_and_cannot_be_sent_twice(self):
        self.open("/products/1")
        # What the form and its button show each time either changes, recorded as it happens.
        self.browser.execute_script("""
            const form = document.querySelector('[data-view=AddToCart] form');
            const button = form.querySelector('button[type=submit]');
            window.__states = [];
            new MutationObserver(() => window.__states.push({busy: form.getAttribute('aria-busy'), disabled: button.disabled}))
                .observe(form, {attributes: true, subtree: true, attributeFilter: ['aria-busy', 'disabled']});
        """)
        document = self.document_id()
        self.submit("[data-view=AddToCart] button[type=submit]")
        self.wait.until(lambda browser: self.path() == "/cart")
        self.assertEqual(self.document_id(), document)
        states = self.browser.execute_script("return window.__states")
        self.assertTrue(states, "the form changed while it was sent")
        self.assertEqual(states[0], {"busy": "true", "disabled": True}, "in flight: aria-busy, its button disabled")
        self.assertEqual(states[-1], {"busy": None, "disabled": False}, "answered: neither")
        self.assertEqual(len(self.find_all("tr[data-product-id]")), 1, "one line in the cart: the form went once")

    def test_a_permanent_element_is_kept_as_it_is(self):
        """An element with data-tessera-permanent and an id (a cart drawer, a playing video) is
        the page's own element after a morph, state and all, when the next page has one with the
        same id; the shop has none yet, so the test adds it to this page and to the next page's
        HTML as it arrives."""
        self.open("/products/1")
        document = self.document_id()
        self.browser.execute_script("""
            const player = document.createElement('div');
            player.id = 'player';
            player.setAttribute('data-tessera-permanent', '');
            player.textContent = 'playing at 0:42';
            player.playing = true;
            document.querySelector('main').append(player);
            const fetchOriginal = window.fetch;
            window.fetch = async (input, init) => {
                const reply = await fetchOriginal(input, init);
                const html = (await reply.text()).replace('</main>', '<div id="player" data-tessera-permanent>stopped</div></main>');
                const rewritten = new Response(html, {status: reply.status, headers: reply.headers});
                Object.defineProperty(rewritten, 'url', {value: reply.url});
                Object.defineProperty(rewritten, 'redirected', {value: reply.redirected});
                return rewritten;
            };
        """)
        self.submit("[data-view=RelatedProducts] a[href^='/products/']")
        self.assertEqual(self.document_id(), document, "morphed")
        self.assertNotEqual(self.path(), "/products/1")
        self.assertEqual(self.console_errors(), [])
        kept = self.browser.execute_script(
            "const player = document.getElementById('player'); return [player.textContent, player.playing === true, document.querySelectorAll('#player').length]")
        self.assertEqual(kept, ["playing at 0:42", True, 1], "the page's own element, not the next page's")

    def test_a_link_to_a_file_is_left_to_the_browser(self):
        """A same-origin link to something that is not a page (a photo, /robots.txt) is not
        fetched by the script first: it would be fetched twice, once only to find it is a file."""
        self.open("/")
        # The text file's favicon request is its own 404: whatever happens, none of it is left for the next test.
        self.addCleanup(self.console_errors)
        # Every fetch the script makes, kept in sessionStorage, which outlives the page load.
        self.browser.execute_script("""
            sessionStorage.setItem('fetched', '[]');
            const fetchOriginal = window.fetch;
            window.fetch = (input, init) => {
                sessionStorage.setItem('fetched', JSON.stringify([...JSON.parse(sessionStorage.getItem('fetched')), String(input)]));
                return fetchOriginal(input, init);
            };
            const link = document.createElement('a');
            link.href = '/robots.txt';
            link.id = 'robots';
            link.textContent = 'robots';
            document.querySelector('main').append(link);
        """)
        self.browser.find_element("css selector", "#robots").click()
        self.wait.until(lambda browser: self.path() == "/robots.txt")
        self.assertEqual(self.browser.execute_script("return JSON.parse(sessionStorage.getItem('fetched'))"), [])
        self.assertIn("User-agent", self.browser.find_element("tag name", "body").text)
        # Chromium asks for /favicon.ico for a document that names no icon, such as a text file:
        # the shop's pages name /favicon.svg, and that 404 is the only error allowed here.
        errors = [entry for entry in self.console_errors() if "/favicon.ico " not in entry["message"]]
        self.assertEqual(errors, [])

    def test_only_the_regions_that_changed_travel(self):
        # A shopper with a session (a cart): her pages are rendered for her, not kept copies.
        self.add_to_cart(2)
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in self.browser.get_cookies())
        self.open("/products/1")
        held = self.browser.execute_script(
            "return [...document.querySelectorAll('[data-region-version]')].map((region) => region.dataset.regionVersion).join(' ')")
        self.assertTrue(held, "the page's regions carry their versions")
        # The same page again, asked for by a page that shows all its regions: none is sent.
        whole = urllib.request.urlopen(urllib.request.Request(self.base + "/products/1", headers={"Cookie": cookie})).read()
        request = urllib.request.Request(self.base + "/products/1", headers={"Tessera-Regions": held, "Cookie": cookie})
        with urllib.request.urlopen(request) as reply:
            partial = reply.read()
            self.assertIn("private", reply.headers["Cache-Control"])
            self.assertIn("Tessera-Regions", reply.headers["Vary"])
        self.assertIn(b"data-region-same", partial)
        self.assertLess(len(partial), len(whole) / 2, f"{len(partial)} bytes of {len(whole)}")
        # A header a client made up is only a page sent whole.
        request = urllib.request.Request(self.base + "/products/1", headers={"Tessera-Regions": "'\"<>!" * 50, "Cookie": cookie})
        with urllib.request.urlopen(request) as reply:
            self.assertNotIn(b"data-region-same", reply.read())

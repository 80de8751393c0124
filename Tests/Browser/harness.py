"""What every browser test shares: a storefront of its own and a headless Chromium to drive it.

Each test class gets a fresh storefront (the built binary, on a free loopback port, with a copy
of a data directory `storefront seed` filled once: the demo catalogue with its photos and the
demo shopper's orders #1-#6) and one
Chromium, driven through Selenium and Debian's chromedriver. Nothing is shared between classes,
so no test depends on what another one bought, cancelled or signed out of.

scripts/browser-test.sh passes, through the environment:
  STOREFRONT_BINARY  the storefront to run (by default make test's, .build/test/release/storefront)
  SCREENSHOT_DIR     where screenshots go (by default .build/browser-screenshots)
  AXE_SOURCE         axe-core's axe.min.js, pinned and checked by the script
"""
import atexit
import base64
import email
import email.policy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("STOREFRONT_BINARY", ROOT / ".build/test/release/storefront"))
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", ROOT / ".build/browser-screenshots"))
AXE_SOURCE = Path(os.environ.get("AXE_SOURCE", ROOT / ".build/browser-venv/axe.min.js"))

# The demo shopper the storefront seeds, with her orders #1-#6 (see Accounts' and Orders' stores).
DEMO_EMAIL = "ada@example.com"
DEMO_PASSWORD = "ada-lovelace-1815"
DEMO_NAME = "Ada Lovelace"

DESKTOP = 1280
PHONE = 390


def wait_until_healthy(base, process, seconds, failure, path="/healthz"):
    """Returns once `base` answers `path` with a 200; raises with `failure` if `process` exits
    first or `seconds` go by."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(base + path, timeout=1) as reply:
                if reply.status == 200:
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(failure)
            time.sleep(0.1)


_seeded = {}


def seeded_data_directory():
    """A data directory `storefront seed` filled, made once per run and removed at exit:
    seeding draws 40 photos, a copy of it takes milliseconds."""
    if "folder" not in _seeded:
        folder = tempfile.mkdtemp(prefix="tessera-browser-seeded-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        subprocess.run([str(BINARY), "seed"], cwd=ROOT, env=dict(os.environ, DATA_DIR=folder, LOG_LEVEL="warning", PASSWORD_HASH_ROUNDS="1000"),
                       check=True, stdout=subprocess.DEVNULL, timeout=300)
        _seeded["folder"] = folder
    return _seeded["folder"]


class Storefront:
    """The storefront binary on a free port, with a data directory of its own, seeded."""

    def start(self):
        self.data = tempfile.mkdtemp(prefix="tessera-browser-")
        shutil.copytree(seeded_data_directory(), self.data, dirs_exist_ok=True)
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", DATA_DIR=self.data, LOG_LEVEL="warning", DATABASE_TIMEOUT="60", PASSWORD_HASH_ROUNDS="1000",
                   REGISTRATION_LIMIT="100000/hour", CHECKOUT_LIMIT="100000/minute")
        self.log = open(Path(self.data) / "storefront.log", "w")
        self.process = subprocess.Popen([str(BINARY)], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_until_healthy(self.base, self.process, 30, "the storefront did not start; see " + self.log.name)

    def reset_links(self, count, seconds=30):
        """The links of the first `count` password reset mails in DATA_DIR/mail, oldest first,
        once the outbox's worker (which looks every second) has written them; fails after
        `seconds` without them."""
        folder = Path(self.data) / "mail"
        deadline = time.monotonic() + seconds
        while True:
            files = sorted(folder.glob("password-reset.*.eml"), key=lambda file: file.stat().st_mtime_ns) if folder.exists() else []
            if len(files) >= count:
                break
            assert time.monotonic() < deadline, f"{count} reset mails in {folder}, not {len(files)}"
            time.sleep(0.05)
        links = []
        for file in files[:count]:
            mail = email.message_from_bytes(file.read_bytes(), policy=email.policy.default)
            text = mail.get_body(preferencelist=("plain",)).get_content()
            links.append(next(word for word in text.split() if "/password/reset/" in word))
        return links

    def stop(self):
        self.process.terminate()
        code = self.process.wait(timeout=15)
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)
        assert code == 0, f"the storefront exited with {code}"


class DevServer:
    """`make dev` (scripts/dev.py) on a free port with a data directory of its own, for the
    reload test and the dev-loop benchmark: the storefront by default, or another app's package
    (`package`, relative to the repository, and its executable `product`). `edit` changes a file
    of that package and `restore` puts every edited file back byte for byte, whatever happened
    in between."""

    def __init__(self, package=".", product="storefront", seed=True, probe="/healthz"):
        self.package = (ROOT / package).resolve()
        self.arguments = ["--package-path", str(self.package), "--product", product] + (["--seed"] if seed else [])
        # A page that answers 200 once the app is up.
        self.probe = probe

    def start(self):
        self.data = tempfile.mkdtemp(prefix="tessera-dev-")
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", DATA_DIR=self.data, LOG_LEVEL="warning", DATABASE_TIMEOUT="60", PASSWORD_HASH_ROUNDS="1000",
                   REGISTRATION_LIMIT="100000/hour", CHECKOUT_LIMIT="100000/minute")
        self.log_path = Path(self.data) / "dev.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([str(ROOT / "scripts/dev.py"), *self.arguments], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.originals = {}
        # The first build may compile everything.
        wait_until_healthy(self.base, self.process, 900, "make dev did not start; see " + str(self.log_path), path=self.probe)

    def edit(self, path, old, new):
        """Replaces `old` by `new` in the package's file `path` (it must be there once)."""
        file = self.package / path
        text = file.read_bytes()
        self.originals.setdefault(file, text)
        assert text.count(old.encode()) == 1, f"{old!r} is not in {path} exactly once"
        file.write_bytes(text.replace(old.encode(), new.encode()))

    def restore(self):
        for file, text in self.originals.items():
            file.write_bytes(text)
        self.originals = {}

    def stop(self):
        self.restore()
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)


def chromium(javascript=True, network_log=False):
    """Headless Chromium. Without JavaScript, Chrome's content setting blocks every page script,
    as a shopper's "Don't allow sites to use JavaScript" does (WebDriver's own scripts still run).
    With `network_log`, chromedriver records DevTools' network events in its "performance" log,
    which `BrowserTest.served_html` reads."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={DESKTOP},1000"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    logs = {"browser": "ALL"}
    if network_log:
        logs["performance"] = "ALL"
        options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    options.set_capability("goog:loggingPrefs", logs)
    # Debian's chromedriver, named explicitly so that Selenium never tries to download one.
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    browser = webdriver.Chrome(service=service, options=options)
    browser.set_script_timeout(60)
    return browser


def morphs(browser):
    """How many pages the navigation script has morphed in since this document loaded: a
    listener counts them, added to each new document the first time it is asked."""
    return browser.execute_script(
        "if (window.__morphs === undefined) {"
        " window.__morphs = 0;"
        " document.addEventListener('tessera:load', () => { window.__morphs += 1; });"
        "}"
        " return window.__morphs;")


def submit_in(browser, css):
    """Clicks a submit button (or a link) in `browser` and waits for the page it leads to: a new
    document, or, with the navigation script, the page morphed in place (its `tessera:load`).
    While the old document is torn down, chromedriver may answer a question about it with any
    error (such as "Node with given id does not belong to the document"): those mean "not yet"."""
    page = browser.find_element(By.CSS_SELECTOR, "html")
    before = morphs(browser)
    browser.find_element(By.CSS_SELECTOR, css).click()
    navigation = WebDriverWait(browser, 10, ignored_exceptions=(WebDriverException,))
    navigation.until(lambda browser: EC.staleness_of(page)(browser) or morphs(browser) > before)
    navigation.until(lambda browser: browser.execute_script("return document.readyState") == "complete")


class BrowserTest(unittest.TestCase):
    """A test class with its own storefront (`self.base`) and Chromium (`self.browser`)."""

    javascript = True
    # Whether Chromium records its network traffic, for `served_html`.
    network_log = False

    @classmethod
    def setUpClass(cls):
        cls.storefront = Storefront()
        cls.storefront.start()
        cls.base = cls.storefront.base
        try:
            cls.browser = chromium(javascript=cls.javascript, network_log=cls.network_log)
        except Exception:
            cls.storefront.stop()
            raise
        # While a form's answer loads, the old page's elements go stale or vanish: keep waiting.
        cls.wait = WebDriverWait(cls.browser, 10, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.storefront.stop()

    # Navigating

    def open(self, path):
        self.browser.get(self.base + path)

    def path(self):
        """The current URL without the scheme, host and port."""
        url = self.browser.current_url
        return url[len(self.base):] if url.startswith(self.base) else url

    def find(self, css):
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.browser.find_elements(By.CSS_SELECTOR, css)

    def click(self, css):
        self.find(css).click()

    def submit(self, css):
        """Clicks a submit button (or a link) and waits for the page it leads to (`submit_in`)."""
        submit_in(self.browser, css)

    def morphs(self):
        return morphs(self.browser)

    def type(self, css, text):
        field = self.find(css)
        field.clear()
        field.send_keys(text)

    def wait_for_title(self, fragment):
        self.wait.until(EC.title_contains(fragment))

    # Signing in and out, through the forms

    def sign_in(self, email=DEMO_EMAIL, password=DEMO_PASSWORD, name=DEMO_NAME):
        self.open("/login")
        self.type("#email", email)
        self.type("#password", password)
        self.submit("[data-view=Login] button[type=submit]")
        self.assertEqual(self.find("[data-signed-in-as]").text, name)

    def sign_out(self):
        self.submit("form[action='/logout'] button")
        self.assertIn(self.find(".flash").text, ("You are signed out.", "Sie sind abgemeldet."))

    def forget_everything(self):
        """A new visitor: no session cookie, so nobody is signed in and the cart is empty."""
        self.browser.delete_all_cookies()

    # What the browser says

    def console_errors(self):
        """The SEVERE entries logged since the last call (reading the log empties it)."""
        return [entry for entry in self.browser.get_log("browser") if entry["level"] == "SEVERE"]

    def regions_js_listens(self):
        """Whether /js/regions.js ran on this page: it is the site's only script, and all it does
        is add one click listener to the document. Asked through DevTools, which sees listeners
        whether or not page scripts may run, so the answer is honest both ways."""
        document = self.browser.execute_cdp_cmd("Runtime.evaluate", {"expression": "document"})["result"]
        listeners = self.browser.execute_cdp_cmd("DOMDebugger.getEventListeners", {"objectId": document["objectId"]})
        return any(listener["type"] == "click" for listener in listeners["listeners"])

    def served_html(self):
        """The current page's HTML exactly as the server sent it (as text), for the Nu Html
        Checker. Not `page_source`: that serializes the DOM, after the parser has repaired the
        markup and the page's scripts have changed it, which would hide the very mistakes the
        checker is for. Nor a second request for the same URL: that would not get a page that
        answers a POST (a form sent back with 422, a 409), and would not show a one-time flash
        message, which the first request already took from the session. So it is Chromium's own
        copy of the answer it showed (DevTools' Network.getResponseBody), found through the last
        document response for this URL in the network log (the class needs `network_log = True`).
        Reading the log empties it: call this at most once per page."""
        url = self.browser.current_url.split("#")[0]
        request = None
        # The navigation script's requests, which name the regions a page holds.
        morphs = set()
        for entry in self.browser.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            if event["method"] == "Network.requestWillBeSent":
                if any(name.lower() == "tessera-regions" for name in event["params"]["request"]["headers"]):
                    morphs.add(event["params"]["requestId"])
                continue
            if event["method"] != "Network.responseReceived":
                continue
            response = event["params"]["response"]
            if event["params"]["type"] == "Document" and response["url"].split("#")[0] == url:
                request = event["params"]["requestId"]
            # A page the navigation script fetched and morphed in (its URL may be the form's).
            elif event["params"]["requestId"] in morphs and response.get("mimeType") == "text/html":
                request = event["params"]["requestId"]
        if request is None:
            raise AssertionError(f"no response for {url} in the network log: was the page loaded since the last call?")
        body = self.browser.execute_cdp_cmd("Network.getResponseBody", {"requestId": request})
        return base64.b64decode(body["body"]).decode("utf-8") if body["base64Encoded"] else body["body"]

    # Widths, screenshots, axe

    def set_width(self, width):
        """Lays the page out as a desktop browser window `width` px wide, or, at PHONE width, as a
        phone does: a mobile viewport that honours <meta name=viewport>."""
        phone = width <= PHONE
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width,
            "height": 844 if phone else 1000,
            "deviceScaleFactor": 1,
            "mobile": phone,
        })

    def page_width(self):
        """How wide the page really is. A page wider than a phone's screen makes a mobile layout
        viewport grow to fit it, so innerWidth alone would hide the overflow: take the wider of
        the two."""
        return self.browser.execute_script(
            "return Math.max(window.innerWidth, document.documentElement.scrollWidth)")

    def screenshot(self, name):
        path = SCREENSHOTS / name
        self.browser.save_screenshot(str(path))
        return path

    def axe_violations(self):
        """axe-core's violations on the current page, every impact, as axe.run reports them."""
        if not self.browser.execute_script("return typeof window.axe === 'object'"):
            self.browser.execute_script(AXE_SOURCE.read_text())
        return self.browser.execute_async_script(
            'const done = arguments[arguments.length - 1];'
            'axe.run(document, {resultTypes: ["violations"]})'
            '  .then(results => done(results.violations), error => done({error: String(error)}));')


def describe_targets(nodes, limit=4):
    """axe's node targets, short: `img, .card > a (+3 more)`. A target is a list of selectors,
    one per frame or shadow root on the way to the node."""
    def selector(target):
        return target if isinstance(target, str) else " >>> ".join(selector(part) for part in target)
    targets = [selector(node["target"]) for node in nodes]
    shown = ", ".join(targets[:limit])
    return shown + (f" (+{len(targets) - limit} more)" if len(targets) > limit else "")

"""What shared caches may keep, read by REDbot (`make test`'s cache step, scripts/cache-test.sh).

REDbot fetches each page as a cache would see it and says, in its own words, who may store the
answer and how it is revalidated. A storefront on a new SQLite data directory:
- the pages kept for visitors without a session (the product list, a search, a product page)
  may be stored by every cache, never served without asking again, and asked with If-None-Match;
- a page that asks who is signed in (the cart) may be stored by private caches only;
- and no answer among them sets a cookie.
"""
import os
import subprocess
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from ports import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("STOREFRONT_BINARY", str(ROOT / ".build/test/release/storefront"))
REDBOT = os.environ.get("REDBOT", str(ROOT / ".build/redbot-venv/bin/redbot"))


class CacheabilityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory(prefix="tessera-caches-")
        port = free_port()
        cls.base = f"http://127.0.0.1:{port}"
        cls.log = open(Path(cls.folder.name) / "storefront.log", "w")
        cls.server = subprocess.Popen([BINARY], cwd=ROOT, stdout=cls.log, stderr=subprocess.STDOUT,
                                      env={**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "DATA_DIR": cls.folder.name, "LOG_LEVEL": "warning"})
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(cls.base + "/readyz", timeout=2).read()
                break
            except OSError:
                if cls.server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("the storefront did not start")
                time.sleep(0.1)

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(timeout=30)
        cls.log.close()
        cls.folder.cleanup()

    def redbot(self, path):
        run = subprocess.run([REDBOT, "-o", "text", self.base + path], capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("HTTP/1.1 200 OK", run.stdout, run.stdout)
        self.assertNotRegex(run.stdout, r"(?im)^set-cookie:", f"{path} sets a cookie")
        return run.stdout

    def test_kept_pages_may_be_stored_by_every_cache_and_revalidated(self):
        for path in ["/", "/?q=lamp", "/products/3"]:
            with self.subTest(path=path):
                said = self.redbot(path)
                self.assertIn("This response allows all caches to store it.", said)
                self.assertIn("This response cannot be served from cache without validation.", said)
                self.assertIn("If-None-Match conditional requests are supported.", said)

    def test_a_page_that_asks_for_the_session_is_for_private_caches_only(self):
        said = self.redbot("/cart")
        self.assertIn("This response allows only private caches to store it.", said)
        self.assertNotIn("allows all caches", said)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""The product page's weight on a 390 px phone, in headless Chromium: every byte the phone loads
to show it (the HTML, CSS, JavaScript and the images it picks from the `srcset`s), before any
scrolling, so photos below the fold (lazy) do not count. At device pixel ratios 1, 2 and 3 (an
iPhone 15 is 390 px at 3): the higher the ratio, the larger the photo the browser picks.

Counts the bytes on the wire (`transferSize` of every resource and of the page itself, so
compressed where the server compresses), not the live-region stream, which stays open. Goal: under
150 KB. Run it with `make page-weight` (or as part of `make bench`).

Then a navigation between two product pages with the navigation script (the framework's
`/_tessera/navigate.js`), which morphs the page in place, in a browser holding the app's
compression dictionary: the bytes of its one request against the next page loaded whole on a
first visit, and how many stylesheets and scripts it fetched again. Goal: under half, and none.
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Browser"))
from harness import Storefront, chromium  # noqa: E402

GOAL = 150_000
PAGES = ["/products/1", "/"]


def weigh(browser, base, path, ratio):
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.clearBrowserCache", {})
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": ratio, "mobile": True})
    browser.get(base + path)
    # Until the load event, then a moment for images the layout asked for.
    for _ in range(100):
        if browser.execute_script("return document.readyState") == "complete":
            break
        time.sleep(0.05)
    time.sleep(1.0)
    entries = browser.execute_script("""
        const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
        return all.filter(e => !e.name.includes('/_live')).map(e => ({name: e.name, type: e.initiatorType, bytes: e.transferSize}));
    """)
    kinds = {}
    for entry in entries:
        name = entry["name"]
        kind = ("image" if "/photos/" in name or name.endswith(".svg") else "css" if ".css" in name
                else "js" if ".js" in name else "dictionary" if "/_tessera/dictionary/" in name else "html")
        kinds[kind] = kinds.get(kind, 0) + entry["bytes"]
    return sum(kinds.values()), kinds, [e["name"].replace(base, "") for e in entries if "/photos/" in e["name"]]


def wait_for(browser, script, failure):
    """Until `script` returns true, for 10 s at most."""
    for _ in range(200):
        if browser.execute_script(script):
            return
        time.sleep(0.05)
    raise RuntimeError(failure)


def morphed_navigation(base):
    """From /products/1 to the first related product by its link, morphed, in a browser that has
    fetched the app's compression dictionary (announced by the kept page's `Link` header, fetched
    when the browser is idle): the bytes the page took, the bytes the same page takes loaded whole
    by a browser without it (a first visit), and the stylesheets and scripts fetched again.
    Chromium reports `transferSize` as the encoded body plus 300 bytes for the head, alike for
    both."""
    browser = chromium()
    try:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        browser.get(base + "/products/1")
        wait_for(browser, "return performance.getEntriesByType('resource').some(e => e.name.includes('/_tessera/dictionary/'))",
                 "the browser did not fetch the compression dictionary within 10 s")
        time.sleep(0.2)
        browser.execute_script("performance.clearResourceTimings(); window.__morphed = false;"
                               " document.addEventListener('tessera:load', () => { window.__morphed = true; }, {once: true});")
        target = browser.execute_script("const link = document.querySelector(\"[data-view=RelatedProducts] a[href^='/products/']\");"
                                        " link.click(); return link.getAttribute('href');")
        wait_for(browser, "return window.__morphed", "the navigation script did not morph the page")
        entries = browser.execute_script(
            "return performance.getEntriesByType('resource').map(e => ({name: e.name, type: e.initiatorType, bytes: e.transferSize}));")
        morph = sum(e["bytes"] for e in entries if e["type"] == "fetch")
        again = [e["name"].replace(base, "") for e in entries if e["name"].endswith((".css", ".js")) or ".css?" in e["name"] or ".js?" in e["name"]]
    finally:
        browser.quit()
    # The same page loaded whole by a browser that has never been here.
    first_visit = chromium()
    try:
        first_visit.get(base + target)
        whole = first_visit.execute_script("return performance.getEntriesByType('navigation')[0].transferSize")
    finally:
        first_visit.quit()
    return target, morph, whole, again


def main():
    storefront = Storefront()
    storefront.start()
    storefront.base = storefront.base.replace("127.0.0.1", "localhost")
    browser = chromium()
    over = False
    morph_met = False
    try:
        # Draw the demo photos' variants first, so the weights are of files, not of first draws.
        browser.get(storefront.base + "/products/1")
        for path in PAGES:
            for ratio in (1, 2, 3):
                total, kinds, photos = weigh(browser, storefront.base, path, ratio)
                over |= path.startswith("/products/") and total > GOAL
                parts = ", ".join(f"{kind} {size / 1000:.1f} KB" for kind, size in sorted(kinds.items()))
                print(f"{path} at 390 px, DPR {ratio}: {total / 1000:.1f} KB ({parts}); photos: {', '.join(p.split('/')[-1] for p in photos) or 'none'}")
        target, morph, whole, again = morphed_navigation(storefront.base)
        morph_met = morph < whole / 2 and not again
        print(f"/products/1 -> {target}, morphed: {morph / 1000:.1f} KB in its one request, against {whole / 1000:.1f} KB for the page"
              f" whole ({morph / max(whole, 1):.2f}); stylesheets and scripts fetched again: {', '.join(again) or 'none'}")
    finally:
        browser.quit()
        storefront.stop()
    print(f"goal: the product page under {GOAL / 1000:.0f} KB: {'missed' if over else 'met'}")
    print(f"goal: a morphed navigation under half the page, no asset fetched again: {'met' if morph_met else 'missed'}")


if __name__ == "__main__":
    main()

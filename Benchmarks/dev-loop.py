#!/usr/bin/env python3
"""The edit loop under `make dev`, timed in headless Chromium: from the moment a file is saved to
the moment the open page shows the change, having reloaded by itself.

Three kinds of edit, 5 of each, each a new text on the page: a template's markup alone
(`Views/Catalog/product_list.html`, text after the search field's label: shown without a
rebuild), a template's expression (the same label, a new `{{ }}`: rebuilt and type-checked), and
a controller's Swift code (`ProductListPageController`, the page's title). Prints each time, the
medians, the part of each that was the build (from scripts/dev.py's log), and the goals: markup
≤ 0.5 s, an expression ≤ 3 s, a controller ≤ 6 s. Every edited file is put back at the end.

Run it with `make dev-loop` (or as part of `make bench`), which sets up Chromium and Selenium.
"""
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "Browser"))
from harness import DevServer, chromium  # noqa: E402

EDITS = 5
GOALS = {"markup": 0.5, "expression": 3.0, "controller": 6.0}
LABEL = '<label for="q">{{ t "list.search_label" }}</label>'
KINDS = {
    # kind: (file, the text before any edit, the text of edit n, what the page shows for edit n)
    "markup": ("Views/Catalog/product_list.html", LABEL,
               lambda n: f'<label for="q">{{{{ t "list.search_label" }}}} {n}</label>',
               "return document.querySelector('label[for=q]').textContent", lambda n: f"Search {n}"),
    "expression": ("Views/Catalog/product_list.html", LABEL,
                   lambda n: f'<label for="q">{{{{ t "list.search_label" }}}}{{{{ " x{n}" }}}}</label>',
                   "return document.querySelector('label[for=q]').textContent", lambda n: f"Search x{n}"),
    "controller": ("Sources/Catalog/Controllers/ProductListPageController.swift", "title: page.title, body:",
                   lambda n: f'title: page.title + " {n}", body:', "return document.title", lambda n: f" {n} ·"),
}


def main():
    dev = DevServer()
    dev.start()
    browser = chromium()
    results = {}
    try:
        browser.get(dev.base + "/")
        for kind, (path, original, edited, probe, shown) in KINDS.items():
            times, builds = [], []
            current = original
            for n in range(1, EDITS + 1):
                log_before = dev.log_path.read_text()
                marker = edited(n)
                saved = time.monotonic()
                dev.edit(path, current, marker)
                current = marker
                deadline = saved + 120
                while True:
                    try:
                        if shown(n) in (browser.execute_script(probe) or ""):
                            break
                    except Exception:
                        pass  # the page is reloading
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{kind} edit {n} never showed; see {dev.log_path}")
                    time.sleep(0.01)
                elapsed = time.monotonic() - saved
                new_log = dev.log_path.read_text()[len(log_before):]
                built = re.findall(r"built in ([0-9.]+) s, serving in ([0-9.]+) s more", new_log)
                builds.append(float(built[-1][0]) if built else 0.0)
                times.append(elapsed)
                print(f"  {kind} edit {n}: {elapsed:.2f} s (build {builds[-1]:.1f} s)", flush=True)
            results[kind] = (times, builds)
            # Put the file back, and wait for it to serve (a build, or markup saved) before the next kind's edits.
            log_before = len(dev.log_path.read_text())
            dev.restore()
            deadline = time.monotonic() + 120
            while not re.search("built in|markup saved", dev.log_path.read_text()[log_before:]):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the build after restoring {path} never served; see {dev.log_path}")
                time.sleep(0.05)
    finally:
        browser.quit()
        dev.stop()

    print()
    print(f"make dev: from the save to the changed page, {EDITS} edits each (headless Chromium)")
    print("| edit | median (s) | each (s) | of which the build (median, s) | goal | met |")
    print("|---|---:|---|---:|---:|---|")
    for kind, (times, builds) in results.items():
        median = statistics.median(times)
        met = "yes" if median <= GOALS[kind] else "**no**"
        each = ", ".join(f"{t:.2f}" for t in times)
        print(f"| {kind} | {median:.2f} | {each} | {statistics.median(builds):.1f} | ≤ {GOALS[kind]:g} s | {met} |")


if __name__ == "__main__":
    main()

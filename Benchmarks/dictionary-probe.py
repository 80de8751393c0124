#!/usr/bin/env python3
"""Which answers headless Chromium takes as compression dictionaries (RFC 9842), for the
blocked byte goal of a morphed navigation (BENCHMARKS.md): a small server on loopback sends three
pages, each `Use-As-Dictionary: match="/*"` and compressed with `dcz` (zstd, raw dictionary)
against the page the browser names in `Available-Dictionary`; Chromium loads /p1 and /p2 and
fetches /p3, as navigate.js would. For each `Cache-Control` it prints how many requests offered
`dcz`, and whether the pages still read right.

    $(scripts/browser-venv.sh) -m pip install zstandard
    $(scripts/browser-venv.sh) Benchmarks/dictionary-probe.py
"""
import base64
import hashlib
import http.server
import sys
import threading
import time
from pathlib import Path

import zstandard

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "Browser"))
from harness import chromium, free_port  # noqa: E402

PAGES = {f"/p{i}": (f"<!DOCTYPE html><html lang=en><head><title>p{i}</title></head><body>" + "common text " * 200
                    + f"<h1>page {i}</h1></body></html>").encode() for i in range(1, 4)}
DCZ_MAGIC = b"\x5e\x2a\x4d\x18\x20\x00\x00\x00"


def serve(cache_control, offered):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def do_GET(self):
            body = PAGES.get(self.path)
            if body is None:
                self.send_response(404)
                self.end_headers()
                return
            held = self.headers.get("Available-Dictionary")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Cache-Control", cache_control)
            self.send_header("Use-As-Dictionary", 'match="/*"')
            self.send_header("Vary", "Accept-Encoding, Available-Dictionary")
            if held and "dcz" in self.headers.get("Accept-Encoding", ""):
                offered.append(self.path)
                digest = base64.b64decode(held.strip(":"))
                dictionary = next((page for page in PAGES.values() if hashlib.sha256(page).digest() == digest), None)
                if dictionary is not None:
                    compressor = zstandard.ZstdCompressor(level=3, dict_data=zstandard.ZstdCompressionDict(
                        dictionary, dict_type=zstandard.DICT_TYPE_RAWCONTENT))
                    body = DCZ_MAGIC + digest + compressor.compress(body)
                    self.send_header("Content-Encoding", "dcz")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    browser = chromium()
    try:
        for cache_control in ["public, no-cache", "public, max-age=0", "private, no-store", "public, max-age=60"]:
            offered = []
            server = serve(cache_control, offered)
            base = f"http://127.0.0.1:{server.server_address[1]}"
            browser.get(base + "/p1")
            browser.get(base + "/p2")
            second = browser.execute_script("return document.querySelector('h1').textContent")
            third = browser.execute_script("return fetch('/p3').then((reply) => reply.text())")
            server.shutdown()
            right = second == "page 2" and third.endswith("<h1>page 3</h1></body></html>")
            print(f"Cache-Control: {cache_control:22} requests offering dcz: {len(offered)}; pages read right: {right}")
            time.sleep(0.2)
    finally:
        browser.quit()


if __name__ == "__main__":
    main()

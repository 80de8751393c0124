"""1,000 pages following one product page's live regions, for `make bench` (run-http.py, part
`live`): the server's memory per open stream, and how long one change takes to reach them all.

Each subscriber is a browser of its own: it loads the product page (getting a session, whose
CSRF token is in the add-to-cart form) and follows the page's stream with the versions it was
rendered with, so nothing is sent until something changes. The subscribers connect from eight
loopback addresses (127.0.0.2-9), as many clients would, within the server's per-address limits.
Then a shopper buys one item: the moment its checkout is sent starts the clock, and each
subscriber stops it when its product detail arrives with the new stock.
"""
import asyncio
import re
import resource
import time
import urllib.parse
import urllib.request

ADDRESSES = [f"127.0.0.{n}" for n in range(2, 10)]


async def _page(port, address, path):
    """GET `path` from `address`: the session cookie and the page."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read(-1)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    cookie = re.search(rb"Set-Cookie: ([^;]+)", head, re.IGNORECASE).group(1).decode()
    return cookie, body.decode(errors="replace")


class Subscriber:
    def __init__(self, port, address, product):
        self.port, self.address, self.product = port, address, product
        self.arrived = None

    async def load_page(self):
        """The product page, as the browser loads it before its script follows the stream."""
        self.cookie, page = await _page(self.port, self.address, f"/products/{self.product}")
        self.url = re.search(r'data-live-stream="([^"]+)"', page).group(1).replace("&amp;", "&")
        self.stock = int(re.search(r'data-stock="(\d+)"', page).group(1))

    async def follow(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.address, 0))
        self.writer.write(f"GET {self.url} HTTP/1.1\r\nHost: localhost\r\nCookie: {self.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"stream refused: {head[:200]!r}")

    async def wait_for_stock(self, stock):
        marker = f'data-stock="{stock}"'.encode()
        seen = b""
        while marker not in seen:
            chunk = await self.reader.read(65536)
            if not chunk:
                raise RuntimeError("stream ended")
            seen = seen[-64:] + chunk
        self.arrived = time.monotonic()

    def close(self):
        self.writer.close()


def _buy(base, product):
    """A new shopper adds one of the product and checks out; returns when the checkout was sent
    (the clock's start), after the cart is ready."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())

    def post(page, action, fields):
        opener.open(base + page, timeout=10).read()
        data = urllib.parse.urlencode(fields).encode()
        return opener.open(base + action, data=data, timeout=30)

    post("/login", "/login", {"email": "grace@example.com", "password": "grace-hopper-1906"})
    post(f"/products/{product}", "/cart/items", {"productID": str(product), "quantity": "1"})
    html = opener.open(base + "/checkout", timeout=10).read().decode()
    number = re.search(r'name="checkoutNumber" value="([^"]+)"', html).group(1)
    sent = time.monotonic()
    opener.open(base + "/checkout", data=urllib.parse.urlencode({"checkoutNumber": number}).encode(), timeout=30).read()
    return sent


async def run(port, count, product, resident_mb):
    """Opens `count` subscribers, then changes the product once: memory and fan-out latency."""
    base = f"http://127.0.0.1:{port}"
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    subscribers = [Subscriber(port, ADDRESSES[n % len(ADDRESSES)], product) for n in range(count)]
    for start in range(0, count, 50):
        await asyncio.gather(*(s.load_page() for s in subscribers[start:start + 50]))
    await asyncio.sleep(1)
    before = resident_mb()
    for start in range(0, count, 50):  # 50 at a time, as pages open over a few seconds
        await asyncio.gather(*(s.follow() for s in subscribers[start:start + 50]))
    await asyncio.sleep(2)
    held = resident_mb()
    stock = subscribers[-1].stock
    waiting = [asyncio.create_task(s.wait_for_stock(stock - 1)) for s in subscribers]
    sent = await asyncio.get_running_loop().run_in_executor(None, _buy, base, product)
    await asyncio.wait_for(asyncio.gather(*waiting), timeout=60)
    latencies = sorted((s.arrived - sent) * 1000 for s in subscribers)
    for s in subscribers:
        s.close()
    return {
        "subscribers": count,
        "before_mb": before,
        "held_mb": held,
        "per_subscriber_kb": (held - before) * 1024 / count,
        "p50_ms": latencies[len(latencies) // 2],
        "p99_ms": latencies[max(0, int(len(latencies) * 0.99) - 1)],
        "max_ms": latencies[-1],
    }

"""The storefront's image as an operator runs it, with podman: a named volume, the health check,
a purchase over HTTP, a graceful stop that drains, and a new container on the same volume that
still has the paid order. Everything it makes is removed at the end.

Run by scripts/container-test.sh (make test), after scripts/build-image.sh built the image.
"""
import json
import re
import subprocess
import sys
import time
import unittest
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Support"))
from shopper import Shopper  # noqa: E402

IMAGE = "localhost/tessera-storefront"


def podman(*args, check=True):
    result = subprocess.run(["podman", *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)} failed: {result.stderr.strip()}")
    return result


class ContainerTest(unittest.TestCase):
    def setUp(self):
        self.suffix = uuid.uuid4().hex[:8]
        self.volume = f"tessera-test-data-{self.suffix}"
        self.containers = []
        podman("volume", "create", self.volume)

    def tearDown(self):
        for name in self.containers:
            podman("rm", "--force", "--time", "0", name, check=False)
        podman("volume", "rm", "--force", self.volume, check=False)

    def start(self, name):
        name = f"{name}-{self.suffix}"
        self.containers.append(name)
        podman("run", "--detach", "--name", name, "--publish", "127.0.0.1::8080",
               "--volume", f"{self.volume}:/data", IMAGE)
        port = podman("port", name, "8080").stdout.strip().rsplit(":", 1)[1]
        deadline = time.monotonic() + 60
        while podman("healthcheck", "run", name, check=False).returncode != 0:
            self.assertLess(time.monotonic(), deadline, podman("logs", name).stdout + podman("logs", name).stderr)
            time.sleep(0.5)
        return name, f"http://127.0.0.1:{port}"

    def logs(self, name):
        result = podman("logs", name)
        return result.stdout + result.stderr

    def test_purchase_survives_a_graceful_stop_and_a_new_container(self):
        first, base = self.start("tessera-first")
        inspect = json.loads(podman("inspect", first).stdout)[0]
        self.assertEqual(inspect["Config"]["User"], "storefront", "not root")

        shopper = Shopper(base)
        email = f"container-{self.suffix}@example.com"
        status, _, _ = shopper.post("/register", "/register",
                                    {"name": "Container", "email": email, "password": "long-enough-1"})
        self.assertEqual(status, 303)
        status, _, _ = shopper.post("/products/3", "/cart/items", {"productID": "3", "quantity": "1"})
        self.assertEqual(status, 303)
        status, order_url, _ = shopper.post("/checkout", "/checkout", {})
        self.assertEqual(status, 303)
        self.assertRegex(order_url, r"^/orders/\d+$")
        _, order_page = shopper.get(order_url)
        key = re.search(r'name="idempotencyKey" value="([^"]+)"', order_page).group(1)
        status, _, _ = shopper.post(order_url, order_url + "/pay", {"idempotencyKey": key})
        self.assertEqual(status, 303)
        _, order_page = shopper.get(order_url)
        self.assertIn('data-order-status="paid"', order_page)

        podman("stop", "--time", "10", first)
        state = json.loads(podman("inspect", first).stdout)[0]["State"]
        self.assertEqual(state["ExitCode"], 0, self.logs(first))
        log = self.logs(first)
        self.assertIn("shutting down", log)
        self.assertIn("stopped", log)

        second, base = self.start("tessera-second")
        again = Shopper(base)
        status, _, _ = again.post("/login", "/login", {"email": email, "password": "long-enough-1", "next": "/"})
        self.assertEqual(status, 303)
        status, order_page = again.get(order_url)
        self.assertEqual(status, 200)
        self.assertIn('data-order-status="paid"', order_page, "the paid order is on the volume")


if __name__ == "__main__":
    unittest.main()

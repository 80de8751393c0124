#!/usr/bin/env python3
"""`make dev`: the storefront, rebuilt and restarted on every saved change.

It watches `Sources/`, `Views/`, `Public/` and `Package.swift`. On a change it runs an
incremental debug build; when the build succeeds it restarts the server on the same data folder
(so the same database, and the same session secret: everyone stays signed in), and every open
page reloads itself once the new server answers (`DevelopmentReload` in the framework). When the
build fails, the last good server goes on serving, and the compiler's messages show over every
open page until the next build succeeds.

Environment: PORT (8080), DATA_DIR (.build/dev/data), SWIFT (swift), and whatever the storefront
itself reads. Ctrl-C stops it. Standard library only: it polls the files' modification times,
which costs little for a few hundred files and needs no inotify package.
"""

import os
import pathlib
import re
import signal
import subprocess
import sys
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
WATCHED = ["Sources", "Views", "Public", "Package.swift"]
DEV = ROOT / ".build" / "dev"
STATUS = DEV / "build-failed.txt"
POLL = 0.05         # seconds between looks at the files
SETTLE = 0.02       # an editor's save may touch several files: wait this long for the rest


def log(message):
    print(f"[dev {time.strftime('%H:%M:%S')}] {message}", flush=True)


def snapshot():
    """Every watched file and its modification time."""
    files = {}
    for name in WATCHED:
        path = ROOT / name
        if path.is_file():
            files[str(path)] = path.stat().st_mtime_ns
            continue
        for directory, _, names in os.walk(path):
            for file in names:
                if file.startswith(".") or file.endswith("~"):
                    continue
                full = os.path.join(directory, file)
                try:
                    files[full] = os.stat(full).st_mtime_ns
                except FileNotFoundError:
                    pass
    return files


def changed(before, after):
    return sorted(set(before.items()) ^ set(after.items()))


def build(swift):
    """Runs the incremental debug build; returns (succeeded, its messages)."""
    # libmicrohttpd is Tessera's own build of it (scripts/build-libmicrohttpd.sh), as in the Makefile.
    # The same value as the Makefile's, byte for byte: SwiftPM plans the build again when the
    # environment differs from the last build's, and that reruns every template's command.
    pkgconfig = str(ROOT / ".build-deps/libmicrohttpd/lib/pkgconfig")
    paths = os.environ.get("PKG_CONFIG_PATH", "")
    if pkgconfig not in paths.split(":"):
        paths = ":".join(filter(None, [pkgconfig, paths]))
    environment = dict(os.environ, PKG_CONFIG_PATH=paths)
    result = subprocess.run([swift, "build", "--product", "storefront"], cwd=ROOT, env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode == 0, result.stdout


def failure_messages(output):
    """The compiler's errors, with the lines that follow each (the code and its caret), paths
    relative to the package, for the page's overlay."""
    lines = output.splitlines()
    kept = []
    for index, line in enumerate(lines):
        if ": error: " in line:
            kept.append(line)
            kept.extend(following for following in lines[index + 1:index + 4] if not re.search(r": (error|warning|note): |^\[\d+/\d+\]", following))
            kept.append("")
    text = "\n".join(kept).strip() or output.strip()[-4000:] or "the build failed"
    return text.replace(str(ROOT) + "/", "")


class Server:
    """The storefront process, restarted on the same data folder for every good build."""

    def __init__(self, port, data):
        self.port, self.data, self.process = port, data, None
        self.seeded = False

    def restart(self, build_name):
        self.stop()
        environment = dict(os.environ, PORT=str(self.port), DATA_DIR=str(self.data),
                           TESSERA_DEV_BUILD=build_name, TESSERA_DEV_STATUS=str(STATUS))
        environment.setdefault("LOG_LEVEL", "notice")
        if not self.seeded and not environment.get("DATABASE_URL") and not (self.data / "storefront.sqlite").exists():
            # A new data folder: the demo shop with its photos, which only `storefront seed` draws.
            seed = subprocess.run([str(ROOT / ".build/debug/storefront"), "seed"], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL)
            if seed.returncode != 0:
                log(f"storefront seed exited with status {seed.returncode}; serving without the demo photos")
        self.seeded = True
        self.process = subprocess.Popen([str(ROOT / ".build/debug/storefront")], cwd=ROOT, env=environment)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log(f"the server exited with status {self.process.returncode}")
                return False
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return True
            except OSError:
                time.sleep(0.02)
        log("the server did not answer /healthz within 60 s")
        return False

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def main():
    swift = os.environ.get("SWIFT", "swift")
    port = int(os.environ.get("PORT", "8080"))
    data = pathlib.Path(os.environ.get("DATA_DIR", DEV / "data")).resolve()
    data.mkdir(parents=True, exist_ok=True)
    DEV.mkdir(parents=True, exist_ok=True)
    STATUS.unlink(missing_ok=True)
    server = Server(port, data)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    files = snapshot()
    builds = 0
    pending = True  # the first build
    try:
        while True:
            if pending:
                pending = False
                started = time.monotonic()
                ok, output = build(swift)
                if ok:
                    STATUS.unlink(missing_ok=True)
                    builds += 1
                    built = time.monotonic()
                    if server.restart(f"{os.getpid()}-{builds}"):
                        log(f"built in {built - started:.1f} s, serving in {time.monotonic() - built:.1f} s more "
                            f"on http://localhost:{port}/")
                else:
                    messages = failure_messages(output)
                    STATUS.write_text(messages)
                    print(output, flush=True)
                    log("the build failed; the last good build goes on serving, and open pages show why")
            time.sleep(POLL)
            now = snapshot()
            if changed(files, now):
                time.sleep(SETTLE)
                now = snapshot()
                log("changed: " + ", ".join(os.path.relpath(path, ROOT) for path, _ in changed(files, now)[:3]))
                files = now
                pending = True
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.stop()
        STATUS.unlink(missing_ok=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`make dev`: an app, rebuilt and restarted on every saved change. The storefront by default;
`--package-path DIR --product NAME` for another app on Tessera, such as Examples/GettingStarted.

It watches the package's `Sources/`, `Views/`, `Public/` and `Package.swift`. On a change it runs
an incremental debug build (through scripts/swift.sh, so every build sees the same environment);
when the build succeeds it restarts the server on the same data folder (so the same database,
and the same session secret: everyone stays signed in), and every open page reloads itself once
the new server answers (`DevelopmentReload` in the framework). When the build fails, the last
good server goes on serving, and the compiler's messages show over every open page until the
next build succeeds. `--seed` fills a new data folder with `PRODUCT seed` first (the storefront's
demo shop; `make dev` passes it).

A save that changes only a template's markup (its text and tags, outside `{{ }}` and control tags)
is not rebuilt: the view compiler (`TesseraViewCompiler markup`) says whether the template's code
shape is still the one the running build has, and if so its static runs are written to the markup
folder, which the debug build's views read (`DevelopmentMarkup`), and the open pages reload. An
expression, a control tag, a route or a new template is rebuilt and type-checked as before.

Environment: PORT (8080), DATA_DIR (.build/dev/data), and whatever the app itself reads. Ctrl-C
stops it. Standard library only: it polls the files' modification times, which costs little for a
few hundred files and needs no inotify package.
"""

import argparse
import json
import os
import pathlib
import re
import signal
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
WATCHED = ["Sources", "Views", "Public", "Package.swift"]
DEV = ROOT / ".build" / "dev"
SWIFT = ROOT / "scripts" / "swift.sh"
# A failed build's messages, for the open pages; one file per watcher, so two can run at once.
STATUS = DEV / f"build-failed-{os.getpid()}.txt"
# Markup saved since the last good build, for its views to read; one folder per watcher too.
MARKUP = DEV / f"markup-{os.getpid()}"
POLL = 0.05         # seconds between looks at the files
SETTLE = 0.02       # an editor's save may touch several files: wait this long for the rest


def log(message):
    print(f"[dev {time.strftime('%H:%M:%S')}] {message}", flush=True)


def snapshot(package):
    """Every watched file of the package and its modification time."""
    files = {}
    for name in WATCHED:
        path = package / name
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


def build(package, product):
    """Runs the incremental debug build; returns (succeeded, its messages)."""
    result = subprocess.run([str(SWIFT), "build", "--package-path", str(package), "--product", product], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return result.returncode == 0, result.stdout


def failure_messages(output, package):
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
    return text.replace(str(package) + "/", "")


class Markup:
    """Templates whose markup alone changed since the last good build: their static runs go to
    MARKUP, where the running build's views read them, without a rebuild."""

    def __init__(self, package):
        self.package = package
        self.built = {}       # template (relative to the package) -> its text in the running build
        self.shapes = {}      # template -> its code shape in the running build
        self.version = 0

    def templates(self):
        views = self.package / "Views"
        found = {}
        for path in views.rglob("*"):
            if path.suffix in (".html", ".txt") and path.is_file() and "locales" not in path.parts:
                found[str(path.relative_to(self.package))] = path.read_text()
        return found

    def tool(self):
        found = sorted(self.package.glob(".build/*/debug/TesseraViewCompiler-tool"))
        return found[0] if found else None

    def reset(self, templates):
        """A new build runs, made from `templates`: nothing saved applies to it."""
        self.built, self.shapes, self.version = templates, {}, 0
        shutil.rmtree(MARKUP, ignore_errors=True)
        MARKUP.mkdir(parents=True)
        (MARKUP / "version").write_text("0")

    def compile(self, tool, template, text):
        """(shape, runs) of `text` as the template `template`, or None when it does not compile."""
        parts = pathlib.PurePath(template).parts
        with tempfile.NamedTemporaryFile("w", suffix=pathlib.PurePath(template).suffix, delete=False) as file:
            file.write(text)
        try:
            result = subprocess.run([str(tool), "markup", file.name, "--display-path", template, "--relative-path", str(pathlib.PurePath(*parts[2:]))],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        finally:
            os.unlink(file.name)
        if result.returncode != 0:
            return None
        found = json.loads(result.stdout)
        return found["shape"], found["runs"]

    def save(self, paths):
        """Saves the markup of the changed `paths` when each is a template of the running build
        whose code shape is unchanged; returns False, saving nothing, when any needs a build."""
        tool = self.tool()
        if tool is None or not self.built:
            return False
        runs = {}
        for path in paths:
            template = os.path.relpath(path, self.package)
            if template not in self.built or not os.path.isfile(path) or len(pathlib.PurePath(template).parts) < 3:
                return False
            if template not in self.shapes:
                compiled = self.compile(tool, template, self.built[template])
                if compiled is None:
                    return False
                self.shapes[template] = compiled[0]
            text = pathlib.Path(path).read_text()
            compiled = self.compile(tool, template, text)
            if compiled is None or compiled[0] != self.shapes[template]:
                return False
            runs[template] = None if text == self.built[template] else compiled[1]
        for template, template_runs in runs.items():
            target = MARKUP / (template + ".json")
            if template_runs is None:
                target.unlink(missing_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_suffix(".partial")
            partial.write_text(json.dumps(template_runs))
            os.replace(partial, target)
        # The runs first, then the count: a page rendered at a count has every run saved up to it.
        self.version += 1
        partial = MARKUP / "version.partial"
        partial.write_text(str(self.version))
        os.replace(partial, MARKUP / "version")
        return True


class Server:
    """The app's process, restarted on the same data folder for every good build."""

    def __init__(self, binary, port, data, seed):
        self.binary, self.port, self.data, self.process = binary, port, data, None
        self.seeded = not seed

    def restart(self, build_name):
        self.stop()
        environment = dict(os.environ, PORT=str(self.port), DATA_DIR=str(self.data),
                           TESSERA_DEV_BUILD=build_name, TESSERA_DEV_STATUS=str(STATUS), TESSERA_DEV_MARKUP=str(MARKUP))
        environment.setdefault("LOG_LEVEL", "notice")
        if not self.seeded and not environment.get("DATABASE_URL") and not any(self.data.iterdir()):
            # A new data folder: the demo shop with its photos, which only `storefront seed` draws.
            seed = subprocess.run([str(self.binary), "seed"], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL)
            if seed.returncode != 0:
                log(f"{self.binary.name} seed exited with status {seed.returncode}; serving without the demo data")
        self.seeded = True
        self.process = subprocess.Popen([str(self.binary)], cwd=ROOT, env=environment)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log(f"the server exited with status {self.process.returncode}")
                return False
            # Any answer will do: the app is up once it answers HTTP, whatever its routes.
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=1):
                    return True
            except urllib.error.HTTPError:
                return True
            except OSError:
                time.sleep(0.02)
        log("the server did not answer within 60 s")
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
    options = argparse.ArgumentParser(description="Rebuild and restart an app on every saved change.")
    options.add_argument("--package-path", default=str(ROOT), help="the app's package (default: Tessera's, for the storefront)")
    options.add_argument("--product", default="storefront", help="the app's executable (default: storefront)")
    options.add_argument("--seed", action="store_true", help="fill a new data folder with `PRODUCT seed` first")
    arguments = options.parse_args()
    package = pathlib.Path(arguments.package_path).resolve()
    port = int(os.environ.get("PORT", "8080"))
    data = pathlib.Path(os.environ.get("DATA_DIR", DEV / "data")).resolve()
    data.mkdir(parents=True, exist_ok=True)
    DEV.mkdir(parents=True, exist_ok=True)
    STATUS.unlink(missing_ok=True)
    server = Server(package / ".build" / "debug" / arguments.product, port, data, arguments.seed)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    files = snapshot(package)
    markup = Markup(package)
    builds = 0
    pending = True  # the first build
    try:
        while True:
            if pending:
                pending = False
                started = time.monotonic()
                templates = markup.templates()
                ok, output = build(package, arguments.product)
                if ok:
                    STATUS.unlink(missing_ok=True)
                    markup.reset(templates)
                    builds += 1
                    built = time.monotonic()
                    if server.restart(f"{os.getpid()}-{builds}"):
                        log(f"built in {built - started:.1f} s, serving in {time.monotonic() - built:.1f} s more "
                            f"on http://localhost:{port}/")
                else:
                    messages = failure_messages(output, package)
                    STATUS.write_text(messages)
                    print(output, flush=True)
                    log("the build failed; the last good build goes on serving, and open pages show why")
            time.sleep(POLL)
            now = snapshot(package)
            if changed(files, now):
                time.sleep(SETTLE)
                now = snapshot(package)
                paths = sorted({path for path, _ in changed(files, now)})
                log("changed: " + ", ".join(os.path.relpath(path, package) for path in paths[:3]))
                files = now
                started = time.monotonic()
                if not STATUS.exists() and markup.save(paths):
                    log(f"markup saved in {time.monotonic() - started:.2f} s, without a rebuild; open pages reload")
                else:
                    pending = True
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.stop()
        STATUS.unlink(missing_ok=True)
        shutil.rmtree(MARKUP, ignore_errors=True)


if __name__ == "__main__":
    main()

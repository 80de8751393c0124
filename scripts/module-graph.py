#!/usr/bin/env python3
"""The module graph matches the layers: each target of Package.swift may depend on, and its
sources import, only the modules its layer allows. `make test` runs it; a new edge is a
decision, written here with its reason, not an accident of an import.

Usage: scripts/module-graph.py   (from the repository's root; exits 1 naming each stray edge)
"""
import json
import pathlib
import re
import subprocess
import sys

C = {"CMicroHTTPD", "CTesseraShim", "CZlib", "CZstd", "CVips", "CTesseraImages", "CLibPQ", "CTesseraLoop"}

# What each target may use of this package, from the bottom up (Package.swift's own comment
# says why each layer is where it is).
ALLOWED = {
    "CTesseraShim": {"CMicroHTTPD"},
    "CTesseraImages": {"CVips"},
    "CTesseraTLS": set(),
    # JSON written in place: nothing but Foundation, under the server and the views alike.
    "TesseraJSON": set(),
    # The views' runtime and their compiler know nothing of HTTP.
    "TesseraViews": {"TesseraJSON"},
    "TesseraTemplateCompiler": {"TesseraViews", "TesseraJSON"},
    "TesseraViewCompiler": {"TesseraTemplateCompiler", "TesseraViews", "TesseraJSON"},
    # The loops, their timers and DatabaseUnavailable: no HTTP, no database.
    "TesseraLoop": {"CTesseraLoop"},
    # The server: libmicrohttpd's types stop here.
    "TesseraHTTP": {"CTesseraShim", "CMicroHTTPD", "TesseraLoop", "TesseraJSON"},
    # The framework an app uses.
    "Tessera": {"TesseraHTTP", "TesseraViews", "TesseraJSON", "CZlib", "CZstd"},
    # Mail and passkeys each sit on the framework, which links neither.
    "TesseraMail": {"Tessera", "TesseraHTTP", "TesseraViews", "CTesseraTLS"},
    "TesseraPasskeys": {"Tessera", "TesseraHTTP", "TesseraViews"},
    # Databases know no mail: the outbox lives in an adapter per database. Images only libvips.
    "TesseraSQLite": {"Tessera", "TesseraHTTP", "TesseraViews"},
    # The libpq driver stands on the loops alone: no HTTP, no framework.
    "TesseraPostgresDriver": {"TesseraLoop", "CLibPQ", "CTesseraTLS"},
    "TesseraPostgres": {"Tessera", "TesseraHTTP", "TesseraLoop", "TesseraViews", "TesseraPostgresDriver", "CLibPQ"},
    "TesseraMailSQLite": {"TesseraMail", "TesseraSQLite", "Tessera", "TesseraHTTP", "TesseraViews"},
    "TesseraMailPostgres": {"TesseraMail", "TesseraPostgres", "Tessera", "TesseraHTTP", "TesseraViews"},
    "TesseraImages": {"Tessera", "TesseraHTTP", "TesseraViews", "CTesseraImages", "CVips"},
    "TesseraTesting": {"Tessera", "TesseraHTTP", "TesseraViews", "CZlib"},
    # Features: the catalog and accounts know no other feature; orders may use both; the back
    # office uses all three. None knows the composition root.
    "Catalog": {"Tessera", "TesseraHTTP", "TesseraViews", "TesseraSQLite", "TesseraPostgres", "TesseraImages"},
    "Accounts": {"Tessera", "TesseraHTTP", "TesseraViews", "TesseraSQLite", "TesseraPostgres", "TesseraPasskeys", "TesseraMail", "TesseraMailSQLite", "TesseraMailPostgres"},
    "Orders": {"Tessera", "TesseraHTTP", "TesseraViews", "TesseraSQLite", "TesseraPostgres", "TesseraMail", "Catalog", "Accounts"},
    "BackOffice": {"Tessera", "TesseraHTTP", "TesseraViews", "TesseraMail", "Catalog", "Accounts", "Orders"},
    # The composition root and the bench app may use every library.
    "Storefront": None,
    "TesseraBench": {"Tessera", "TesseraHTTP", "TesseraViews", "TesseraSQLite", "TesseraPostgres"},
    # The generator writes its files through typed text views: the views' runtime, no HTTP.
    "TesseraCLI": {"TesseraViews", "TesseraJSON"},
}


def main() -> int:
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
    targets = {t["name"]: t for t in manifest["targets"]}
    ours = set(targets)
    problems = []
    for name, target in targets.items():
        if target["type"] in ("test", "plugin", "system", "system-target") or name == "PostgresTestSupport":
            continue
        if name not in ALLOWED:
            problems.append(f"{name}: a target with no layer in scripts/module-graph.py")
            continue
        allowed = ALLOWED[name]
        if allowed is None:
            continue
        declared = {v[0] for dep in target.get("dependencies", []) for k, v in dep.items() if k != "product"}
        for dep in sorted(declared - allowed):
            problems.append(f"{name} depends on {dep} (Package.swift), which its layer does not allow")
        folder = pathlib.Path("Sources") / name
        for source in sorted(folder.rglob("*.swift")):
            for number, line in enumerate(source.read_text().splitlines(), 1):
                # An import starts its line; an indented one is text in a string (the
                # generators' templates), which this module does not import.
                match = re.match(r"(?:@_exported\s+|@testable\s+)?(?:public\s+|internal\s+|package\s+)?import\s+(?:\w+\s+)?(\w+)", line)
                if match and match.group(1) in ours and match.group(1) not in allowed:
                    problems.append(f"{source}:{number}: imports {match.group(1)}, which {name}'s layer does not allow")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"module graph: {len(ALLOWED)} targets within their layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())

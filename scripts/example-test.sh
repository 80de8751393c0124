#!/usr/bin/env bash
# The Getting Started guide is an app: Examples/GettingStarted, its own package that depends on
# Tessera by path. This checks that every block of code in the guide (GettingStarted.md) is a file,
# or part of a file, of that package, then builds the package and runs its tests. It shares
# nothing with the main build but the package cache: it compiles Tessera again, in debug, as a
# user's package does (about 80 s on two cores).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PYTHON'
import pathlib, re, sys
guide = pathlib.Path("Sources/Tessera/Tessera.docc/GettingStarted.md").read_text()
example = pathlib.Path("Examples/GettingStarted")
files = {path: path.read_text() for path in example.rglob("*") if path.is_file() and ".build" not in path.parts}
blocks = re.findall(r"```(swift|html)\n(.*?)```", guide, re.S)
missing = [code for _, code in blocks if not any(code in text for text in files.values())]
for code in missing:
    print("GettingStarted.md has code that is in no file of Examples/GettingStarted:\n" + code, file=sys.stderr)
if missing or not blocks:
    sys.exit(1)
print(f"the guide's {len(blocks)} blocks of code are all in Examples/GettingStarted")
PYTHON

# A debug build in the package's own .build, as its author's `swift build` makes; the dev-reload
# test (scripts/dev-reload-test.sh) then rebuilds it, incrementally, in the same environment.
scripts/swift.sh build --package-path Examples/GettingStarted --build-tests
scripts/swift.sh test --package-path Examples/GettingStarted --skip-build

#!/usr/bin/env bash
# The Getting Started guide's app is what the generators make: Examples/GettingStarted is
# `tessera new Cookbook` with one `tessera generate resource`, checked in. This makes them again in
# a new folder and fails on any difference, so the generators, the example and the guide cannot
# drift apart; checks the generators' refusals (nothing written); checks that every block of code
# in the guide (GettingStarted.md) is a file, or part of a file, of the example; then builds the
# example and runs its tests. The build shares nothing with the main one but the package cache: it
# compiles Tessera again, in debug, as a user's package does.
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
tessera="$test_bin/tessera"
example=Examples/GettingStarted
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The example, made again: the same two commands as the guide's.
"$tessera" new Cookbook --directory "$work" --tessera-path ../.. >/dev/null
(cd "$work/Cookbook" && "$tessera" generate resource Recipe name:string minutes:int steps:text vegetarian:bool >/dev/null)
if ! diff -r --exclude=.build --exclude=Package.resolved "$work/Cookbook" "$example"; then
  echo "$example is not what the generators make now (above: generated, then the example); make it again (GettingStarted.md says how)" >&2
  exit 1
fi

# Each refusal says why, exits 1, and leaves the app as it was.
refuse() {
  local expected=$1; shift
  local before after output status=0
  before=$(cd "$work" && find . -type f -exec sha256sum {} + | sort)
  output=$("$@" 2>&1) || status=$?
  after=$(cd "$work" && find . -type f -exec sha256sum {} + | sort)
  if [ "$status" -ne 1 ] || [[ "$output" != *"$expected"* ]] || [ "$before" != "$after" ]; then
    echo "refusal expected for: $* (exit $status, wanted 1 and \"$expected\"): $output" >&2
    exit 1
  fi
}
refuse "is not a Swift type name" "$tessera" new shelf --directory "$work"
refuse "is not a Swift type name" "$tessera" new "Shelf-App" --directory "$work"
refuse "exists already" "$tessera" new Cookbook --directory "$work"
# Without --tessera-path, the working directory must be a Tessera checkout: never the path the
# binary was built from.
(cd "$work" && refuse "is not a Tessera checkout" "$tessera" new Shelf)
defaulted=$(mktemp -d)
"$tessera" new Shelf --directory "$defaulted" >/dev/null
if ! grep -qF ".package(name: \"tessera\", path: \"$PWD\")" "$defaulted/Shelf/Package.swift"; then
  echo "tessera new without --tessera-path did not depend on the working directory's checkout" >&2
  rm -rf "$defaulted"
  exit 1
fi
rm -rf "$defaulted"
refuse "The app declares Recipe," "$tessera" generate resource Recipe name:string --directory "$work/Cookbook"
refuse "is not one of string, text, int, bool" "$tessera" generate resource Note body:strin --directory "$work/Cookbook"
refuse "is not name:type" "$tessera" generate resource Note body --directory "$work/Cookbook"
refuse "is taken by Swift or the generated code" "$tessera" generate resource Note id:int --directory "$work/Cookbook"
refuse "is given twice" "$tessera" generate resource Note body:text body:string --directory "$work/Cookbook"
refuse "is not the folder of an app" "$tessera" generate resource Note body:text --directory "$work"
refuse "would name a variable" "$tessera" generate resource Class name:string --directory "$work/Cookbook"
refuse "is taken by Swift or the generated code" "$tessera" generate resource Note form:string --directory "$work/Cookbook"
refuse "is taken by Swift or the generated code" "$tessera" generate resource Note repeat:bool --directory "$work/Cookbook"
refuse "The app declares RecipeForm" "$tessera" generate resource RecipeForm name:string --directory "$work/Cookbook"
echo "the generators make $example again, byte for byte, and refuse 13 wrong commands writing nothing"

# A resource of checkboxes alone has no form that can be sent wrong: its tests leave that test
# out, and no blank line doubles where it was.
"$tessera" generate resource Setting enabled:bool --directory "$work/Cookbook" >/dev/null
if doubled=$(grep -rlPz '\n\n\n' "$work/Cookbook/Sources" "$work/Cookbook/Tests" "$work/Cookbook/Views"); then
  echo "the generated files have a doubled blank line: $doubled" >&2
  exit 1
fi
grep -q "aFormWithMistakes" "$work/Cookbook/Tests/CookbookTests/SettingsTests.swift" && {
  echo "a resource of checkboxes alone got a test for a form that cannot be sent wrong" >&2
  exit 1
}
echo "a resource of checkboxes alone is generated without the mistakes test, and no blank line doubles"

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
scripts/swift.sh build --package-path "$example" --build-tests
scripts/swift.sh test --package-path "$example" --skip-build

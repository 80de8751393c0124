#!/usr/bin/env bash
# `swift`, always in the same environment. SwiftPM plans a build anew, and reruns every template's
# command (then recompiles every module with templates), whenever an environment variable differs
# from the last build's: a make's MAKELEVEL, a shell's SHLVL, a test harness's PORT. So every
# build in the Makefile and the scripts goes through here, with only what a build reads:
# the tools' PATH, HOME (SwiftPM's caches and git's settings), the locale, a proxy and CA bundle
# if the machine needs them, and PKG_CONFIG_PATH pointing first at Tessera's own libmicrohttpd
# (scripts/build-libmicrohttpd.sh), and TESSERA_VIEWS, below. SWIFT names another swift.
#
# `scripts/swift.sh test …` keeps the caller's environment instead, which the tests read (the
# PostgreSQL cluster's URL, say): build first, then test with --skip-build, which plans the build
# (and writes its manifest, which a test reads) but compiles nothing.
#
#   scripts/swift.sh build …     scripts/swift.sh test --skip-build …     scripts/swift.sh package …
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
pkgconfig="$root/.build-deps/libmicrohttpd/lib/pkgconfig"
case ":${PKG_CONFIG_PATH:-}:" in
  *":$pkgconfig:"*) ;;
  *) PKG_CONFIG_PATH="$pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" ;;
esac
if [ "${1:-}" = test ]; then
  export PKG_CONFIG_PATH
  exec "${SWIFT:-swift}" "$@"
fi
kept=("PKG_CONFIG_PATH=$PKG_CONFIG_PATH")
# SwiftPM also keeps its plan while the package's Views/ (outside every target's folder) gains or
# loses a template: a new view's type is then not found, and a removed template's command stops
# the build at its "missing inputs". The list of templates, hashed, is one more variable, so a
# changed list makes SwiftPM plan anew, and an unchanged one costs nothing.
package=.
for ((i = 1; i <= $#; i++)); do
  case "${!i}" in
    --package-path) next=$((i + 1)); package="${!next:-.}" ;;
    --package-path=*) package="${!i#--package-path=}" ;;
  esac
done
views=$({ cd "$package" 2>/dev/null && find Views Sources/*/Views Tests/*/Views -type f \( -name '*.html' -o -name '*.txt' -o -name '*.json' \) 2>/dev/null || true; } \
  | LC_ALL=C sort | sha256sum | cut -c1-16)
kept+=("TESSERA_VIEWS=$views")
for name in PATH HOME TMPDIR LANG LC_ALL http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY \
            SSL_CERT_FILE SSL_CERT_DIR GIT_SSL_CAINFO XDG_CACHE_HOME XDG_CONFIG_HOME; do
  [ -n "${!name+set}" ] && kept+=("$name=${!name}")
done
exec env -i "${kept[@]}" "${SWIFT:-swift}" "$@"

#!/usr/bin/env bash
# Installs the system packages Tessera needs, and only those that are missing, then builds
# libmicrohttpd from Debian's source with Tessera's patches (scripts/build-libmicrohttpd.sh).
# Usage: scripts/install-deps.sh [build|bench|browser|image|postgres|nginx|techempower|python|tls|test]
# (build is the default; test is everything `make test` uses, in one apt transaction).
set -euo pipefail
cd "$(dirname "$0")/.."

# zlib for gzip answers, zstd for pages compressed against a dictionary, libvips for photos,
# OpenSSL for mail over TLS (libpq links it too).
# libmicrohttpd's build needs a C compiler, make, patch, xz and Debian's archive key.
want=(libsqlite3-dev zlib1g-dev libzstd-dev libvips-dev libpq-dev libssl-dev pkg-config gcc make patch xz-utils debian-archive-keyring)
bench=(wrk python3 util-linux libpq-dev curl)
browser=(chromium chromium-driver python3 python3-venv curl)
command -v java >/dev/null || browser+=(default-jre-headless)
image=(podman runc debootstrap python3 binutils)
# procps: the stall test stops the cluster's processes, found with pgrep.
postgres=(postgresql python3 util-linux procps openssl)
# curl: the rolling deploy asks each new instance whether it is ready.
nginx=(nginx-light python3 curl)
# TechEmpower's verifier counts a route's queries while siege sends it 512 requests at once.
techempower=(siege postgresql python3 python3-venv util-linux git)
# The tests' own virtual environments (scripts/venv.sh).
python=(python3 python3-venv)
# The TLS tests' throwaway certificate authority (scripts/test-ca.sh).
tls=(openssl)
case "${1:-build}" in
  build) ;;
  bench) want+=("${bench[@]}") ;;
  browser) want+=("${browser[@]}") ;;
  image) want+=("${image[@]}") ;;
  postgres) want+=("${postgres[@]}") ;;
  nginx) want+=("${nginx[@]}") ;;
  techempower) want+=("${techempower[@]}") ;;
  python) want+=("${python[@]}") ;;
  tls) want+=("${tls[@]}") ;;
  test) want+=("${bench[@]}" "${browser[@]}" "${image[@]}" "${postgres[@]}" "${nginx[@]}" "${techempower[@]}" "${python[@]}" "${tls[@]}") ;;
  *) echo "usage: $0 [build|bench|browser|image|postgres|nginx|techempower|python|tls|test]" >&2; exit 2 ;;
esac

# One install at a time: make test's steps may ask at once, and dpkg has a single lock.
mkdir -p .build-deps
exec 8> .build-deps/install.lock
flock 8

missing=()
for package in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "Tessera needs: ${missing[*]}. Install them with your system's package manager." >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Installing ${missing[*]} needs root or sudo." >&2; exit 1; }
    sudo="sudo"
  fi
  echo "Installing ${missing[*]} …"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

scripts/build-libmicrohttpd.sh

#!/usr/bin/env bash
# Builds libmicrohttpd from Debian's own source package (bookworm, 0.9.75-6, with Debian's patches),
# plus Tessera's patches in scripts/libmicrohttpd/, as a static library in .build/libmicrohttpd.
#
# Why not the shared library from libmicrohttpd12: 0.9.75 writes its own error answer's status
# line and headers twice when a request's Content-Length is malformed or too large (the
# HEADERS_RECEIVED step goes on after queuing the error), and no callback lets an application
# stop it. Upstream rewrote that code in 0.9.76; Debian bookworm ships 0.9.75. Linking it
# statically also leaves the binary needing no libmicrohttpd at run time.
#
# The Makefile points pkg-config here (PKG_CONFIG_PATH), so `swift build` through make, the
# benchmark's C reference and the container build all use this build. Run again, it does nothing
# unless the patches changed. Usage: scripts/build-libmicrohttpd.sh [PREFIX]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="${1:-$root/.build/libmicrohttpd}"
version="0.9.75"
debian_revision="0.9.75-6"
# The source package as Debian signed it; apt checks these too, through the archive's signature.
orig_sha256="796e7e217a4802679fcac667a4e98501c53185dcf50ca0583870e84192620131"
debian_sha256="566c247bfbf67e20858705ae695f58db747d50ed8512f2bc46a28bef9086e5af"

stamp="$prefix/.built-$(cat "$root"/scripts/libmicrohttpd/*.patch | sha256sum | cut -c1-16)"
[ -f "$stamp" ] && exit 0

work="$prefix.work"
rm -rf "$work" "$prefix"
mkdir -p "$work/apt/lists/partial" "$work/apt/parts"
echo "Building libmicrohttpd $debian_revision from Debian's source package, with Tessera's patches …"

# Only Debian's archive, through apt's own client, in a private state folder: the system's apt
# configuration is neither read nor changed.
cat > "$work/apt/parts/debian-sources.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
: > "$work/apt/none.list"
apt_options=(-o "Dir::Etc::SourceList=$work/apt/none.list" -o "Dir::Etc::SourceParts=$work/apt/parts"
             -o "Dir::State::Lists=$work/apt/lists" -o "APT::Sandbox::User=$(id -un)" -qq)
apt-get "${apt_options[@]}" update
(cd "$work" && apt-get "${apt_options[@]}" source --download-only "libmicrohttpd=$debian_revision")

cd "$work"
echo "$orig_sha256  libmicrohttpd_$version.orig.tar.xz" | sha256sum --check --quiet
echo "$debian_sha256  libmicrohttpd_$debian_revision.debian.tar.xz" | sha256sum --check --quiet
tar xf "libmicrohttpd_$version.orig.tar.xz"
tar xf "libmicrohttpd_$debian_revision.debian.tar.xz" -C "libmicrohttpd-$version"
cd "libmicrohttpd-$version"
while read -r patch; do
  [ -n "$patch" ] && patch -p1 --quiet < "debian/patches/$patch"
done < debian/patches/series
for patch in "$root"/scripts/libmicrohttpd/*.patch; do
  patch -p1 --quiet < "$patch"
done

# No TLS (a proxy in front terminates it), no docs or examples; everything else as upstream.
./configure --quiet --prefix="$prefix" --disable-shared --enable-static --with-pic \
  --disable-https --disable-doc --disable-examples --disable-curl > "$work/configure.log"
make --quiet -j"$(nproc)" install > "$work/make.log"

cd "$root"
rm -rf "$work"
touch "$stamp"
echo "libmicrohttpd is in $prefix"

#!/usr/bin/env bash
# Builds libmicrohttpd from Debian's own source package (bookworm, 0.9.75-6, with Debian's patches),
# plus Tessera's patches in scripts/libmicrohttpd/, as a static library in .build-deps/libmicrohttpd.
#
# Why not Debian's shared library: 0.9.75 writes its own error answer's head twice for a malformed
# Content-Length, closes without a word when a request's head fills the connection's memory or
# its request line has no method, and no callback lets an application prevent any of it
# (upstream fixed the first in 1.0.0; Debian bookworm ships 0.9.75). Each patch says what it fixes.
# Linking statically also leaves the binary needing no libmicrohttpd at run time.
#
# The Makefile points pkg-config here (PKG_CONFIG_PATH); the patched header defines
# TESSERA_MHD_PATCHES, and the C shim refuses to compile without it, so a build against the
# system's unpatched library fails loudly instead of running with its bugs. The folder is outside
# .build so that `swift package clean` keeps it. Run again, it does nothing unless this script or
# a patch changed. Needs to reach deb.debian.org the first time.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.build-deps/libmicrohttpd"
version="0.9.75"
debian_revision="0.9.75-6"
# The source package as Debian signed it; apt checks it too, through the archive's signature.
orig_sha256="796e7e217a4802679fcac667a4e98501c53185dcf50ca0583870e84192620131"
debian_sha256="566c247bfbf67e20858705ae695f58db747d50ed8512f2bc46a28bef9086e5af"

mkdir -p "$(dirname "$prefix")"
exec 9> "$prefix.lock"
flock 9   # two makes at once wait for each other instead of deleting each other's work

stamp_name=".built-$(cat "$0" "$root"/scripts/libmicrohttpd/*.patch | sha256sum | cut -c1-16)"
[ -f "$prefix/$stamp_name" ] && exit 0

work="$prefix.work"
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/apt/parts"
trap 'echo "libmicrohttpd build failed; its logs are in $work" >&2; tail -n 20 "$work"/*.log 2>/dev/null >&2 || true' ERR
echo "Building libmicrohttpd $debian_revision from Debian's source package, with Tessera's patches …"

# Only Debian's archive, through apt's own client, with its lists and caches in the work folder:
# the system's package lists and caches are left as they are (its apt.conf.d settings, such as a
# proxy, still apply).
cat > "$work/apt/parts/debian-sources.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
: > "$work/apt/none.list"
apt_options=(-o "Dir::Etc::SourceList=$work/apt/none.list" -o "Dir::Etc::SourceParts=$work/apt/parts"
             -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache"
             -o "APT::Sandbox::User=$(id -un)" -qq)
apt-get "${apt_options[@]}" update
if ! (cd "$work" && apt-get "${apt_options[@]}" source --download-only "libmicrohttpd=$debian_revision"); then
  echo "Debian's archive no longer serves libmicrohttpd $debian_revision (a point release replaced it?)." >&2
  echo "Update debian_revision, the hashes and the patches in $0." >&2
  exit 1
fi

cd "$work"
echo "$orig_sha256  libmicrohttpd_$version.orig.tar.xz" | sha256sum --check --quiet
echo "$debian_sha256  libmicrohttpd_$debian_revision.debian.tar.xz" | sha256sum --check --quiet
tar xf "libmicrohttpd_$version.orig.tar.xz"
tar xf "libmicrohttpd_$debian_revision.debian.tar.xz" -C "libmicrohttpd-$version"
cd "libmicrohttpd-$version"
grep -v '^[[:space:]]*\(#\|$\)' debian/patches/series | while read -r patch; do
  patch -p1 --quiet --fuzz=0 < "debian/patches/$patch"
done
for patch in "$root"/scripts/libmicrohttpd/*.patch; do
  patch -p1 --quiet --fuzz=0 < "$patch"
done

# No TLS (a proxy in front terminates it), no docs or examples; everything else as upstream.
# Installed into a staging folder, then moved into place whole.
./configure --quiet --prefix="$prefix" --disable-shared --enable-static --with-pic \
  --disable-https --disable-doc --disable-examples --disable-curl > "$work/configure.log"
make --quiet -j"$(nproc)" > "$work/make.log"
make --quiet install DESTDIR="$work/stage" >> "$work/make.log"

rm -rf "$prefix"
mv "$work/stage$prefix" "$prefix"
touch "$prefix/$stamp_name"
cd "$root"
rm -rf "$work"
echo "libmicrohttpd is in $prefix"

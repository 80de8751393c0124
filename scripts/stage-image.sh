#!/usr/bin/env bash
# What the image's /app gets besides Public/: the storefront, stripped, and beside it the Swift
# runtime libraries it links (its run path ends in $ORIGIN), taken from the toolchain that built
# it. The image then needs no Swift, and the binary is the one the tests ran: a second, static
# build of every module for the image cost minutes (decision 0029); this costs seconds.
#
#   scripts/stage-image.sh BINARY FOLDER
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BINARY FOLDER" >&2; exit 2; }
binary=$1
folder=$2
[ -x "$binary" ] || { echo "$0: no binary at $binary" >&2; exit 1; }

# The folders of the run path other than $ORIGIN: where the toolchain's libraries are.
runpath=$(readelf -d "$binary" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' | tr ':' '\n')
grep -qx '\$ORIGIN' <<< "$runpath" || { echo "$0: $binary does not look for libraries beside itself (\$ORIGIN)" >&2; exit 1; }
toolchain=$(grep -vx '\$ORIGIN' <<< "$runpath" || true)

rm -rf "$folder"
mkdir -p "$folder"
strip -o "$folder/storefront" "$binary"
copied=0
while read -r library; do
  grep -qxF "$(dirname "$library")" <<< "$toolchain" || continue
  strip --strip-unneeded -o "$folder/$(basename "$library")" "$library"
  copied=$((copied + 1))
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3}')
[ "$copied" -gt 0 ] || { echo "$0: found none of Swift's runtime libraries for $binary" >&2; exit 1; }
echo "$folder: the storefront and $copied of Swift's runtime libraries, $(du -sm "$folder" | cut -f1) MB"

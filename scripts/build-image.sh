#!/usr/bin/env bash
# `make image`: the storefront's image, tagged tessera-storefront (localhost/tessera-storefront),
# built with podman on a machine that reaches no registry. The base is Debian bookworm made with
# debootstrap from Debian's mirror (once, kept in .build/podman); the binary is make test's own
# (scripts/test-build.sh), staged with Swift's runtime libraries by scripts/stage-image.sh and
# copied in (BINARY_FROM=prebuilt). With a registry, `docker build .` needs none of this.
#
#   scripts/build-image.sh             the image, from the binary already built
#   scripts/build-image.sh --prepare   only what needs no binary: the base image and the layers
#                                      under the binary, which make test makes while it compiles
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
mode=${1:-image}
case "$mode" in image|--prepare) ;; *) echo "usage: $0 [--prepare]" >&2; exit 2 ;; esac

scripts/install-deps.sh image
source scripts/podman-env.sh

base=localhost/debian:bookworm-slim
if ! podman image exists "$base"; then
  echo "Making the base image $base with debootstrap …"
  rootfs="$podman_root/rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > "$podman_root/debootstrap.log"
  # What debian:bookworm-slim leaves out too: downloaded packages, package lists, old copies of
  # the package databases, docs, manuals, translations, lintian overrides, shell completions.
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
         "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/lib/dpkg/*-old \
         "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
         "$rootfs"/usr/share/lintian/* "$rootfs"/usr/share/bash-completion/*
  tar -C "$rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$base" > /dev/null
  rm -rf "$rootfs"
fi

# The layers under the binary, tagged so that pruning keeps them for the next build. The docker
# format: OCI images have no HEALTHCHECK.
podman build --quiet --format docker --target runtime -t tessera-storefront-runtime \
  --build-arg RUNTIME_IMAGE="$base" --build-arg BINARY_FROM=prebuilt . > /dev/null
[ "$mode" = --prepare ] && exit 0

scripts/stage-image.sh "${STOREFRONT_BINARY:-$test_bin/storefront}" .build/image
podman build --quiet --format docker -t tessera-storefront \
  --build-arg RUNTIME_IMAGE="$base" --build-arg BINARY_FROM=prebuilt . > /dev/null
podman image prune --force > /dev/null   # the intermediate stages of earlier builds
size=$(podman image inspect localhost/tessera-storefront --format '{{.Size}}')
echo "localhost/tessera-storefront: $((size / 1000000)) MB"

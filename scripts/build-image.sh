#!/usr/bin/env bash
# `make image`: the storefront's image, tagged tessera-storefront (localhost/tessera-storefront),
# built with podman on a machine that reaches no registry: the base is Debian bookworm made with
# debootstrap from Debian's mirror (once, kept in .build/podman), and the release binary is built
# on the host and copied in (BINARY_FROM=prebuilt). With a registry, `docker build .` needs none
# of this.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh image
# Built before podman's settings enter the environment: SwiftPM replans and recompiles for any
# change of environment, and the soak builds the same binary without them.
PKG_CONFIG_PATH="$(pwd)/.build-deps/libmicrohttpd/lib/pkgconfig" \
  swift build -c release --product storefront --static-swift-stdlib
mkdir -p .build/image
# Symbols off: the image carries no debugger, and they are most of the binary's size.
# The same flags as the build: a different set makes SwiftPM plan again, and the soak's build of
# this binary then relinked the views tool and recompiled every template.
strip -o .build/image/storefront "$(swift build -c release --static-swift-stdlib --show-bin-path)/storefront"

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


# The docker format: OCI images have no HEALTHCHECK.
podman build --quiet --format docker -t tessera-storefront \
  --build-arg RUNTIME_IMAGE="$base" --build-arg BINARY_FROM=prebuilt . > /dev/null
podman image prune --force > /dev/null   # the intermediate stages of earlier builds
size=$(podman image inspect localhost/tessera-storefront --format '{{.Size}}')
echo "localhost/tessera-storefront: $((size / 1000000)) MB"

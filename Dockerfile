# The storefront's image: the release binary with the Swift runtime libraries it links, on a slim
# Debian, running as a non-root user, with its data on a volume.
#
#   docker build -t tessera-storefront .                      # with a registry: compiles in `swift`
#   make image                                                # offline: podman, a debootstrap base,
#                                                             # and make test's binary, built on the host
#
# The base images are arguments, so the same file serves both: the official images by default,
# or a locally made Debian (RUNTIME_IMAGE) and a binary built beforehand (BINARY_FROM=prebuilt,
# which copies .build/image/, made by scripts/stage-image.sh). Either way scripts/stage-image.sh
# puts the stripped binary and Swift's runtime libraries side by side (decision 0029).
# A Swift image on Debian bookworm, like the runtime: the binary links the runtime's glibc.
ARG SWIFT_IMAGE=swift:6.1-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
ARG BINARY_FROM=build

# --- The release binary, compiled here, with the OTLP exporter. libmicrohttpd is built from
# Debian's source with Tessera's patches and linked statically.
FROM ${SWIFT_IMAGE} AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh build \
 && PKG_CONFIG_PATH=/src/.build-deps/libmicrohttpd/lib/pkgconfig \
    swift build -c release --product storefront --traits OTLP \
 && scripts/stage-image.sh .build/release/storefront .build/image

# --- Or the binary make test built and tested on the host (make image does this offline).
FROM ${RUNTIME_IMAGE} AS prebuilt
WORKDIR /src
COPY .build/image/ .build/image/

FROM ${BINARY_FROM} AS binary

# --- Debian's CA certificates, as one bundle: the package would bring OpenSSL along.
FROM ${RUNTIME_IMAGE} AS certificates
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates

# --- Everything but the binary: SQLite, libvips (photos) and libpq (PostgreSQL) from Debian,
# the CA bundle, the user.
# A stage of its own, so that a new binary reuses these layers (scripts/build-image.sh makes
# them while the binary compiles).
FROM ${RUNTIME_IMAGE} AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 libvips42 libpq5 libzstd1 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log /usr/share/doc/* \
 && useradd --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin storefront \
 && mkdir -p /data \
 && chown storefront:storefront /data
COPY --from=certificates /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt

# --- What runs: the binary beside its libraries, and the static files.
FROM runtime
WORKDIR /app
COPY --from=binary /src/.build/image/ /app/
COPY Public /app/Public
# A grace under `stop -t 10`: in-flight requests get 8 s, and the process is gone before SIGKILL.
ENV DATA_DIR=/data PUBLIC_DIR=/app/Public HOST=0.0.0.0 PORT=8080 SHUTDOWN_GRACE=8
VOLUME /data
EXPOSE 8080
USER storefront
# bash's /dev/tcp: a probe that needs no curl in the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT} && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# The exec form: SIGTERM from `stop` reaches the server itself, which drains and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/storefront"]

# The storefront's image: a static Swift binary on a slim Debian, running as a non-root user,
# with its data on a volume.
#
#   docker build -t tessera-storefront .                      # with a registry: compiles in `swift`
#   make image                                                # offline: podman, a debootstrap base,
#                                                             # and the binary built on the host
#
# The base images are arguments, so the same file serves both: the official images by default,
# or a locally made Debian (RUNTIME_IMAGE) and a binary built beforehand (BINARY_FROM=prebuilt,
# which copies .build/image/storefront).
# A Swift image on Debian bookworm, like the runtime: the binary links the runtime's glibc.
ARG SWIFT_IMAGE=swift:6.1-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
ARG BINARY_FROM=build

# --- The release binary, compiled here. libmicrohttpd is built from Debian's source with
# Tessera's patches and linked statically, as is the Swift standard library.
FROM ${SWIFT_IMAGE} AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh build \
 && PKG_CONFIG_PATH=/src/.build-deps/libmicrohttpd/lib/pkgconfig \
    swift build -c release --product storefront --static-swift-stdlib \
 && mkdir -p .build/image && strip -o .build/image/storefront .build/release/storefront

# --- Or the release binary the host built (make image does this offline).
FROM ${RUNTIME_IMAGE} AS prebuilt
WORKDIR /src
COPY .build/image/storefront .build/image/storefront

FROM ${BINARY_FROM} AS binary

# --- Debian's CA certificates, as one bundle: the package would bring OpenSSL along.
FROM ${RUNTIME_IMAGE} AS certificates
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates

# --- What runs: SQLite and libvips (photos) from Debian, the CA bundle, the binary and the static files.
FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 libvips42 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log /usr/share/doc/* \
 && useradd --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin storefront \
 && mkdir -p /data \
 && chown storefront:storefront /data
COPY --from=certificates /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
WORKDIR /app
COPY --from=binary /src/.build/image/storefront /app/storefront
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

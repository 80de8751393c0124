#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where and how the server listens. Every field has a production-safe default.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 or IPv6 address or a host name. `0.0.0.0` listens on every IPv4 interface.
    public var host: String
    /// `0` asks the system for a free port; ``HTTPServer`` reports the one it got.
    public var port: Int
    /// Threads polling connections (epoll), one per core by default.
    public var threads: Int
    /// How much a client may send, and for how long.
    public var limits: HTTPServerLimits
    /// How long in-flight requests may take to finish after a shutdown signal.
    public var shutdownGracePeriod: Duration
    /// How long, after a shutdown signal, the server goes on accepting connections while its
    /// state says ``HTTPServerState/Phase/draining`` (so a readiness check answers 503), before it
    /// stops accepting: time for a load balancer that polls readiness to stop sending. Zero, the
    /// default, stops accepting at once, which suits a single instance.
    public var drainDelay: Duration
    /// Sent with every response that does not set the same field itself, such as the security
    /// headers. Prepared responses include them once, when they are first built.
    public var defaultHeaders: HTTPFields
    /// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed; none by default.
    public var trustedProxies: TrustedProxies

    /// The address, threads, limits and headers to serve with; every value has a production default.
    public init(
        host: String = "0.0.0.0",
        port: Int = 8080,
        threads: Int = HTTPServerConfiguration.processorCount,
        limits: HTTPServerLimits = HTTPServerLimits(),
        shutdownGracePeriod: Duration = .seconds(10),
        drainDelay: Duration = .zero,
        defaultHeaders: HTTPFields = [:],
        trustedProxies: TrustedProxies = TrustedProxies()
    ) {
        self.defaultHeaders = defaultHeaders
        self.trustedProxies = trustedProxies
        self.host = host
        self.port = port
        self.threads = threads
        self.limits = limits
        self.shutdownGracePeriod = shutdownGracePeriod
        self.drainDelay = drainDelay
    }

    /// The number of cores the process may run on: the default thread count.
    public static var processorCount: Int {
        EventLoops.processorCount
    }
}

/// The limits that keep one client from hurting the others. Each is a knob because the right
/// value depends on the deployment (a proxy in front, large uploads, slow mobile clients).
public struct HTTPServerLimits: Sendable {
    /// A connection that sends nothing for this long is closed; it applies between requests
    /// (keep-alive) and within one. Whole seconds.
    public var idleTimeout: Duration
    /// A request line and headers must be complete this long after the connection started
    /// waiting for them (on accept, or after the previous answer), however steadily they trickle
    /// in: each byte restarts the idle timeout, so this is what cuts off slow-loris clients. The
    /// connection is then closed, by a timer on its loop at that deadline.
    public var headTimeout: Duration
    /// A request whose body is still arriving this long after its first byte is dropped.
    public var bodyReadTimeout: Duration
    /// A handler that has not answered after this long gets a 503 sent in its place.
    public var responseTimeout: Duration
    /// Open connections across the server, 4096 by default. Past it, a few more are accepted
    /// and answered 503 with `Retry-After`; beyond those, libmicrohttpd closes them at once.
    public var maxConnections: Int
    /// Open connections from one client address, 0 for no limit; past it, as for ``maxConnections``.
    /// The default, an eighth of the total, keeps a few addresses from taking every slot. Trusted
    /// proxies (``HTTPServerConfiguration/trustedProxies``) are exempt: every client comes through them.
    public var maxConnectionsPerIP: Int
    /// Request line and headers together. A longer URL gets 414, longer headers 431.
    public var maxHeaderBytes: Int
    /// The largest body kept in memory: 413 above it, checked from `Content-Length` before
    /// reading, and by counting for chunked bodies; except for uploads (``maxUploadBytes``).
    public var maxBodyBytes: Int
    /// The largest `multipart/form-data` body: one over ``maxBodyBytes`` is written to a
    /// temporary file as it arrives (``RequestBody/spooled(_:)``), so ten large uploads at once take
    /// disk, not memory; 413 above this. 25 MiB by default.
    public var maxUploadBytes: Int

    /// Limits that protect the server from slow or greedy clients; the defaults suit a public site.
    public init(
        idleTimeout: Duration = .seconds(15),
        headTimeout: Duration = .seconds(20),
        bodyReadTimeout: Duration = .seconds(30),
        responseTimeout: Duration = .seconds(30),
        maxConnections: Int = 4096,
        maxConnectionsPerIP: Int = 512,
        maxHeaderBytes: Int = 16 * 1024,
        maxBodyBytes: Int = 1024 * 1024,
        maxUploadBytes: Int = 25 * 1024 * 1024
    ) {
        self.idleTimeout = idleTimeout
        self.headTimeout = headTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.responseTimeout = responseTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxUploadBytes = max(maxUploadBytes, maxBodyBytes)
    }
}

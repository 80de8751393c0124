public import ArgumentParser
public import Foundation
public import Logging
import TesseraHTTP

/// The command-line options every Tessera executable shares. Each has an environment variable,
/// as containers and platforms expect (`PORT=0 storefront`); a flag wins over its variable,
/// and a variable over the default.
public struct ServerOptions: ParsableArguments, Sendable {
    /// `--host`: the address to listen on; `nil` when not given, so `HOST` or `0.0.0.0` applies.
    @Option(help: "Address to listen on. [env: HOST] (default: 0.0.0.0)")
    public var host: String?

    /// `--port`: the port to listen on; `nil` when not given, so `PORT` or 8080 applies.
    @Option(help: "Port to listen on; 0 picks a free one. [env: PORT] (default: 8080)")
    public var port: Int?

    /// `--threads`: how many threads serve connections; `nil` when not given, so `THREADS` or
    /// one per core applies.
    @Option(help: "Connection threads. [env: THREADS] (default: one per core)")
    public var threads: Int?

    /// `--data-dir`: where the database and the session secret live; `nil` when not given, so
    /// `DATA_DIR` or `./data` applies.
    @Option(name: .customLong("data-dir"), help: "Folder for the database and secrets. [env: DATA_DIR] (default: ./data)")
    public var dataDirectory: String?

    /// `--public-dir`: the folder of static files; `nil` when not given, so `PUBLIC_DIR` or
    /// `./Public` applies.
    @Option(name: .customLong("public-dir"), help: "Folder of static files. [env: PUBLIC_DIR] (default: ./Public)")
    public var publicDirectory: String?

    /// `--log-level`: the least severe level that is logged, by name; `nil` when not given, so
    /// `LOG_LEVEL` or `info` applies.
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. [env: LOG_LEVEL] (default: info)")
    public var logLevel: String?

    /// `--log-format`: `text` or `json`; `nil` when not given, so `LOG_FORMAT` or `text` applies.
    @Option(name: .customLong("log-format"), help: "text, or json for one JSON object per line. [env: LOG_FORMAT] (default: text)")
    public var logFormat: String?

    /// `--shutdown-grace`: the seconds in-flight requests get to finish after SIGTERM; `nil` when
    /// not given, so `SHUTDOWN_GRACE` or 10 applies.
    @Option(name: .customLong("shutdown-grace"), help: "Seconds in-flight requests get after SIGTERM. [env: SHUTDOWN_GRACE] (default: 10)")
    public var shutdownGrace: Int?

    /// `--metrics-port`: where `/metrics` is served, apart from the public port; `nil` when not
    /// given, so `METRICS_PORT` or off applies.
    @Option(
        name: .customLong("metrics-port"),
        help: "Port for Prometheus metrics at /metrics, apart from the public one; 0 picks a free one. [env: METRICS_PORT] (default: off)")
    public var metricsPort: Int?

    /// `--drain-delay`: the seconds the server goes on accepting after SIGTERM while `/readyz`
    /// answers 503; `nil` when not given, so `DRAIN_DELAY` or 0 applies.
    @Option(
        name: .customLong("drain-delay"),
        help: "Seconds to keep accepting after SIGTERM while readiness answers 503, for a load balancer to notice. [env: DRAIN_DELAY] (default: 0)")
    public var drainDelay: Int?

    /// `--https`: the site is reached over HTTPS, directly or through a TLS-terminating proxy,
    /// so session cookies are `Secure` and named `__Host-…`; `nil` when not given, so `HTTPS` or
    /// off applies.
    @Option(
        help: "The site is reached over HTTPS (a TLS-terminating proxy counts): 1 or 0. [env: HTTPS] (default: 1 when PUBLIC_URL is https://, else 0)"
    )
    public var https: String?

    /// `--trusted-proxies`: the proxies whose `X-Forwarded-For`/`-Proto` are believed; `nil` when
    /// not given, so `TRUSTED_PROXIES` or none applies.
    @Option(
        name: .customLong("trusted-proxies"),
        help: "Comma-separated proxy addresses whose X-Forwarded-For and X-Forwarded-Proto are believed. [env: TRUSTED_PROXIES] (default: none)")
    public var trustedProxies: String?

    /// `--public-url`: where shoppers reach the site, for absolute URLs (sitemap, canonical
    /// links); `nil` when not given, so `PUBLIC_URL` or each request's `Host` applies.
    @Option(
        name: .customLong("public-url"),
        help:
            "Where the site is reached, such as https://shop.example.com, for sitemaps and canonical links. [env: PUBLIC_URL] (default: each request's Host)"
    )
    public var publicURL: String?

    /// Read by ``resolve(environment:)``.
    @Option(
        name: .customLong("live-streams-per-client"),
        help:
            "Live-region streams one client address may hold open; a browser opens one per tab; 0 turns live regions off on this instance. [env: LIVE_STREAMS_PER_CLIENT] (default: 16)"
    )
    public var liveStreamsPerClient: Int?

    /// Read by ``resolve(environment:)``.
    @Option(
        name: .customLong("region-cache-mb"),
        help:
            "Megabytes of shared regions' HTML kept until what they show changes; 0 renders every region for every request. [env: REGION_CACHE_MB] (default: 8)"
    )
    public var regionCacheMegabytes: Int?

    @Option(
        name: .customLong("kept-pages-mb"),
        help:
            "Megabytes of whole pages kept for visitors without a session until what they show changes; 0 renders every page for every visitor. [env: KEPT_PAGES_MB] (default: 64)"
    )
    public var keptPagesMegabytes: Int?

    /// No options given yet, as ArgumentParser requires; it fills them in as it parses the
    /// command line.
    public init() {}

    /// The options with the environment and defaults applied, checked.
    public func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerSettings {
        let options = OptionEnvironment(environment)
        func value<T>(_ flag: T?, _ variable: String, _ parse: (String) -> T?, default fallback: T) throws -> T {
            try options.value(flag, variable, default: fallback, parse)
        }
        // Over HTTPS when told, or else when the public URL says so.
        let resolvedPublicURL = try value(publicURL.map(SiteURL.init) ?? nil, "PUBLIC_URL", { SiteURL($0).map { Optional($0) } }, default: nil)
        let settings = ServerSettings(
            host: try value(host, "HOST", { $0 }, default: "0.0.0.0"),
            port: try value(port, "PORT", { Int($0) }, default: 8080),
            threads: try value(threads, "THREADS", { Int($0) }, default: HTTPServerConfiguration.processorCount),
            dataDirectory: Self.dataDirectory(dataDirectory, environment: environment),
            publicDirectory: try value(publicDirectory, "PUBLIC_DIR", { $0 }, default: "./Public"),
            logLevel: try value(
                logLevel.map { Logger.Level(rawValue: $0.lowercased()) } ?? nil, "LOG_LEVEL", { Logger.Level(rawValue: $0.lowercased()) },
                default: .info),
            logFormat: try value(
                logFormat.map { LogFormat(rawValue: $0.lowercased()) } ?? nil, "LOG_FORMAT", { LogFormat(rawValue: $0.lowercased()) }, default: .text),
            shutdownGrace: .seconds(try value(shutdownGrace, "SHUTDOWN_GRACE", { Int($0) }, default: 10)),
            drainDelay: .seconds(try value(drainDelay, "DRAIN_DELAY", { Int($0) }, default: 0)),
            metricsPort: try value(metricsPort.map { Optional($0) }, "METRICS_PORT", { Int($0).map { Optional($0) } }, default: nil),
            https: try value(https.map(Self.parseSwitch) ?? nil, "HTTPS", Self.parseSwitch, default: resolvedPublicURL?.scheme == "https"),
            trustedProxies: try value(
                trustedProxies.map { TrustedProxies(list: $0) } ?? nil, "TRUSTED_PROXIES", { TrustedProxies(list: $0) }, default: TrustedProxies()),
            publicURL: resolvedPublicURL,
            liveStreamsPerClient: try value(liveStreamsPerClient, "LIVE_STREAMS_PER_CLIENT", { Int($0) }, default: 16),
            regionCacheMegabytes: try value(regionCacheMegabytes, "REGION_CACHE_MB", { Int($0) }, default: 8),
            keptPagesMegabytes: try value(keptPagesMegabytes, "KEPT_PAGES_MB", { Int($0) }, default: 64)
        )
        guard settings.liveStreamsPerClient >= 0 else {
            throw ValidationError("LIVE_STREAMS_PER_CLIENT must be zero (live regions off) or more (--live-streams-per-client).")
        }
        guard (0...4096).contains(settings.regionCacheMegabytes) else {
            throw ValidationError("REGION_CACHE_MB must be from 0 (no region cache) to 4096 (--region-cache-mb).")
        }
        guard (0...4096).contains(settings.keptPagesMegabytes) else {
            throw ValidationError("KEPT_PAGES_MB must be from 0 (no kept pages) to 4096 (--kept-pages-mb).")
        }
        if let publicURL, SiteURL(publicURL) == nil {
            throw ValidationError("--public-url \(publicURL) must be an http or https origin, such as https://shop.example.com.")
        }
        if let https, Self.parseSwitch(https) == nil {
            throw ValidationError("--https \(https) must be 1 or 0.")
        }
        if let trustedProxies, TrustedProxies(list: trustedProxies) == nil {
            throw ValidationError("--trusted-proxies \(trustedProxies) must be IP addresses separated by commas.")
        }
        if let logFormat, LogFormat(rawValue: logFormat.lowercased()) == nil {
            throw ValidationError("--log-format \(logFormat) must be text or json.")
        }
        if let logLevel, Logger.Level(rawValue: logLevel.lowercased()) == nil {
            throw ValidationError("--log-level \(logLevel) is not a level.")
        }
        guard (0...65535).contains(settings.port) else { throw ValidationError("The port must be between 0 and 65535.") }
        guard settings.threads >= 1 else { throw ValidationError("At least one thread is needed.") }
        try Self.checkDataDirectory(settings.dataDirectory)
        if let metricsPort = settings.metricsPort {
            guard (0...65535).contains(metricsPort) else { throw ValidationError("The metrics port must be between 0 and 65535.") }
            guard metricsPort != settings.port || metricsPort == 0 else {
                throw ValidationError("The metrics port must not be the public port \(settings.port): metrics are for the operator only.")
            }
        }
        guard settings.shutdownGrace >= .zero, settings.drainDelay >= .zero else {
            throw ValidationError("The shutdown grace and the drain delay must be zero or more seconds.")
        }
        return settings
    }

    /// The data directory from `--data-dir` (`flag`), else `DATA_DIR`, else `./data`: the one
    /// rule for the server and for every command that works on its data (backups, seeding).
    public static func dataDirectory(_ flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        OptionEnvironment(environment).string(flag, "DATA_DIR") ?? "./data"
    }

    /// The data directory must be a folder the server can write, made if missing: found at
    /// start, not at the first order.
    static func checkDataDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ValidationError("DATA_DIR \(path) is a file, not a folder.") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw ValidationError("DATA_DIR \(path) does not exist and cannot be made.")
            }
        }
        guard access(path, W_OK) == 0 else { throw ValidationError("DATA_DIR \(path) cannot be written.") }
    }

    /// `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`; `nil` for anything else.
    static func parseSwitch(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }
}

/// Resolved, validated settings.
public struct ServerSettings: Sendable {
    /// The address to listen on, such as `0.0.0.0` for every IPv4 interface.
    public var host: String
    /// The port to listen on; 0 lets the system pick a free one.
    public var port: Int
    /// How many threads serve connections; at least one.
    public var threads: Int
    /// The folder for the database and secrets, such as the session secret that
    /// ``SessionConfiguration/loadSecrets(dataDirectory:environment:)`` keeps there.
    public var dataDirectory: String
    /// The folder of static files, for ``PublicFiles``.
    public var publicDirectory: String
    /// The least severe level that is logged; ``ServerSettings/bootstrapLogging()`` applies it.
    public var logLevel: Logger.Level
    /// Plain lines or JSON objects; ``ServerSettings/bootstrapLogging()`` applies it.
    public var logFormat: LogFormat
    /// How long in-flight requests get to finish after SIGTERM before the server stops.
    public var shutdownGrace: Duration
    /// How long the server goes on accepting after SIGTERM while readiness answers 503.
    public var drainDelay: Duration
    /// The port of the metrics endpoint, on the same address; `nil` when off.
    public var metricsPort: Int?
    /// Whether the site is reached over HTTPS, so its cookies must be `Secure`.
    public var https: Bool
    /// The proxies whose forwarded fields are believed.
    public var trustedProxies: TrustedProxies
    /// Where the site is reached, for absolute URLs; `nil` uses each request's `Host`.
    public var publicURL: SiteURL?
    /// Live-region streams one client address may hold open; 0 turns live regions off here.
    public var liveStreamsPerClient: Int
    /// Megabytes of shared regions' HTML kept (``RegionCache``); 0 keeps none.
    public var regionCacheMegabytes: Int
    /// Megabytes of whole pages kept for visitors without a session (``KeptPages``); 0 keeps none.
    public var keptPagesMegabytes: Int
    /// The `Server` field of every answer, such as `Tessera`; `nil` sends none, which tells a
    /// scanner nothing. Benchmarks that require the field set it.
    public var serverName: String? = nil

    /// The live regions' limits from these settings; a heartbeat well inside the server's idle
    /// and response timeouts.
    public var liveConfiguration: LiveRegions.Configuration {
        LiveRegions.Configuration(maxStreamsPerClient: liveStreamsPerClient)
    }

    /// The shared regions' cache of ``regionCacheMegabytes``, for ``ApplicationBuilder/regionCache``.
    public func makeRegionCache() -> RegionCache {
        .regions(maxBytes: regionCacheMegabytes << 20)
    }

    /// The kept pages of ``keptPagesMegabytes``, for ``ApplicationBuilder/keptPages``.
    public func makeKeptPages() -> KeptPages {
        KeptPages(maxBytes: keptPagesMegabytes << 20)
    }

    /// What the HTTP server needs from these settings, with ``SecurityHeaders/defaults(https:)``
    /// (and ``serverName``, when set) on every response.
    public var httpConfiguration: HTTPServerConfiguration {
        var headers = SecurityHeaders.defaults(https: https)
        if let serverName { headers[.server] = serverName }
        return HTTPServerConfiguration(
            host: host, port: port, threads: threads, shutdownGracePeriod: shutdownGrace, drainDelay: drainDelay,
            defaultHeaders: headers, trustedProxies: trustedProxies
        )
    }

    /// Sends every log line to stdout at `logLevel`, in `logFormat`, where container platforms
    /// collect them. Call it once, first thing: swift-log's bootstrap is process-wide by design.
    public func bootstrapLogging() {
        let (level, format) = (logLevel, logFormat)
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                switch format {
                case .text: StreamLogHandler.standardOutput(label: label)
                case .json: JSONLogHandler(label: label)
                }
            handler.logLevel = level
            return handler
        }
    }
}

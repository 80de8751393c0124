// swift-tools-version:6.1
import PackageDescription

/// Test code is compiled without optimisation, even in `make test`'s release build (decision
/// 0029): it tests optimised modules, and optimising the tests themselves would only cost time.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

/// Tessera: a server-rendered Swift web framework on libmicrohttpd, and the storefront built with it.
///
/// Layout, from the bottom up:
/// - `CMicroHTTPD`, `CTesseraShim`: libmicrohttpd and the few calls Swift cannot make directly;
///   `CZlib`: zlib, for gzip; `CZstd`: zstd, for pages compressed against a dictionary; `CVips`, `CTesseraImages`: libvips, for photos; `CTesseraTLS`:
///   a TLS client on OpenSSL, for mail.
/// - `TesseraLoop`: one event loop per core, with its timers and per-loop state (`CTesseraLoop`
///   brings epoll), and `DatabaseUnavailable`: what the HTTP server and the PostgreSQL driver
///   run on, neither knowing the other.
/// - `TesseraJSON`: `Encodable` values written as JSON straight into an answer's bytes, for the
///   server's error bodies, the views' `<script>` data and the framework's JSON answers.
/// - `TesseraViews`: the runtime of typed views; `TesseraViewsPlugin` compiles `Views/` into them
///   with `tessera-views` (`TesseraTemplateCompiler`).
/// - `TesseraHTTP`: the HTTP server, requests, responses and the error protocol. libmicrohttpd's
///   types stop here.
/// - `Tessera`: the framework an app uses: the application and its middleware chain, routing,
///   page and region controllers, sessions, forms, languages, error pages, static files.
/// - `TesseraMail`: mail through an outbox and SMTP; `TesseraPasskeys`: WebAuthn passkeys. Each
///   on Tessera, which links neither. No module links SwiftNIO: only the OTLP trait brings it.
/// - `TesseraSQLite`, `TesseraPostgres`: an app's database; `TesseraMailSQLite`,
///   `TesseraMailPostgres`: the mail outbox kept in it, adapters an app that sends mail wires;
///   `TesseraImages`: photos through libvips.
/// - `TesseraTesting`: in-process and live testing of an app, for apps and for these tests.
/// - `Catalog`, `Accounts`, `Orders`: the storefront's feature modules, one folder layout each.
/// - `Storefront`: the composition root, the `storefront` executable; `TesseraBench` the app
///   `make bench` measures.

let package = Package(
    name: "Tessera",
    platforms: [.macOS("26.0")],
    products: [
        .library(name: "Tessera", targets: ["Tessera", "TesseraHTTP"]),
        .library(name: "TesseraMail", targets: ["TesseraMail"]),
        .library(name: "TesseraPasskeys", targets: ["TesseraPasskeys"]),
        .library(name: "TesseraViews", targets: ["TesseraViews"]),
        .library(name: "TesseraTesting", targets: ["TesseraTesting"]),
        .library(name: "TesseraSQLite", targets: ["TesseraSQLite"]),
        .library(name: "TesseraPostgres", targets: ["TesseraPostgres"]),
        .library(name: "TesseraMailSQLite", targets: ["TesseraMailSQLite"]),
        .library(name: "TesseraMailPostgres", targets: ["TesseraMailPostgres"]),
        .library(name: "TesseraImages", targets: ["TesseraImages"]),
        .plugin(name: "TesseraViewsPlugin", targets: ["TesseraViewsPlugin"]),
        .executable(name: "storefront", targets: ["Storefront"]),
        .executable(name: "tessera-bench", targets: ["TesseraBench"]),
        .executable(name: "tessera", targets: ["TesseraCLI"]),
    ],
    traits: [
        // The storefront's OTLP/HTTP trace exporter (swift-otel, async-http-client, swift-protobuf,
        // NIOSSL): minutes of a first build, so only the builds that export traces pay for it
        // (`make test`, the image). Spans themselves are the framework's, with or without it.
        .trait(name: "OTLP", description: "Export the storefront's traces over OTLP/HTTP (swift-otel).")
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
        // Metrics: the framework emits through swift-metrics; the storefront exports Prometheus.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        // Traces: the framework makes spans through swift-distributed-tracing; the storefront
        // exports them over OTLP/HTTP with swift-otel (its gRPC exporter left out), with the
        // OTLP trait only.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // MARK: C
        .systemLibrary(
            name: "CMicroHTTPD",
            // Built from Debian's source with Tessera's patches by scripts/build-libmicrohttpd.sh
            // (make runs it and sets PKG_CONFIG_PATH), and linked statically.
            pkgConfig: "libmicrohttpd"
        ),
        .target(
            name: "CTesseraShim",
            dependencies: ["CMicroHTTPD"]
        ),
        // zlib (Debian's zlib1g-dev), for gzip responses.
        .systemLibrary(name: "CZlib"),
        // zstd (Debian's libzstd-dev), for pages compressed against a dictionary the browser holds.
        .systemLibrary(name: "CZstd"),
        // libvips (Debian's libvips-dev), for photos; its calls take C varargs, which
        // CTesseraImages wraps in calls Swift can make.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "CTesseraImages", dependencies: ["CVips"]),
        // A TLS client on OpenSSL (Debian's libssl-dev, which libpq links too): mail over TLS, and
        // the bytes libpq's TLS holds for the PostgreSQL driver.
        .target(name: "CTesseraTLS", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // libpq (Debian's libpq-dev), PostgreSQL's own client, for the PostgreSQL driver.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // MARK: Framework
        // Epoll, eventfd and thread names for the loops, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CTesseraLoop"),
        // One event loop per core, its timers and per-loop state, and the error a database on the
        // loops throws: under both the HTTP server and the PostgreSQL driver, which knows no HTTP.
        .target(name: "TesseraLoop", dependencies: ["CTesseraLoop"]),
        .target(
            name: "TesseraHTTP",
            dependencies: [
                "CTesseraShim", "TesseraJSON", "TesseraLoop",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "Tessera",
            dependencies: [
                "CZlib",
                "CZstd",
                "TesseraHTTP",
                "TesseraViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The framework's own scripts, compiled in as bytes (FrameworkScripts).
            resources: [.embedInCode("Navigation/navigate.js")],
            plugins: ["TesseraViewsPlugin"]
        ),
        // Mail: messages, the outbox and its worker, dead letters, SMTP on a thread of its own.
        .target(
            name: "TesseraMail",
            dependencies: [
                "CTesseraTLS",
                "Tessera",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Passkeys (WebAuthn): the relying party's checks, with its own CBOR reader.
        .target(
            name: "TesseraPasskeys",
            dependencies: [
                "Tessera", "TesseraViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: ["TesseraViewsPlugin"]
        ),

        // MARK: JSON
        .target(name: "TesseraJSON"),

        // MARK: Typed views
        .target(name: "TesseraViews", dependencies: ["TesseraJSON"]),
        .target(name: "TesseraTemplateCompiler", dependencies: ["TesseraViews"]),
        // No ArgumentParser: the plugin alone calls it, and every app's first build would compile
        // ArgumentParser for the host before its first template.
        .executableTarget(name: "TesseraViewCompiler", dependencies: ["TesseraTemplateCompiler"]),
        .plugin(
            name: "TesseraViewsPlugin",
            capability: .buildTool(),
            dependencies: [.target(name: "TesseraViewCompiler")]
        ),

        // MARK: Storefront features (each depends on the framework; Orders may use Catalog and Accounts)
        // Fast reads for apps on SQLite through GRDB: read-only connections read on the caller's thread.
        .target(
            name: "TesseraSQLite",
            dependencies: ["Tessera", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // The mail outbox kept in the app's database, one adapter per database: the mail module
        // and the databases know nothing of each other, and an app that sends mail wires one.
        .target(name: "TesseraMailSQLite", dependencies: ["TesseraMail", "TesseraSQLite", "Tessera", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(
            name: "TesseraMailPostgres",
            dependencies: ["TesseraMail", "TesseraPostgres", "Tessera", .product(name: "Logging", package: "swift-log")]),
        // Photos: uploads checked by their bytes, variants made and stripped of metadata by libvips.
        .target(
            name: "TesseraImages",
            dependencies: ["CTesseraImages", "Tessera", "TesseraHTTP", .product(name: "HTTPTypes", package: "swift-http-types")]),
        // Apps on PostgreSQL through libpq: DATABASE_URL, connections on the app's event loops
        // (non-blocking, pipelined) and on threads of their own for transactions' synchronous
        // bodies, versioned migrations under an advisory lock, LISTEN and NOTIFY.
        // The libpq driver itself: connections on the loops (non-blocking, pipelined), queries,
        // rows and their types. It knows the loops and libpq, not HTTP nor the framework, so it
        // can be used and tested without a server.
        .target(name: "TesseraPostgresDriver", dependencies: ["CLibPQ", "CTesseraTLS", "TesseraLoop"]),
        .target(
            name: "TesseraPostgres",
            dependencies: [
                "TesseraPostgresDriver", "CLibPQ", "TesseraHTTP", "Tessera",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),

        .target(
            name: "Catalog",
            dependencies: [
                "Tessera", "TesseraViews", "TesseraPostgres", "TesseraSQLite", "TesseraImages",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["TesseraViewsPlugin"]
        ),

        .target(
            name: "Accounts",
            dependencies: [
                "Tessera", "TesseraViews", "TesseraPostgres", "TesseraPasskeys", "TesseraMail", "TesseraSQLite", "TesseraMailSQLite",
                "TesseraMailPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["TesseraViewsPlugin"]
        ),

        .target(
            name: "Orders",
            dependencies: [
                "Tessera", "TesseraViews", "TesseraPostgres", "TesseraMail", "Catalog", "Accounts",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            plugins: ["TesseraViewsPlugin"]
        ),

        // Staff's side: may use Catalog and Orders (and, through Orders, Accounts); nothing uses it.
        .target(
            name: "BackOffice",
            dependencies: ["Tessera", "TesseraViews", "Catalog", "Orders", "Accounts"],
            plugins: ["TesseraViewsPlugin"]
        ),

        // MARK: Composition roots
        .executableTarget(
            name: "Storefront",
            dependencies: [
                "Tessera",
                "TesseraMail",
                "TesseraPasskeys",
                "BackOffice",
                "TesseraSQLite",
                "TesseraPostgres",
                "TesseraMailSQLite",
                "TesseraMailPostgres",
                "TesseraImages",
                "Catalog",
                "Accounts",
                "Orders",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"])),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // Debug builds link with the toolchain's lld: `make dev` relinks this 110 MB binary
            // after every edit, and lld does it in a fraction of gold's time.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"], .when(configuration: .debug))],
            plugins: ["TesseraViewsPlugin"]
        ),
        // `tessera new` and `tessera generate resource`: apps and features, as files to edit.
        .executableTarget(
            name: "TesseraCLI",
            dependencies: ["TesseraViews", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            plugins: ["TesseraViewsPlugin"]
        ),
        .executableTarget(
            name: "TesseraBench",
            dependencies: [
                "Tessera",
                "TesseraSQLite",
                "TesseraPostgres",
                "TesseraViews",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/TesseraBench",
            plugins: ["TesseraViewsPlugin"]
        ),

        // MARK: Testing (a product: apps test their routes with it), then the tests
        .target(
            name: "TesseraTesting",
            dependencies: [
                "CZlib",
                "Tessera",
                "TesseraHTTP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "TesseraLoopTests", dependencies: ["TesseraLoop"], swiftSettings: testSettings),
        .testTarget(name: "TesseraJSONTests", dependencies: ["TesseraJSON"], swiftSettings: testSettings),
        .testTarget(
            name: "TesseraHTTPTests",
            dependencies: [
                "TesseraHTTP", "TesseraTesting", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "TesseraMailTests", dependencies: ["TesseraMail", "Tessera", "TesseraTesting", .product(name: "Logging", package: "swift-log")],
            swiftSettings: testSettings),
        .testTarget(
            name: "TesseraPasskeysTests",
            dependencies: ["TesseraPasskeys", "Tessera", "TesseraTesting", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: testSettings),
        .testTarget(
            name: "TesseraTests",
            dependencies: ["Tessera", "TesseraTesting", "TesseraViews", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Views"],
            swiftSettings: testSettings,
            plugins: ["TesseraViewsPlugin"]
        ),
        // Process-level tests of the storefront; GRDB only to inspect the files a backup writes.
        .testTarget(
            name: "StorefrontTests",
            dependencies: ["TesseraTesting", "Tessera", "PostgresTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: testSettings),
        .testTarget(
            name: "TesseraPostgresTests",
            dependencies: [
                "TesseraPostgres", "Tessera", "TesseraHTTP", "TesseraMail", "TesseraMailPostgres", "TesseraTesting", "PostgresTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(name: "TesseraImagesTests", dependencies: ["TesseraImages", "Tessera", "TesseraTesting"], swiftSettings: testSettings),
        .testTarget(
            name: "TesseraSQLiteTests",
            dependencies: [
                "TesseraSQLite", "Tessera", "TesseraMail", "TesseraMailSQLite", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: testSettings),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                "Catalog", "Tessera", "TesseraTesting", "TesseraPostgres", "TesseraImages", "PostgresTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "AccountsTests", dependencies: ["Accounts", "Tessera", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: testSettings),
        // The stores' tests run against the composition root's real wiring (StorefrontServices).
        // A database of its own for each PostgreSQL test, in the cluster scripts/with-postgres.sh starts.
        .target(
            name: "PostgresTestSupport",
            dependencies: ["TesseraPostgres", .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresTestSupport",
            swiftSettings: testSettings
        ),
        // The stores' conformance suites run the same tests on SQLite and on PostgreSQL (StoreKind).
        .testTarget(
            name: "OrdersTests",
            dependencies: [
                "Orders", "Catalog", "Accounts", "Storefront", "TesseraPostgres", "TesseraSQLite", "TesseraMail", "TesseraMailSQLite", "TesseraViews",
                "PostgresTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "TesseraViewsTests",
            dependencies: ["TesseraViews", "TesseraTemplateCompiler", "TesseraTesting"],
            exclude: ["Views"],
            swiftSettings: testSettings,
            plugins: ["TesseraViewsPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// The language's upcoming rules, as Hummingbird turns them on: `any` spelled out for every
/// existential, a member visible only where its module is imported, and imports internal unless
/// a file says `public import` (what a module's API exposes of another is then written down).
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}

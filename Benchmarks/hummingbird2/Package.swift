// swift-tools-version:6.1
import PackageDescription

/// The peer that `make bench` measures Tessera against on TechEmpower's tests: Hummingbird 2 with
/// raw SQL on PostgresNIO's PostgresClient and swift-mustache, shaped like TechEmpower's
/// `hummingbird2` entry (frameworks/Swift/hummingbird2). Its own package, so that neither the
/// product nor the other benchmarks resolve Hummingbird. See ../../BENCHMARKS.md.
let package = Package(
    name: "HummingbirdBench",
    platforms: [.macOS("26.0")],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdBench",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: [
                // The entry builds with both: cross-module optimization in its Package.swift,
                // unchecked exclusivity on its Dockerfile's `swift build` line.
                .unsafeFlags(
                    ["-cross-module-optimization", "-enforce-exclusivity=unchecked"],
                    .when(configuration: .release)
                )
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

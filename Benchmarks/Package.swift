// swift-tools-version:6.1
import PackageDescription

/// Benchmarks that need packages the product must never depend on (swift-mustache, for
/// comparison). `make bench` runs them; see ../BENCHMARKS.md.
let package = Package(
    name: "TesseraBenchmarks",
    platforms: [.macOS("26.0")],
    dependencies: [
        .package(name: "Tessera", path: ".."),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "ViewsBenchmark",
            dependencies: [
                .product(name: "TesseraViews", package: "Tessera"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            exclude: ["Views"],
            plugins: [.plugin(name: "TesseraViewsPlugin", package: "Tessera")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

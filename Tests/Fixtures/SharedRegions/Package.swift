// swift-tools-version:6.1
import PackageDescription

// Shared regions that read the visitor: each target but `Fine` must fail to compile.
// `SharedRegionFixtureTests` type-checks them against the Tessera the suites were built with.
let package = Package(
    name: "SharedRegions",
    platforms: [.macOS("26.0")],
    dependencies: [.package(name: "Tessera", path: "../../..")],
    targets: ["Fine", "ReadsSession", "ReadsHeader", "ReadsCookie", "ReadsQuery", "ReadsValue", "ReadsFormToken"].map {
        .target(name: $0, dependencies: [.product(name: "Tessera", package: "Tessera"), .product(name: "TesseraViews", package: "Tessera")])
    }
)

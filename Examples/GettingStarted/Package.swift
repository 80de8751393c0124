// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Cookbook",
    platforms: [.macOS("26.0")],
    dependencies: [
        .package(name: "tessera", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.0.0"),
    ],
    targets: [
        // The app's feature modules and its route table (CookbookApp).
        .target(
            name: "Cookbook",
            dependencies: [
                .product(name: "Tessera", package: "tessera"),
                .product(name: "TesseraViews", package: "tessera"),
                .product(name: "TesseraSQLite", package: "tessera"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            plugins: [.plugin(name: "TesseraViewsPlugin", package: "tessera")]
        ),
        // The server: its settings, the database, the middleware.
        .executableTarget(
            name: "CookbookServer",
            dependencies: [
                "Cookbook",
                .product(name: "Tessera", package: "tessera"),
                .product(name: "TesseraSQLite", package: "tessera"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "CookbookTests",
            dependencies: [
                "Cookbook",
                .product(name: "Tessera", package: "tessera"),
                .product(name: "TesseraTesting", package: "tessera"),
                .product(name: "TesseraSQLite", package: "tessera"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Recipes",
    platforms: [.macOS("26.0")],
    dependencies: [
        // Tessera itself, two folders up; your app: .package(url: "<Tessera's URL>", from: "0.1.0")
        .package(name: "tessera", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
    ],
    targets: [
        .target(
            name: "Recipes",
            dependencies: [
                .product(name: "Tessera", package: "tessera"),
                .product(name: "TesseraViews", package: "tessera"),
            ],
            plugins: [.plugin(name: "TesseraViewsPlugin", package: "tessera")]
        ),
        .executableTarget(
            name: "RecipesServer",
            dependencies: [
                "Recipes",
                .product(name: "Tessera", package: "tessera"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RecipesTests",
            dependencies: [
                "Recipes",
                .product(name: "Tessera", package: "tessera"),
                .product(name: "TesseraTesting", package: "tessera"),
            ]
        ),
    ]
)

// swift-tools-version:6.1
import PackageDescription

// Rules the compiler holds: each target but `Fine` breaks one and must fail to compile (a
// shared region that reads the visitor, is handed one or a model of one, or loads through a
// loader that reads one; a kept page that reads the visitor or whose factory is handed one; a
// handler that takes a group's guarantee outside the group; a second image processor; a database
// call in a detached task without its request's budget). `RulesInTypesFixtureTests`
// type-checks them against the Tessera the suites were built with.
let package = Package(
    name: "RulesInTypes",
    platforms: [.macOS("26.0")],
    dependencies: [.package(name: "Tessera", path: "../../..")],
    targets: [
        "Fine", "ReadsSession", "ReadsHeader", "ReadsCookie", "ReadsQuery", "ReadsValue",
        "StoresContext", "StoresSession", "StoresRequest", "CapturesVisitor", "HandsVisitorModel", "LoadsWithVisitor",
        "GuaranteeOutsideGroup", "SecondImageProcessor", "DetachedWithoutBudget",
        "KeptReadsSession", "KeptReadsCookie", "KeptReadsHeader", "KeptReadsAddress", "KeptReadsValue", "KeptFactoryTakesRequest",
    ].map {
        .target(
            name: $0,
            dependencies: [
                .product(name: "Tessera", package: "Tessera"), .product(name: "TesseraViews", package: "Tessera"),
                .product(name: "TesseraImages", package: "Tessera"),
                .product(name: "TesseraSQLite", package: "Tessera"),
            ])
    }
)

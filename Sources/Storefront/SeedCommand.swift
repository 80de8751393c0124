import ArgumentParser
import Catalog
import Foundation
import Tessera

/// `storefront seed --products N`: a new data directory with a large catalog (the 40 demo
/// products first, then generated ones, the same for every run), and the demo accounts and
/// orders as on a first start. For measuring how the pages hold up as the catalog grows.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill a new data directory with a catalog of N products and the demo accounts and orders."
    )

    @Option(help: "How many products, from 40 (the demo catalog) to 1,000,000.")
    var products: Int

    @Option(name: .customLong("data-dir"), help: "The new data directory. [env: DATA_DIR] (default: ./data)")
    var dataDirectory: String?

    @Option(name: .customLong("demo-photos"), help: "seed (draw the demo photos now) or on-request. [env: DEMO_PHOTOS] (default: seed)")
    var demoPhotos: String?

    func run() async throws {
        let folder = ServerOptions.dataDirectory(dataDirectory)
        let count = products
        let drawing = try await UsageError.reported {
            guard (40...1_000_000).contains(count) else {
                throw ValidationError("--products \(count) must be from 40 to 1000000.")
            }
            guard !FileManager.default.fileExists(atPath: StorefrontDatabase.file(in: folder).path) else {
                throw ValidationError("DATA_DIR \(folder) already has a database; seed a new folder.")
            }
            return try DemoPhotos.resolve(demoPhotos, environment: ProcessInfo.processInfo.environment)
        }
        let started = ContinuousClock.now
        let database = try await StorefrontDatabase.open(dataDirectory: folder, catalog: CatalogSeed.generated(count: count), demoPhotos: drawing)
        try database.close()
        print("seeded \(count) products in \(folder) in \(ContinuousClock.now - started)")
    }
}

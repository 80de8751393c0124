import ArgumentParser
import Catalog
import Foundation
import GRDB
import Logging
import Tessera
import TesseraPostgres

/// `storefront seed`: the demo shop, ready to show, in the database the server uses (SQLite in
/// the data directory, or PostgreSQL at `DATABASE_URL`). A new database gets the demo catalog,
/// accounts and orders, as a first start does; every demo product without a photo gets its demo
/// photo (``DemoPhotos``), which nothing else draws. Run again, it adds only what is missing.
///
/// `--products N` fills a new SQLite data directory with a catalog of N products instead (the
/// 40 demo products first, then generated ones, the same every run): for measuring how the
/// pages hold up as the catalog grows.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Add the demo shop's data and photos to the database, or fill a new data directory with N products."
    )

    @Option(help: "A new SQLite data directory with this many products, from 40 (the demo catalog) to 1,000,000.")
    var products: Int?

    @Option(name: .customLong("data-dir"), help: "The data directory. [env: DATA_DIR] (default: ./data)")
    var dataDirectory: String?

    @OptionGroup var databaseOptions: DatabaseOptions
    @OptionGroup var passwordOptions: PasswordOptions

    func run() async throws {
        let folder = ServerOptions.dataDirectory(dataDirectory)
        let (choice, count, hasher) = try await UsageError.reported {
            let choice = try databaseOptions.resolve(forServing: false)
            let hasher = try passwordOptions.resolve()
            guard let count = products else { return (choice, nil as Int?, hasher) }
            guard choice == .sqlite else {
                throw ValidationError("--products fills a new SQLite data directory; leave DATABASE_URL unset.")
            }
            guard (40...1_000_000).contains(count) else {
                throw ValidationError("--products \(count) must be from 40 to 1000000.")
            }
            guard !FileManager.default.fileExists(atPath: StorefrontDatabase.file(in: folder).path) else {
                throw ValidationError("DATA_DIR \(folder) already has a database; seed a new folder.")
            }
            return (choice, count, hasher)
        }
        let started = ContinuousClock.now
        let photos: Int
        switch choice {
        case .sqlite:
            let database = try await StorefrontDatabase.open(
                dataDirectory: folder, hasher: hasher,
                catalog: count.map { CatalogSeed.generated(count: $0) } ?? CatalogSeed.products)
            photos = try await DemoPhotos.add(
                to: CatalogSeed.products.map(\.id),
                through: StorefrontServices(
                    database: database, topics: LiveRegions(), photoFolder: StorefrontDatabase.photoFolder(in: folder)
                ).photos)
            try database.close()
        case .postgres(let text, _, _):
            photos = try await StorefrontPostgres.forCommand(text, to: "seed") { connections in
                try await StorefrontPostgres.seedDemoShop(connections, hasher: hasher)
            }
        }
        let place = choice == .sqlite ? folder : "the PostgreSQL database"
        print(
            "seeded \(count.map { "\($0) products in " } ?? "the demo shop in ")\(place), \(photos) demo photos added, in \(ContinuousClock.now - started)"
        )
    }
}

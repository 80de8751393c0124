import ArgumentParser
import Foundation
import Logging
import Tessera
import TesseraPostgres

/// `storefront migrate`: applies the schema migrations the database lacks, and nothing else,
/// then exits. A rolling deploy runs it once, before the first instance is replaced: the new
/// release's migrations are expand steps the running release tolerates (see deploy/README.md),
/// so no instance waits on them as it starts. `serve` still migrates at start, for one machine.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the database's missing schema migrations, then exit."
    )

    @Option(name: .customLong("data-dir"), help: "The data directory. [env: DATA_DIR] (default: ./data)")
    var dataDirectory: String?

    @OptionGroup var databaseOptions: DatabaseOptions

    func run() async throws {
        let choice = try await UsageError.reported { try databaseOptions.resolve(forServing: false) }
        let applied: [String]
        switch choice {
        case .sqlite:
            applied = try StorefrontDatabase.migrate(dataDirectory: ServerOptions.dataDirectory(dataDirectory))
        case .postgres(let text, _):
            applied = try await UnavailableAtStart.reported {
                let url: PostgresURL
                do {
                    url = try PostgresURL(text)
                } catch {
                    throw UnavailableAtStart(message: "\(error)")
                }
                // A migration may take minutes (a backfill): not a page's 15 s.
                let connections = PostgresConnections(url: url, size: 2, statementTimeout: .seconds(3600), logger: Logger(label: "migrate"))
                do {
                    let applied = try await StorefrontPostgres.migrator.migrate(connections)
                    await connections.shutdown()
                    return applied
                } catch {
                    await connections.shutdown()
                    throw UnavailableAtStart(message: "cannot migrate the database at \(url): \(DatabaseUnavailable(error).reason)")
                }
            }
        }
        print(applied.isEmpty ? "migrate: the schema is up to date" : "migrate: applied \(applied.joined(separator: ", "))")
    }
}

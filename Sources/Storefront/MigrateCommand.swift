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
        case .postgres(let text, _, _):
            // A migration may take minutes (a backfill): not a page's 15 s.
            applied = try await StorefrontPostgres.forCommand(text, to: "migrate", statementTimeout: .seconds(3600)) { connections in
                try await StorefrontPostgres.migrator.migrate(connections)
            }
        }
        print(applied.isEmpty ? "migrate: the schema is up to date" : "migrate: applied \(applied.joined(separator: ", "))")
    }
}

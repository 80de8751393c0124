import Logging
import PostgresNIO
import TesseraPostgres

/// The TechEmpower `fortune` table in PostgreSQL, read on every request of `/pg-fortunes` by the
/// same rules as `/db-fortunes`, and as the C reference reads it with libpq: one prepared
/// statement per connection, executed per request, no `ORDER BY`.
struct PostgresFortunes: FortuneSource {
    let connections: PostgresConnections

    /// The table, made and filled at start when the database has none yet, so that the C
    /// reference, which only reads, finds it.
    init(connections: PostgresConnections) async throws {
        self.connections = connections
        try await connections.write { connection in
            guard try connection.rows("SELECT to_regclass('fortune') IS NULL").first?.decode(Bool.self) ?? true else { return }
            try connection.execute("CREATE TABLE fortune (id integer PRIMARY KEY, message text NOT NULL)")
            for fortune in FortuneStore.rows {
                try connection.execute("INSERT INTO fortune (id, message) VALUES (\(fortune.id), \(fortune.message))")
            }
        }
    }

    func all() async throws -> [Fortune] {
        try await connections.execute(AllFortunes()).map { Fortune(id: $0.0, message: $0.1) }
    }

    struct AllFortunes: PostgresPreparedStatement {
        static let sql = "SELECT id, message FROM fortune"
        typealias Row = (Int, String)

        func makeBindings() throws -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }
}

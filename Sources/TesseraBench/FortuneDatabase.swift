import Foundation
import GRDB
import Tessera
import TesseraSQLite

/// The TechEmpower `fortune` table in SQLite, read on every request of `/sqlite-fortunes`, as the
/// Fortunes rules require: no cache, and no `ORDER BY` (the app sorts, after adding its row).
///
/// The file is made and filled at start when it has no table yet, so `make bench` can hand the
/// same file to the C reference, which only reads it.
struct FortuneDatabase: FortuneSource {
    /// The file's writer, kept open for the server's life: it holds the WAL files that the
    /// read-only connections need.
    let pool: DatabasePool
    let reader: InlineReader

    /// Opens (and on first use creates and fills) the database at `path`.
    init(path: String) throws {
        pool = try DatabasePool(path: path)
        try pool.write { db in
            guard try !db.tableExists("fortune") else { return }
            try db.create(table: "fortune") { table in
                table.primaryKey("id", .integer)
                table.column("message", .text).notNull()
            }
            for fortune in FortuneStore.rows {
                try db.execute(sql: "INSERT INTO fortune (id, message) VALUES (?, ?)", arguments: [fortune.id, fortune.message])
            }
        }
        reader = InlineReader(path: path)
    }

    /// Read on the caller's thread, as the storefront reads (``InlineReader``): one statement,
    /// so no transaction around it, prepared once per connection and stepped per request, its
    /// columns read by position (``SQLiteColumns``).
    func all(within budget: DatabaseBudget) async throws -> [Fortune] {
        try budget.measure {
            try reader.unsafeRead { db in
                var fortunes: [Fortune] = []
                fortunes.reserveCapacity(16)
                try db.cachedStatement(sql: "SELECT id, message FROM fortune").forEachRow { row in
                    fortunes.append(Fortune(id: row.int(0), message: row.string(1)))
                }
                return fortunes
            }
        }
    }
}

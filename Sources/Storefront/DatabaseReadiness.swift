import GRDB
import Tessera

/// Readiness: the storefront's database answers a read of its schema, from the file itself.
struct DatabaseReadiness: ReadinessCheck {
    let database: any DatabaseReader
    let name = "database"

    func check() async throws {
        _ = try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") }
    }
}

import GRDB
import Tessera

/// Readiness: the storefront's database answers a read.
struct DatabaseReadiness: ReadinessCheck {
    let database: any DatabaseReader
    let name = "database"

    func check() async throws {
        _ = try await database.read { try Int.fetchOne($0, sql: "SELECT 1") }
    }
}

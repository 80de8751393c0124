import Tessera
import TesseraSQLite

/// A task the handler detaches runs outside the request, where no budget can be looked up: a
/// database call in it is handed its request's budget, or does not compile.
struct Catalog: Sendable {
    let database: any SQLiteDatabase

    func refresh(in context: RequestContext) {
        Task.detached {
            _ = try await database.read { _ in 1 }
        }
    }
}

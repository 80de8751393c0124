import Cookbook
import Foundation
import GRDB
import Tessera
import TesseraSQLite

/// The app as its server builds it (the route table, the session, the form check), on a
/// new database in memory: each test starts empty.
enum TestApp {
    static func make() throws -> Application {
        let database = try DatabaseQueue()
        try CookbookApp.migrator.migrate(database)
        var app = ApplicationBuilder()
        CookbookApp.register(in: &app, database: database)
        let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
        return try app.build(
            layout: CookbookLayout(), middleware: [DatabasePatienceMiddleware(limit: .seconds(5)), SessionMiddleware(sessions), ErrorPageMiddleware()], routeMiddleware: [CSRFMiddleware()])
    }
}

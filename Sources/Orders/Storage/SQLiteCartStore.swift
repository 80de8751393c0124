public import GRDB
public import Tessera
public import TesseraSQLite

/// Carts in SQLite, one row per line.
public struct SQLiteCartStore: CartStore {
    let database: any SQLiteDatabase

    /// Carts in `database`, after their migrations ran.
    public init(database: any SQLiteDatabase) {
        self.database = database
    }

    /// The carts' table, in the order its versions were added.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("orders.v1.cart") { db in
            try db.create(table: "cartLine") { table in
                table.column("cartID", .text).notNull()
                table.column("productID", .integer).notNull()
                table.column("quantity", .integer).notNull().check { $0 > 0 }
                table.primaryKey(["cartID", "productID"])
            }
        }
    }

    /// By product, so a cart's lines keep their places between requests.
    public func lines(cart: String, within budget: DatabaseBudget) async throws -> [(productID: Int, quantity: Int)] {
        try await database.read(within: budget) { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT productID, quantity FROM cartLine WHERE cartID = ? ORDER BY productID"), arguments: [cart]
            )
            .map { ($0["productID"], $0["quantity"]) }
        }
    }

    /// An upsert; zero or less deletes the line.
    public func setQuantity(_ quantity: Int, of productID: Int, in cart: String, within budget: DatabaseBudget) async throws {
        try await database.write(within: budget) { db in
            if quantity <= 0 {
                try db.execute(sql: "DELETE FROM cartLine WHERE cartID = ? AND productID = ?", arguments: [cart, productID])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO cartLine (cartID, productID, quantity) VALUES (?, ?, ?)
                        ON CONFLICT(cartID, productID) DO UPDATE SET quantity = excluded.quantity
                        """, arguments: [cart, productID, quantity])
            }
        }
    }

    /// In one write transaction, so a sign-in racing another request loses no line.
    public func merge(cart source: String, into target: String, limits: [Int: Int], within budget: DatabaseBudget) async throws {
        try await database.write(within: budget) { db in
            let moving = try Row.fetchAll(db, sql: "SELECT productID, quantity FROM cartLine WHERE cartID = ?", arguments: [source])
            for row in moving {
                let productID: Int = row["productID"]
                let quantity: Int = row["quantity"]
                // A line added since the caller read the limits has none: it stays where it is.
                guard let limit = limits[productID] else { continue }
                let existing =
                    try Int.fetchOne(db, sql: "SELECT quantity FROM cartLine WHERE cartID = ? AND productID = ?", arguments: [target, productID]) ?? 0
                let merged = min(existing + quantity, limit)
                if merged > existing {
                    try db.execute(
                        sql: """
                            INSERT INTO cartLine (cartID, productID, quantity) VALUES (?, ?, ?)
                            ON CONFLICT(cartID, productID) DO UPDATE SET quantity = excluded.quantity
                            """, arguments: [target, productID, merged])
                }
                try db.execute(sql: "DELETE FROM cartLine WHERE cartID = ? AND productID = ?", arguments: [source, productID])
            }
        }
    }

    /// Adds to a line and returns its new quantity.
    public func add(_ quantity: Int, of productID: Int, to cart: String, within budget: DatabaseBudget) async throws -> Int {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: """
                    INSERT INTO cartLine (cartID, productID, quantity) VALUES (?, ?, ?)
                    ON CONFLICT(cartID, productID) DO UPDATE SET quantity = quantity + excluded.quantity
                    """, arguments: [cart, productID, quantity])
            return try Int.fetchOne(db, sql: "SELECT quantity FROM cartLine WHERE cartID = ? AND productID = ?", arguments: [cart, productID])
                ?? quantity
        }
    }
}

extension SQLiteCartStore {
    /// The carts' writes on `db`, inside a transaction the caller runs.
    public static func writes(in db: Database) -> some CartWrites {
        SQLiteCartWrites(db: db)
    }
}

/// Cart rows written on a transaction's connection.
struct SQLiteCartWrites: CartWrites {
    let db: Database

    func empty(cart: String) throws {
        try db.execute(sql: "DELETE FROM cartLine WHERE cartID = ?", arguments: [cart])
    }
}

public import Tessera
public import TesseraPostgres

/// Carts in PostgreSQL, shared by every instance: a shopper's next request may land on another.
public struct PostgresCartStore: CartStore {
    let connections: PostgresConnections

    /// Carts in the database behind `connections`.
    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// The carts' table, in the order its versions were added.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register(
            "orders.v1.cart",
            [
                """
                CREATE TABLE cart_line (cart_id text NOT NULL, product_id bigint NOT NULL, quantity bigint NOT NULL CHECK (quantity > 0), \
                PRIMARY KEY (cart_id, product_id))
                """
            ])
    }

    /// By product, so a cart's lines keep their places between requests.
    public func lines(cart: String, within budget: DatabaseBudget) async throws -> [(productID: Int, quantity: Int)] {
        try await connections.query("SELECT product_id, quantity FROM cart_line WHERE cart_id = \(cart) ORDER BY product_id", within: budget).map {
            row in
            let (productID, quantity) = try row.decode((Int, Int).self)
            return (productID, quantity)
        }
    }

    /// An upsert; zero or less deletes the line.
    public func setQuantity(_ quantity: Int, of productID: Int, in cart: String, within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in
            if quantity <= 0 {
                try connection.execute("DELETE FROM cart_line WHERE cart_id = \(cart) AND product_id = \(productID)")
            } else {
                try connection.execute(
                    """
                    INSERT INTO cart_line (cart_id, product_id, quantity) VALUES (\(cart), \(productID), \(quantity)) \
                    ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = excluded.quantity
                    """)
            }
        }
    }

    /// One `INSERT … ON CONFLICT … RETURNING`, so adds from two instances at once both count.
    public func add(_ quantity: Int, of productID: Int, to cart: String, within budget: DatabaseBudget) async throws -> Int {
        try await connections.write(within: budget) { connection in
            try connection.rows(
                """
                INSERT INTO cart_line (cart_id, product_id, quantity) VALUES (\(cart), \(productID), \(quantity)) \
                ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = cart_line.quantity + excluded.quantity RETURNING quantity
                """
            ).first?.decode(Int.self) ?? quantity
        }
    }

    /// In one transaction, so a sign-in racing another request loses no line.
    public func merge(cart source: String, into target: String, limits: [Int: Int], within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in
            // The source's lines, locked: a request changing the same cart waits for the merge.
            let moving = try connection.rows("SELECT product_id, quantity FROM cart_line WHERE cart_id = \(source) FOR UPDATE")
                .map { try $0.decode((Int, Int).self) }
            for (productID, quantity) in moving {
                // A line added since the caller read the limits has none: it stays where it is.
                guard let limit = limits[productID] else { continue }
                // One statement, so that a concurrent add to the target is added to, not
                // overwritten: quantities add up to the limit, and never go down.
                if limit > 0 {
                    try connection.execute(
                        """
                        INSERT INTO cart_line (cart_id, product_id, quantity) VALUES (\(target), \(productID), LEAST(\(quantity), \(limit))) \
                        ON CONFLICT (cart_id, product_id) DO UPDATE \
                        SET quantity = GREATEST(cart_line.quantity, LEAST(cart_line.quantity + \(quantity), \(limit)))
                        """)
                }
                try connection.execute("DELETE FROM cart_line WHERE cart_id = \(source) AND product_id = \(productID)")
            }
        }
    }
}

extension PostgresCartStore {
    /// The carts' writes on `connection`, inside a transaction the caller runs.
    public static func writes(in connection: BlockingConnection) -> some CartWrites {
        PostgresCartWrites(connection: connection)
    }
}

struct PostgresCartWrites: CartWrites {
    let connection: BlockingConnection

    func empty(cart: String) throws {
        try connection.execute("DELETE FROM cart_line WHERE cart_id = \(cart)")
    }
}

import Foundation
public import GRDB
public import Tessera
public import TesseraSQLite

/// Orders in SQLite, through GRDB: reads here, writes through ``SQLiteOrderWrites`` inside the
/// transaction the composition root runs.
public struct SQLiteOrderStore: OrderStore {
    let database: any SQLiteDatabase

    /// Orders in `database`, after their migrations ran.
    public init(database: any SQLiteDatabase) {
        self.database = database
    }

    /// The orders' tables and indexes, in the order they were added; the storefront runs them at start.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("orders.v2.orders") { db in
            try db.create(table: "customerOrder") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("userID", .integer).notNull().indexed()
                table.column("status", .text).notNull()
                    .check(sql: "status IN ('awaiting_payment', 'paid', 'shipped', 'completed', 'cancelled')")
                table.column("placedAt", .datetime).notNull()
                table.column("trackingNumber", .text)
                table.column("cancellationReason", .text)
                table.column("reviewRating", .integer).check(sql: "reviewRating BETWEEN 1 AND 5")
                table.column("reviewText", .text)
                table.column("reviewedAt", .datetime)
            }
            try db.create(table: "orderLine") { table in
                table.column("orderID", .integer).notNull().references("customerOrder", onDelete: .cascade)
                table.column("productID", .integer).notNull().indexed()
                table.column("productName", .text).notNull()
                table.column("unitPriceMinor", .integer).notNull().check { $0 >= 0 }
                table.column("quantity", .integer).notNull().check { $0 > 0 }
                table.primaryKey(["orderID", "productID"])
            }
            // One row per order at most: the primary key itself forbids a second charge.
            try db.create(table: "payment") { table in
                table.primaryKey("orderID", .integer).references("customerOrder", onDelete: .cascade)
                table.column("reference", .text).notNull().unique()
                // A key only means something for its own order: a client that sends another
                // order's key pays this one, it does not break a constraint.
                table.column("idempotencyKey", .text).notNull()
                table.column("amountMinor", .integer).notNull().check { $0 >= 0 }
                table.column("paidAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("orders.v3.history") { db in
            try db.create(table: "orderHistory") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("orderID", .integer).notNull().indexed().references("customerOrder", onDelete: .cascade)
                table.column("at", .datetime).notNull()
                table.column("actor", .text).notNull()
                table.column("isStaff", .boolean).notNull()
                table.column("action", .text).notNull()
                table.column("detail", .text)
            }
            try db.create(index: "customerOrder_by_placedAt", on: "customerOrder", columns: ["placedAt", "id"])
        }
        // Each checkout form carries the number its order will have; a second submission of the
        // same form finds the order the first placed.
        migrator.registerMigration("orders.v4.checkout-numbers") { db in
            try db.alter(table: "customerOrder") { table in
                table.add(column: "checkoutNumber", .integer)
            }
            try db.create(index: "customerOrder_by_checkout", on: "customerOrder", columns: ["userID", "checkoutNumber"], unique: true)
        }
    }

    /// One more than the user's highest; checkouts are serialised by SQLite's one writer.
    public func nextCheckoutNumber(userID: Int, within budget: DatabaseBudget) async throws -> Int {
        try await database.read(within: budget) { db in
            try
                (Int.fetchOne(
                    db.cachedStatement(sql: "SELECT coalesce(max(checkoutNumber), 0) FROM customerOrder WHERE userID = ?"), arguments: [userID]) ?? 0)
                + 1
        }
    }

    /// The order with its lines, payment and review.
    public func order(id: Int, within budget: DatabaseBudget) async throws -> Order? {
        try await database.read(within: budget) { db in
            try Self.orders(db, sql: "SELECT * FROM customerOrder WHERE id = ?", arguments: [id]).first
        }
    }

    /// Newest first (`placedAt`, then id).
    public func orders(userID: Int, status: OrderStatus?, within budget: DatabaseBudget) async throws -> [Order] {
        try await database.read(within: budget) { db in
            if let status {
                return try Self.orders(
                    db, sql: "SELECT * FROM customerOrder WHERE userID = ? AND status = ? ORDER BY placedAt DESC, id DESC",
                    arguments: [userID, status.rawValue])
            }
            return try Self.orders(db, sql: "SELECT * FROM customerOrder WHERE userID = ? ORDER BY placedAt DESC, id DESC", arguments: [userID])
        }
    }

    /// For the back office: newest first, at most `limit`.
    public func allOrders(status: OrderStatus?, limit: Int, within budget: DatabaseBudget) async throws -> [Order] {
        try await database.read(within: budget) { db in
            if let status {
                return try Self.orders(
                    db, sql: "SELECT * FROM customerOrder WHERE status = ? ORDER BY placedAt DESC, id DESC LIMIT ?",
                    arguments: [status.rawValue, limit])
            }
            return try Self.orders(db, sql: "SELECT * FROM customerOrder ORDER BY placedAt DESC, id DESC LIMIT ?", arguments: [limit])
        }
    }

    /// Oldest first, as the back office shows it.
    public func history(orderID: Int, within budget: DatabaseBudget) async throws -> [OrderHistoryEntry] {
        try await database.read(within: budget) { db in
            try Row.fetchAll(db, sql: "SELECT * FROM orderHistory WHERE orderID = ? ORDER BY id", arguments: [orderID]).map { row in
                OrderHistoryEntry(
                    at: row["at"], actor: OrderChangeAuthor(name: row["actor"], isStaff: row["isStaff"]), action: row["action"], detail: row["detail"]
                )
            }
        }
    }

    /// The user's orders with this product, newest first.
    public func purchases(userID: Int, productID: Int, within budget: DatabaseBudget) async throws -> [Purchase] {
        try await database.read(within: budget) { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT o.id, o.placedAt, o.status, l.quantity FROM customerOrder o JOIN orderLine l ON l.orderID = o.id
                        WHERE o.userID = ? AND l.productID = ? AND o.status IN ('paid', 'shipped', 'completed')
                        ORDER BY o.placedAt DESC, o.id DESC
                        """), arguments: [userID, productID]
            ).map { row in
                Purchase(
                    orderID: row["id"], placedAt: row["placedAt"], quantity: row["quantity"],
                    status: OrderStatus(rawValue: row["status"]) ?? .paid)
            }
        }
    }

    /// Orders with their lines, payment and review, for the rows `sql` selects: three queries
    /// whatever the number of orders, each prepared once per connection.
    static func orders(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Order] {
        let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        let ids: [Int] = rows.map { $0["id"] }
        guard !ids.isEmpty else { return [] }
        // The ids as one JSON array, so that these statements are the same for any number of
        // orders and are prepared once too.
        let idList = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let lines = Dictionary(
            grouping: try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM orderLine WHERE orderID IN (SELECT value FROM json_each(?)) ORDER BY productID"),
                arguments: [idList]
            )
        ) { (row: Row) -> Int in row["orderID"] }
        let payments = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM payment WHERE orderID IN (SELECT value FROM json_each(?))"), arguments: [idList]
            ).map { row -> (Int, Payment) in
                (
                    row["orderID"],
                    Payment(
                        reference: row["reference"], idempotencyKey: row["idempotencyKey"], amountMinor: row["amountMinor"], paidAt: row["paidAt"])
                )
            })
        return rows.map { row in
            let id: Int = row["id"]
            let review: Review? = (row["reviewRating"] as Int?).map {
                Review(rating: $0, text: row["reviewText"] ?? "", reviewedAt: row["reviewedAt"] ?? row["placedAt"])
            }
            return Order(
                id: id, userID: row["userID"], status: OrderStatus(rawValue: row["status"]) ?? .cancelled, placedAt: row["placedAt"],
                lines: (lines[id] ?? []).map {
                    OrderLine(
                        productID: $0["productID"], productName: $0["productName"], unitPriceMinor: $0["unitPriceMinor"], quantity: $0["quantity"])
                },
                payment: payments[id], trackingNumber: row["trackingNumber"], cancellationReason: row["cancellationReason"], review: review
            )
        }
    }
}

extension SQLiteOrderStore {
    /// The orders' writes on `db`, inside a transaction the caller runs.
    public static func writes(in db: Database) -> some OrderWrites {
        SQLiteOrderWrites(db: db)
    }
}

/// Order rows written on a transaction's connection.
struct SQLiteOrderWrites: OrderWrites {
    let db: Database

    /// Writes are one at a time on SQLite: nothing to lock.
    func lockCheckouts(of userID: Int) throws {}

    func order(placedBy userID: Int, checkoutNumber number: Int) throws -> Int? {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM customerOrder WHERE userID = ? AND checkoutNumber = ?"), arguments: [userID, number])
    }

    func lastCheckoutNumber(of userID: Int) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(checkoutNumber), 0) FROM customerOrder WHERE userID = ?"), arguments: [userID])
            ?? 0
    }

    func insertOrder(userID: Int, lines: [OrderLine], at date: Date, checkoutNumber: Int?) throws -> Int {
        try db.execute(
            sql: "INSERT INTO customerOrder (userID, status, placedAt, checkoutNumber) VALUES (?, ?, ?, ?)",
            arguments: [userID, OrderStatus.awaitingPayment.rawValue, date, checkoutNumber])
        let id = Int(db.lastInsertedRowID)
        for line in lines {
            try db.execute(
                sql: "INSERT INTO orderLine (orderID, productID, productName, unitPriceMinor, quantity) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, line.productID, line.productName, line.unitPriceMinor, line.quantity])
        }
        return id
    }

    func record(_ entry: OrderHistoryEntry, orderID: Int) throws {
        try db.execute(
            sql: "INSERT INTO orderHistory (orderID, at, actor, isStaff, action, detail) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [orderID, entry.at, entry.actor.name, entry.actor.isStaff, entry.action, entry.detail])
    }

    func update(orderID: Int, from expected: OrderStatus, to status: OrderStatus, recording change: OrderChange) throws -> Bool {
        try db.execute(
            sql: "UPDATE customerOrder SET status = ? WHERE id = ? AND status = ?",
            arguments: [status.rawValue, orderID, expected.rawValue])
        guard db.changesCount == 1 else { return false }
        switch change {
        case .payment(let payment):
            try db.execute(
                sql: "INSERT INTO payment (orderID, reference, idempotencyKey, amountMinor, paidAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [orderID, payment.reference, payment.idempotencyKey, payment.amountMinor, payment.paidAt])
        case .shipment(let trackingNumber):
            try db.execute(sql: "UPDATE customerOrder SET trackingNumber = ? WHERE id = ?", arguments: [trackingNumber, orderID])
        case .receipt:
            break
        case .cancellation(let reason):
            try db.execute(sql: "UPDATE customerOrder SET cancellationReason = ? WHERE id = ?", arguments: [reason, orderID])
        case .review(let review):
            // Reviewing keeps the status; the guard makes a second review lose to the first.
            try db.execute(
                sql: "UPDATE customerOrder SET reviewRating = ?, reviewText = ?, reviewedAt = ? WHERE id = ? AND reviewRating IS NULL",
                arguments: [review.rating, review.text, review.reviewedAt, orderID])
            return db.changesCount == 1
        }
        return true
    }
}

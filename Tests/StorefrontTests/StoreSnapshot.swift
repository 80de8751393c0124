import GRDB
import Testing

/// A storefront database read directly, a backup's or a running server's, by the backup and
/// crash tests. Reading it checks what any consistent state must show: nothing broken, no order
/// without lines, no paid order without its payment. What must add up across two states is kept:
/// stock plus what open orders hold of it, and the orders with their lines and payments.
struct StoreSnapshot {
    let orders: Int
    /// Per product: stock plus what open (not cancelled) orders hold of it.
    let stockAccountedFor: [Int: Int]
    /// Per order: its lines, product id → quantity.
    let lines: [Int: [Int: Int]]
    /// The orders with a payment.
    let paid: Set<Int>

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true  // the live database of a running server, or a backup
        let database = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? database.close() }
        (lines, paid) = try database.read { db in
            var lines: [Int: [Int: Int]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT orderID, productID, quantity FROM orderLine") {
                lines[row["orderID"], default: [:]][row["productID"]] = row["quantity"]
            }
            return (lines, Set(try Int.fetchAll(db, sql: "SELECT orderID FROM payment")))
        }
        (orders, stockAccountedFor) = try database.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM customerOrder WHERE id NOT IN (SELECT orderID FROM orderLine)") == 0,
                "every order has its lines")
            #expect(
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM customerOrder
                        WHERE status IN ('paid', 'shipped', 'completed') AND id NOT IN (SELECT orderID FROM payment)
                        """) == 0, "every paid order has its payment")
            #expect(
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM payment JOIN customerOrder ON customerOrder.id = payment.orderID
                        WHERE customerOrder.status = 'awaiting_payment'
                        """) == 0, "every payment moved its order on")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT product.id AS id, product.stock + COALESCE((
                        SELECT SUM(orderLine.quantity) FROM orderLine JOIN customerOrder ON customerOrder.id = orderLine.orderID
                        WHERE orderLine.productID = product.id AND customerOrder.status != 'cancelled'), 0) AS total
                    FROM product
                    """)
            return (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM customerOrder") ?? 0,
                Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as Int, $0["total"] as Int) })
            )
        }
    }
}

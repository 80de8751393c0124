import Foundation
public import Tessera
public import TesseraPostgres

/// Orders in PostgreSQL: reads here, writes through ``PostgresOrderWrites`` inside the
/// transaction the composition root runs. Every move between statuses is a conditional
/// `UPDATE`, so two instances racing (a payment and a cancellation) cannot both win.
public struct PostgresOrderStore: OrderStore {
    let connections: PostgresConnections

    /// Orders in the database behind `connections`.
    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// The first key of the advisory lock on a user's checkouts.
    static let checkoutLock: Int32 = 0x6368_6b6f  // "chko"

    /// One more than the user's highest; the checkout itself takes an advisory lock, so two checkouts never share one.
    public func nextCheckoutNumber(userID: Int, within budget: DatabaseBudget) async throws -> Int {
        try
            (await connections.query("SELECT coalesce(max(checkout_number), 0) FROM customer_order WHERE user_id = \(userID)", within: budget).first?
            .decode(Int.self)
            ?? 0) + 1
    }

    /// The orders' tables and indexes, in the order they were added; the storefront runs them at start.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register(
            "orders.v2.orders",
            [
                """
                CREATE TABLE customer_order (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL,
                    status text NOT NULL CHECK (status IN ('awaiting_payment', 'paid', 'shipped', 'completed', 'cancelled')),
                    placed_at timestamptz NOT NULL,
                    tracking_number text,
                    cancellation_reason text,
                    review_rating integer CHECK (review_rating BETWEEN 1 AND 5),
                    review_text text,
                    reviewed_at timestamptz
                )
                """,
                "CREATE INDEX customer_order_by_user ON customer_order (user_id, placed_at DESC, id DESC)",
                """
                CREATE TABLE order_line (
                    order_id bigint NOT NULL REFERENCES customer_order ON DELETE CASCADE,
                    product_id bigint NOT NULL,
                    product_name text NOT NULL,
                    unit_price_minor bigint NOT NULL CHECK (unit_price_minor >= 0),
                    quantity bigint NOT NULL CHECK (quantity > 0),
                    PRIMARY KEY (order_id, product_id)
                )
                """,
                "CREATE INDEX order_line_by_product ON order_line (product_id)",
                // One row per order at most: the primary key itself forbids a second charge.
                """
                CREATE TABLE payment (
                    order_id bigint PRIMARY KEY REFERENCES customer_order ON DELETE CASCADE,
                    reference text NOT NULL UNIQUE,
                    idempotency_key text NOT NULL,
                    amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
                    paid_at timestamptz NOT NULL
                )
                """,
            ])
        migrator.register(
            "orders.v3.history",
            [
                """
                CREATE TABLE order_history (
                    id bigserial PRIMARY KEY,
                    order_id bigint NOT NULL REFERENCES customer_order ON DELETE CASCADE,
                    at timestamptz NOT NULL,
                    actor text NOT NULL,
                    is_staff boolean NOT NULL,
                    action text NOT NULL,
                    detail text
                )
                """,
                "CREATE INDEX order_history_by_order ON order_history (order_id, id)",
                "CREATE INDEX customer_order_by_placed_at ON customer_order (placed_at DESC, id DESC)",
            ])
        // Each checkout form carries the number its order will have; a second submission of the
        // same form finds the order the first placed.
        migrator.register(
            "orders.v4.checkout-numbers",
            [
                "ALTER TABLE customer_order ADD COLUMN checkout_number bigint",
                "CREATE UNIQUE INDEX customer_order_by_checkout ON customer_order (user_id, checkout_number)",
            ])
    }

    static let orderColumns = """
        id, user_id, status, placed_at, tracking_number, cancellation_reason, review_rating, review_text, reviewed_at
        """

    /// The order with its lines, payment and review.
    public func order(id: Int, within budget: DatabaseBudget) async throws -> Order? {
        try await orders("SELECT \(Self.orderColumns) FROM customer_order WHERE id = $1", PostgresBindings(id), within: budget).first
    }

    /// Newest first, through the index on the user and the time placed.
    public func orders(userID: Int, status: OrderStatus?, within budget: DatabaseBudget) async throws -> [Order] {
        var binds = PostgresBindings(userID)
        var sql = "SELECT \(Self.orderColumns) FROM customer_order WHERE user_id = $1"
        if let status {
            binds.append(status.rawValue)
            sql += " AND status = $2"
        }
        return try await orders(sql, binds, within: budget)
    }

    /// For the back office: newest first, at most `limit`.
    public func allOrders(status: OrderStatus?, limit: Int, within budget: DatabaseBudget) async throws -> [Order] {
        var binds = PostgresBindings(limit)
        var sql = "SELECT \(Self.orderColumns) FROM customer_order"
        if let status {
            binds.append(status.rawValue)
            sql += " WHERE status = $2"
        }
        return try await orders(sql + " ORDER BY placed_at DESC, id DESC LIMIT $1", binds, within: budget)
    }

    /// Oldest first, as the back office shows it.
    public func history(orderID: Int, within budget: DatabaseBudget) async throws -> [OrderHistoryEntry] {
        try await connections.query(
            "SELECT at, actor, is_staff, action, detail FROM order_history WHERE order_id = \(orderID) ORDER BY id", within: budget
        ).map {
            row in
            let (at, actor, isStaff, action, detail) = try row.decode((Date, String, Bool, String, String?).self)
            return OrderHistoryEntry(at: at, actor: OrderChangeAuthor(name: actor, isStaff: isStaff), action: action, detail: detail)
        }
    }

    /// The user's orders with this product, newest first.
    public func purchases(userID: Int, productID: Int, within budget: DatabaseBudget) async throws -> [Purchase] {
        try await connections.query(
            """
            SELECT o.id, o.placed_at, o.status, l.quantity FROM customer_order o JOIN order_line l ON l.order_id = o.id \
            WHERE o.user_id = \(userID) AND l.product_id = \(productID) AND o.status IN ('paid', 'shipped', 'completed') \
            ORDER BY o.placed_at DESC, o.id DESC
            """, within: budget
        ).map { row in
            let (id, placedAt, status, quantity) = try row.decode((Int, Date, String, Int).self)
            return Purchase(orderID: id, placedAt: placedAt, quantity: quantity, status: OrderStatus(rawValue: status) ?? .paid)
        }
    }

    /// The orders `selection` picks (its columns ``orderColumns``, in its order) with their
    /// lines and payment, in one statement: one round trip and one snapshot, whatever the number
    /// of orders. Each line is a row; an order's rows come together, lines by product.
    private func orders(_ selection: String, _ binds: PostgresBindings, within budget: DatabaseBudget) async throws -> [Order] {
        let rows = try await connections.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT o.id, o.user_id, o.status, o.placed_at, o.tracking_number, o.cancellation_reason, o.review_rating, o.review_text, \
                    o.reviewed_at, p.reference, p.idempotency_key, p.amount_minor, p.paid_at, \
                    l.product_id, l.product_name, l.unit_price_minor, l.quantity \
                    FROM (\(selection)) AS o LEFT JOIN payment p ON p.order_id = o.id LEFT JOIN order_line l ON l.order_id = o.id \
                    ORDER BY o.placed_at DESC, o.id DESC, l.product_id
                    """, binds: binds), within: budget)
        var orders: [Order] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            let id = try cells[0].decode(Int.self)
            if orders.last?.id != id {
                let placedAt = try cells[3].decode(Date.self)
                let payment: Payment? =
                    cells[9].isNull
                    ? nil
                    : Payment(
                        reference: try cells[9].decode(String.self), idempotencyKey: try cells[10].decode(String.self),
                        amountMinor: try cells[11].decode(Int.self), paidAt: try cells[12].decode(Date.self))
                let review = try cells[6].decode(Int?.self).map {
                    Review(rating: $0, text: try cells[7].decode(String?.self) ?? "", reviewedAt: try cells[8].decode(Date?.self) ?? placedAt)
                }
                orders.append(
                    Order(
                        id: id, userID: try cells[1].decode(Int.self), status: OrderStatus(rawValue: try cells[2].decode(String.self)) ?? .cancelled,
                        placedAt: placedAt, lines: [], payment: payment, trackingNumber: try cells[4].decode(String?.self),
                        cancellationReason: try cells[5].decode(String?.self), review: review
                    ))
            }
            if !cells[13].isNull {
                orders[orders.count - 1].lines.append(
                    OrderLine(
                        productID: try cells[13].decode(Int.self), productName: try cells[14].decode(String.self),
                        unitPriceMinor: try cells[15].decode(Int.self), quantity: try cells[16].decode(Int.self)))
            }
        }
        return orders
    }
}

extension PostgresOrderStore {
    /// The orders' writes on `connection`, inside a transaction the caller runs.
    public static func writes(in connection: BlockingConnection) -> some OrderWrites {
        PostgresOrderWrites(connection: connection)
    }
}

/// Order rows written on a transaction's connection.
struct PostgresOrderWrites: OrderWrites {
    let connection: BlockingConnection

    /// A lock for the transaction's length, on the user's checkouts alone (the first key names
    /// what is locked, the second whose). Read committed then shows the waiting transaction
    /// the order the other one committed.
    func lockCheckouts(of userID: Int) throws {
        try connection.execute("SELECT pg_advisory_xact_lock(\(PostgresOrderStore.checkoutLock), \(Int32(truncatingIfNeeded: userID)))")
    }

    func order(placedBy userID: Int, checkoutNumber number: Int) throws -> Int? {
        try connection.rows("SELECT id FROM customer_order WHERE user_id = \(userID) AND checkout_number = \(number)").first?.decode(Int.self)
    }

    func lastCheckoutNumber(of userID: Int) throws -> Int {
        try connection.rows("SELECT coalesce(max(checkout_number), 0) FROM customer_order WHERE user_id = \(userID)").first?.decode(Int.self) ?? 0
    }

    func insertOrder(userID: Int, lines: [OrderLine], at date: Date, checkoutNumber: Int?) throws -> Int {
        guard
            let id = try connection.rows(
                """
                INSERT INTO customer_order (user_id, status, placed_at, checkout_number) \
                VALUES (\(userID), \(OrderStatus.awaitingPayment.rawValue), \(date), \(checkoutNumber)) RETURNING id
                """
            ).first?.decode(Int.self)
        else { throw PostgresOrderStore.InsertReturnedNothing() }
        for line in lines {
            try connection.execute(
                """
                INSERT INTO order_line (order_id, product_id, product_name, unit_price_minor, quantity) \
                VALUES (\(id), \(line.productID), \(line.productName), \(line.unitPriceMinor), \(line.quantity))
                """)
        }
        return id
    }

    func record(_ entry: OrderHistoryEntry, orderID: Int) throws {
        try connection.execute(
            """
            INSERT INTO order_history (order_id, at, actor, is_staff, action, detail) \
            VALUES (\(orderID), \(entry.at), \(entry.actor.name), \(entry.actor.isStaff), \(entry.action), \(entry.detail))
            """)
    }

    func update(orderID: Int, from expected: OrderStatus, to status: OrderStatus, recording change: OrderChange) throws -> Bool {
        guard
            try connection.execute(
                """
                UPDATE customer_order SET status = \(status.rawValue) WHERE id = \(orderID) AND status = \(expected.rawValue)
                """) == 1
        else { return false }
        switch change {
        case .payment(let payment):
            try connection.execute(
                """
                INSERT INTO payment (order_id, reference, idempotency_key, amount_minor, paid_at) \
                VALUES (\(orderID), \(payment.reference), \(payment.idempotencyKey), \(payment.amountMinor), \(payment.paidAt))
                """)
        case .shipment(let trackingNumber):
            try connection.execute("UPDATE customer_order SET tracking_number = \(trackingNumber) WHERE id = \(orderID)")
        case .receipt:
            break
        case .cancellation(let reason):
            try connection.execute("UPDATE customer_order SET cancellation_reason = \(reason) WHERE id = \(orderID)")
        case .review(let review):
            // Reviewing keeps the status; the guard makes a second review lose to the first.
            return try connection.execute(
                """
                UPDATE customer_order SET review_rating = \(review.rating), review_text = \(review.text), reviewed_at = \(review.reviewedAt) \
                WHERE id = \(orderID) AND review_rating IS NULL
                """) == 1
        }
        return true
    }
}

extension PostgresOrderStore {
    /// `INSERT … RETURNING id` gave no row: the database is not behaving as PostgreSQL does.
    struct InsertReturnedNothing: Error {}
}

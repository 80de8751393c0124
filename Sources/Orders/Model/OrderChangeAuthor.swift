/// Who changed an order, for its history: a shopper, a member of staff, or the shop itself.
public struct OrderChangeAuthor: Sendable, Equatable {
    /// The name the history shows.
    public let name: String
    /// Whether they acted as staff (the back office), not as the order's shopper.
    public let isStaff: Bool

    /// An actor as a store reads one from the history; new ones come from `shopper(_:)` and `staff(_:)`.
    public init(name: String, isStaff: Bool) {
        self.name = name
        self.isStaff = isStaff
    }

    /// The order's shopper, by name.
    public static func shopper(_ name: String) -> OrderChangeAuthor { OrderChangeAuthor(name: name, isStaff: false) }

    /// A member of staff, by name.
    public static func staff(_ name: String) -> OrderChangeAuthor { OrderChangeAuthor(name: name, isStaff: true) }

    /// The demo data the first run creates.
    public static let demoData = OrderChangeAuthor(name: "Demo data", isStaff: true)
}

public import Tessera

/// What the orders' regions depend on, for live regions.
public enum OrdersTopics {
    /// One order, by id: its status region shows its every change.
    public static let order = TopicFamily<Int>("order")
    /// The orders of one shopper, by user id: their order list changes when one is placed or moves.
    public static let ordersOf = TopicFamily<Int>("orders-of")
}

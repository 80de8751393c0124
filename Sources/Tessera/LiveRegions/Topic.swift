/// Something a region's model depends on, such as one order or one product: when it changes,
/// every open page showing a region that depends on it gets that region again.
///
/// Topics are made from a ``TopicFamily``, so that the key's type is checked where it is made
/// (`OrdersTopics.order(order.id)`), and two modules cannot mean different things by one name.
public struct Topic: Hashable, Sendable, CustomStringConvertible {
    /// `family.key`, such as `order.42`: what goes across instances (PostgreSQL's `NOTIFY`).
    public let name: String

    /// A topic from its wire name; families make topics, this is for transports that carry them.
    public init(name: String) {
        self.name = name
    }

    /// The topic's name.
    public var description: String { name }
}

/// A kind of topic with a typed key: `TopicFamily<Int>("order")` makes `order.42` from an order id.
///
/// The module that owns the model declares the family; its services publish changes of it and
/// its region controllers declare that they depend on it.
public struct TopicFamily<Key: LosslessStringConvertible & Sendable>: Sendable {
    /// The family's name, such as `order`: start it with the module's name when it could clash.
    public let name: String

    /// A family named `name` (letters, digits, `-` and `_`; a `.` separates the key).
    public init(_ name: String) {
        precondition(!name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" },
                     "a topic family's name is letters, digits, - and _")
        self.name = name
    }

    /// The topic of one key of this family.
    public func callAsFunction(_ key: Key) -> Topic {
        Topic(name: name + "." + key.description)
    }
}

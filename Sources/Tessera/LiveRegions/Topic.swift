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

    /// For one key's topic (`product.3`), its family's ``TopicFamily/any`` topic (`product`),
    /// which a region that depends on every key of the family declares; `nil` for that topic
    /// itself.
    var family: Topic? {
        name.utf8.firstIndex(of: UInt8(ascii: ".")).map { Topic(name: String(name[..<$0])) }
    }

    /// Who in `index` (filed by the topics each depends on) hears that `published` changed:
    /// those filed under one of them, under its family's ``TopicFamily/any``, or, for a
    /// published family, under any of its keys.
    static func listeners<ID: Hashable>(of published: [Topic], in index: [Topic: Set<ID>]) -> Set<ID> {
        var found: Set<ID> = []
        for topic in published {
            found.formUnion(index[topic] ?? [])
            if let family = topic.family {
                found.formUnion(index[family] ?? [])
            } else {
                for (filed, ids) in index where filed.family == topic { found.formUnion(ids) }
            }
        }
        return found
    }
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
        precondition(
            !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" },
            "a topic family's name is letters, digits, - and _")
        self.name = name
    }

    /// The topic of one key of this family.
    public func callAsFunction(_ key: Key) -> Topic {
        Topic(name: name + "." + key.description)
    }

    /// Every key of this family, for a region that shows many of them (a list of products):
    /// it hears each key's change. Published itself, it means that every key changed.
    public var any: Topic {
        Topic(name: name)
    }
}

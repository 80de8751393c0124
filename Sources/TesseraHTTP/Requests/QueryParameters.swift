/// The decoded query string of a request, in order, with repeated keys kept.
///
/// `?tag=a&tag=b` is common in filters, so the first value is what `subscript` gives,
/// and `values(for:)` gives them all.
public struct QueryParameters: Sendable, Equatable, Sequence {
    /// One `name=value` pair, decoded.
    public struct Item: Sendable, Equatable {
        /// The decoded name.
        public var name: String
        /// The decoded value; empty for `?flag`.
        public var value: String
        /// A pair as it was decoded.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every pair in the order sent; repeated names are kept.
    public private(set) var items: [Item]

    /// Parameters with these pairs; for tests and tools.
    public init(_ items: [Item] = []) {
        self.items = items
    }

    /// The first value for `name`, or `nil`.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        items.compactMap { $0.name == name ? $0.value : nil }
    }

    /// Iterates the pairs in the order sent.
    public func makeIterator() -> IndexingIterator<[Item]> {
        items.makeIterator()
    }
}

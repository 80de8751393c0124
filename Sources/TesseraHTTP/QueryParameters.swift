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

    /// Parses `a=1&b=2&a=3` (without the leading `?`). `+` is a space, as browsers send it.
    public init(parsing encoded: some Collection<UInt8>) throws(HTTPError) {
        var items: [Item] = []
        for pair in encoded.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            do {
                items.append(
                    Item(
                        name: try PercentDecoding.decode(rawName, plusIsSpace: true),
                        value: try PercentDecoding.decode(rawValue, plusIsSpace: true)
                    ))
            } catch {
                throw HTTPError(.queryNotUTF8)
            }
        }
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

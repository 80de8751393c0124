extension QueryParameters {
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
        self.init(items)
    }
}

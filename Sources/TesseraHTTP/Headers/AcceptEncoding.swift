/// An `Accept-Encoding` field, read for the codings Tessera sends: gzip, and `dcz` (zstd against
/// a dictionary the client holds).
package struct AcceptEncoding {
    let value: String

    package init(_ value: String?) {
        self.value = value ?? ""
    }

    /// Whether gzip is accepted: named with a weight above 0 (`x-gzip` too), or else through `*`.
    package var allowsGzip: Bool {
        var named: Bool?
        var wildcard: Bool?
        WeightedList.forEach(value) { coding, weight in
            if FieldList.element(coding, equalsIgnoringCase: "gzip") || FieldList.element(coding, equalsIgnoringCase: "x-gzip") {
                named = weight > 0
                return true
            }
            if coding.count == 1, coding[0] == UInt8(ascii: "*") { wildcard = weight > 0 }
            return false
        }
        return named ?? wildcard ?? false
    }

    /// Whether `dcz` (zstd against a dictionary the client names) is accepted: named with a
    /// weight above 0. Not through `*`: a client that has no dictionary names none.
    package var allowsDictionaryZstd: Bool { names("dcz") }

    /// Whether zstd is named with a weight above 0: what every browser that takes compression
    /// dictionaries sends before it holds one.
    package var namesZstd: Bool { names("zstd") }

    @inline(__always)
    private func names(_ wanted: StaticString) -> Bool {
        var named = false
        WeightedList.forEach(value) { coding, weight in
            guard FieldList.element(coding, equalsIgnoringCase: wanted) else { return false }
            named = weight > 0
            return true
        }
        return named
    }
}

/// An `Accept-Encoding` field, read for the one coding Tessera sends: gzip.
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
}

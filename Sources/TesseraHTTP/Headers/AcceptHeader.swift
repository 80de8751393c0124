/// Just enough of `Accept` parsing to choose between HTML and JSON.
public struct AcceptHeader: Sendable {
    /// The header as sent; empty when there was none.
    public let value: String

    /// Reads an `Accept` value; `nil` means the client accepts anything.
    public init(_ value: String?) {
        self.value = value ?? ""
    }

    /// True when the client ranks `application/json` above `text/html` (browsers never do).
    public var prefersJSON: Bool {
        // Most requests send no `Accept`, or a browser's: nothing to weigh for the first.
        !value.isEmpty && quality(of: "application/json") > quality(of: "text/html")
    }

    /// The `q` the client gives `mediaType`, through exact or wildcard ranges; 0 when absent.
    public func quality(of mediaType: String) -> Double {
        var mediaType = mediaType
        let thousandths = mediaType.withUTF8 { wanted in
            // `type/` of `type/subtype`, for a `type/*` range.
            let type = UnsafeBufferPointer(rebasing: wanted[...(wanted.firstIndex(of: UInt8(ascii: "/")) ?? wanted.count - 1)])
            var best = (specificity: -1, weight: 0)
            WeightedList.forEach(value) { range, weight in
                let specificity: Int
                if FieldList.element(range, equalsIgnoringCase: wanted) {
                    specificity = 2
                } else if range.count == type.count + 1, range.last == UInt8(ascii: "*"),
                    FieldList.element(UnsafeBufferPointer(rebasing: range.dropLast()), equalsIgnoringCase: type), type.last == UInt8(ascii: "/")
                {
                    specificity = 1
                } else if range.elementsEqual("*/*".utf8) {
                    specificity = 0
                } else {
                    return false
                }
                if specificity > best.specificity { best = (specificity, weight) }
                return false
            }
            return best.weight
        }
        return Double(thousandths) / 1000
    }
}

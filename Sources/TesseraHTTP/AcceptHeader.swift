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
        let type = mediaType.split(separator: "/").first.map(String.init) ?? mediaType
        var best: (specificity: Int, q: Double) = (-1, 0)
        for range in value.split(separator: ",") {
            let parsed = MediaTypeHeader(String(range))
            let q = parsed.parameters["q"].flatMap(Double.init) ?? 1
            let specificity: Int
            switch parsed.essence {
            case mediaType: specificity = 2
            case "\(type)/*": specificity = 1
            case "*/*": specificity = 0
            default: continue
            }
            if specificity > best.specificity { best = (specificity, q) }
        }
        return best.q
    }
}

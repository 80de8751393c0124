/// Whether a client takes gzip (RFC 9110 §12.5.3): an explicit `gzip` (or `x-gzip`) entry decides,
/// else `*` does; `q=0` is a refusal.
struct AcceptEncoding {
    let value: String

    init(_ value: String?) {
        self.value = value ?? ""
    }

    var allowsGzip: Bool {
        var wildcard: Bool?
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";")
            let coding = parts.first?.trimmingCharacters(in: " \t").lowercased() ?? ""
            let quality = parts.dropFirst().lazy
                .map { $0.trimmingCharacters(in: " \t").lowercased() }
                .first { $0.hasPrefix("q=") }
                .flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { wildcard = quality > 0 }
        }
        return wildcard ?? false
    }
}

/// Whether a client takes gzip, honouring `gzip;q=0` as a refusal.
struct AcceptEncoding {
    let value: String

    init(_ value: String?) {
        self.value = value ?? ""
    }

    var allowsGzip: Bool {
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";")
            let coding = parts.first?.trimmingCharacters(in: " \t").lowercased() ?? ""
            guard coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let quality = parts.dropFirst().lazy
                .map { $0.trimmingCharacters(in: " \t") }
                .first { $0.hasPrefix("q=") }
                .flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }
}

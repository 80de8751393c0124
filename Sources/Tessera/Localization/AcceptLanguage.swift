import TesseraViews

/// The languages a browser asks for (`Accept-Language: de-AT, de;q=0.9, en;q=0.5`), matched
/// against the ones an app has (RFC 9110 §12.5.4, with RFC 4647's lookup by primary subtag):
/// `de-AT` finds German, `q=0` refuses a language, and a malformed header asks for nothing.
struct AcceptLanguage {
    let value: String

    init(_ value: String?) {
        self.value = value ?? ""
    }

    /// The best of `available` for this header, or `nil` when it names none of them.
    func bestMatch(in available: [Language]) -> Language? {
        var best: (language: Language, quality: Double, order: Int)?
        for (order, item) in value.split(separator: ",").prefix(32).enumerated() {
            let parts = item.split(separator: ";")
            let tag = parts.first?.trimmingCharacters(in: " \t").lowercased() ?? ""
            let quality = parts.dropFirst().lazy
                .map { $0.trimmingCharacters(in: " \t").lowercased() }
                .first { $0.hasPrefix("q=") }
                .flatMap { Double($0.dropFirst(2)) } ?? 1
            guard quality > 0, quality <= 1, !tag.isEmpty else { continue }
            let primary = tag.split(separator: "-").first.map(String.init) ?? tag
            let match = tag == "*" ? available.first : available.first { $0.code == primary }
            guard let match else { continue }
            if best == nil || quality > best!.quality { best = (match, quality, order) }
        }
        return best?.language
    }
}

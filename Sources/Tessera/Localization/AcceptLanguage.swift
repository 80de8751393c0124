import TesseraViews

/// The languages a browser asks for (`Accept-Language: de-AT, de;q=0.9, en;q=0.5`), matched
/// against the ones an app has (RFC 9110 §12.5.4, with RFC 4647's lookup by primary subtag):
/// `de-AT` finds German, `q=0` refuses a language, `*` stands for any language the header does
/// not name, and a malformed header asks for nothing.
struct AcceptLanguage {
    let value: String

    init(_ value: String?) {
        self.value = value ?? ""
    }

    /// The best of `available` for this header, or `nil` when it names none of them.
    func bestMatch(in available: [Language]) -> Language? {
        var asked: [(code: String?, quality: Double)] = []
        var named = Set<String>()
        for item in value.split(separator: ",").prefix(32) {
            let parts = item.split(separator: ";")
            let tag = parts.first?.trimmingCharacters(in: " \t").lowercased() ?? ""
            let quality = parts.dropFirst().lazy
                .map { $0.trimmingCharacters(in: " \t").lowercased() }
                .first { $0.hasPrefix("q=") }
                .flatMap { Double($0.dropFirst(2)) } ?? 1
            guard !tag.isEmpty, quality >= 0, quality <= 1 else { continue }
            let code = tag == "*" ? nil : tag.split(separator: "-").first.map(String.init) ?? tag
            if let code { named.insert(code) }
            asked.append((code, quality))
        }
        // The highest quality first; among equals, the order the header gave.
        for wish in asked.enumerated().sorted(by: { ($0.element.quality, -$0.offset) > ($1.element.quality, -$1.offset) }).map(\.element)
        where wish.quality > 0 {
            if let code = wish.code {
                if let language = available.first(where: { $0.code == code }) { return language }
            } else if let language = available.first(where: { !named.contains($0.code) }) {
                return language
            }
        }
        return nil
    }
}

import TesseraHTTP
import TesseraViews

/// The languages a browser asks for (`Accept-Language: de-AT, de;q=0.9, en;q=0.5`), matched
/// against the ones an app has (RFC 9110 §12.5.4, with RFC 4647's lookup by primary subtag):
/// `de-AT` finds German, `q=0` refuses a language, `*` stands for any language the header does
/// not name, and a malformed header asks for nothing. Read in place: browsers send it with
/// every page.
struct AcceptLanguage {
    let value: String

    init(_ value: String?) {
        self.value = value ?? ""
    }

    /// How many of the header's languages count; the rest is ignored.
    private static let limit = 32

    /// The best of `available` for this header, or `nil` when it names none of them: the one
    /// asked for with the highest weight, the earliest among equals.
    func bestMatch(in available: [Language]) -> Language? {
        guard !value.isEmpty else { return nil }
        // Which of the app's languages the header names at all, refused ones included: `*`
        // stands for the others. (An app has a handful of languages; past 64, `*` skips them.)
        var named: UInt64 = 0
        WeightedList.forEach(value, limit: Self.limit) { tag, _ in
            if let index = Self.index(of: tag, in: available), index < 64 { named |= 1 << index }
            return false
        }
        var best: (language: Language, weight: Int)?
        WeightedList.forEach(value, limit: Self.limit) { tag, weight in
            guard weight > 0, weight > best?.weight ?? 0 else { return false }
            let language: Language?
            if tag.count == 1, tag[0] == UInt8(ascii: "*") {
                language = available.indices.first { $0 >= 64 || named & (1 << $0) == 0 }.map { available[$0] }
            } else {
                language = Self.index(of: tag, in: available).map { available[$0] }
            }
            if let language { best = (language, weight) }
            return false
        }
        return best?.language
    }

    /// The app's language whose code is `tag`'s primary subtag (`de` for `de-AT`), without case.
    private static func index(of tag: UnsafeBufferPointer<UInt8>, in available: [Language]) -> Int? {
        let primary = UnsafeBufferPointer(rebasing: tag[..<(tag.firstIndex(of: UInt8(ascii: "-")) ?? tag.count)])
        return available.indices.first { index in
            var code = available[index].code
            return code.withUTF8 { FieldList.element(primary, equalsIgnoringCase: $0) }
        }
    }
}

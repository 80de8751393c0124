/// One entry of a module's message catalog, in every language the module has: what the catalog
/// compiler generates for each key of `Views/<Module>/locales/<language>.json`, as a member of
/// the module's `Messages` enum (`"cart.title"` becomes `Messages.cartTitle`).
///
/// Templates use it as `{{ t "cart.title" }}`; Swift code (a flash, a page title) as
/// `context.localized(Messages.cartTitle)`. Both are checked when the module builds: a key that
/// a language lacks fails the build.
public struct LocalizedMessage: Sendable, HTMLOutputConvertible {
    /// A text, or a text per plural category when the message depends on a count.
    public enum Translation: Sendable, Equatable {
        case text(MessagePattern)
        case plural([PluralCategory: MessagePattern])
    }

    /// One language's translation, with the UTF-8 of a text that has no placeholders, escaped
    /// for HTML and as it is: most messages are fixed words ("Add to cart"), and a page copies
    /// their bytes as it copies its template's static text.
    final class Entry: Sendable {
        let translation: Translation
        /// The fixed text escaped for HTML, or `nil` when the text has placeholders or forms.
        let escaped: [UInt8]?
        /// The fixed text as it is, for plain text and attribute values written raw.
        let raw: [UInt8]?

        init(_ translation: Translation) {
            self.translation = translation
            guard case .text(let pattern) = translation, pattern.placeholders.isEmpty else {
                escaped = nil
                raw = nil
                return
            }
            let text = pattern.segments.map { if case .literal(let literal) = $0 { literal } else { "" } }.joined()
            var output = HTMLOutput(capacity: text.utf8.count + 16)
            output.appendEscaped(text)
            escaped = output.bytes
            raw = Array(text.utf8)
        }

        /// The text for `count` in `language`: a plural message's form for its category.
        func pattern(count: Int?, language: Language) -> MessagePattern {
            switch translation {
            case .text(let pattern):
                return pattern
            case .plural(let forms):
                let category = count.map(language.pluralCategory(for:)) ?? .other
                return forms[category] ?? forms[.other] ?? forms.values.first ?? MessagePattern("")
            }
        }
    }

    /// Behind one reference: a message is copied into every `LocalizedText` a page writes.
    private final class Storage: Sendable {
        let key: String
        /// In the catalog's order. A module has a few languages, and comparing a short code with
        /// each is cheaper than hashing it, which every message of every page would do.
        let entries: [(code: String, entry: Entry)]
        let fallback: Entry

        init(key: String, entries: [(code: String, entry: Entry)], fallback: Entry) {
            self.key = key
            self.entries = entries
            self.fallback = fallback
        }
    }

    private let storage: Storage

    /// The key in the catalog files, for errors and tests.
    public var key: String { storage.key }

    /// - Parameters:
    ///   - key: the catalog key.
    ///   - translations: by language code; the first is used for a language the module lacks.
    public init(key: String, _ translations: KeyValuePairs<String, Translation>) {
        precondition(!translations.isEmpty, "a message needs at least one language")
        let entries = translations.map { (code: $0.key, entry: Entry($0.value)) }
        storage = Storage(key: key, entries: entries, fallback: entries[0].entry)
    }

    /// The entry for `language`, or the first language's.
    func entry(in language: Language) -> Entry {
        let code = language.code
        for (candidate, entry) in storage.entries where candidate == code {
            return entry
        }
        return storage.fallback
    }

    /// The message for a template's `{{ … }}`: rendered in the output's language, its
    /// placeholders filled with `arguments` (escaped like any value) and `{count}` with `count`,
    /// grouped as the language groups thousands. Other numbers are written as they are (an order
    /// number); wrap a quantity in ``LocalizedNumber`` to group it.
    public func text(count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]) -> LocalizedText {
        LocalizedText(message: self, count: count, arguments: Array(arguments))
    }

    /// The message without values, in the output's language: what a template's `{{ t "key" }}`
    /// compiles to.
    public func write(to output: inout HTMLOutput, context: HTMLContext) {
        text().write(to: &output, context: context)
    }

    /// The message as a string in `language`, for Swift code that hands text on (a flash, a
    /// page title, an error).
    public func string(
        in language: Language, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]
    ) -> String {
        text(count: count, arguments).string(in: language)
    }
}

/// One entry of a module's message catalog, in every language the module has: what the catalog
/// compiler generates for each key of `Views/<Module>/locales/<language>.json`, as a member of
/// the module's `Messages` enum (`"cart.title"` becomes `Messages.cartTitle`).
///
/// Templates use it as `{{ t "cart.title" }}`; Swift code (a flash, a page title) as
/// `context.localized(Messages.cartTitle)`. Both are checked when the module builds: a key that
/// a language lacks fails the build.
public struct LocalizedMessage: Sendable {
    /// A text, or a text per plural category when the message depends on a count.
    public enum Translation: Sendable, Equatable {
        case text(MessagePattern)
        case plural([PluralCategory: MessagePattern])
    }

    /// The key in the catalog files, for errors and tests.
    public let key: String
    private let translations: [String: Translation]
    private let fallback: Translation

    /// - Parameters:
    ///   - key: the catalog key.
    ///   - translations: by language code; the first is used for a language the module lacks.
    public init(key: String, _ translations: KeyValuePairs<String, Translation>) {
        precondition(!translations.isEmpty, "a message needs at least one language")
        self.key = key
        self.translations = Dictionary(translations.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.fallback = translations[translations.startIndex].value
    }

    /// The pattern for a language and a count.
    public func pattern(in language: Language, count: Int?) -> MessagePattern {
        switch translations[language.code] ?? fallback {
        case .text(let pattern):
            return pattern
        case .plural(let forms):
            let category = count.map(language.pluralCategory(for:)) ?? .other
            return forms[category] ?? forms[.other] ?? forms.values.first ?? MessagePattern("")
        }
    }

    /// The message for a template's `{{ … }}`: rendered in the output's language, its
    /// placeholders filled with `arguments` (escaped like any value) and `{count}` with `count`.
    public func text(count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]) -> LocalizedText {
        LocalizedText(message: self, count: count, arguments: Array(arguments))
    }

    /// The message as a string in `language`, for Swift code that hands text on (a flash, a
    /// page title, an error). Whole numbers among the arguments are grouped as the language does.
    public func string(in language: Language, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]) -> String {
        var output = HTMLOutput(capacity: 64, language: language)
        text(count: count, arguments).write(to: &output, context: .raw)
        return output.string
    }
}

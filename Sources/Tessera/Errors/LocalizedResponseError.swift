import TesseraHTTP
public import TesseraViews

/// An error whose words are in a message catalog: its page is in the visitor's language, so a
/// German shopper's 409 is German throughout. Its `publicMessage` is the English, for logs and
/// JSON clients.
public protocol LocalizedResponseError: HTTPResponseError {
    /// What the visitor is told in `language`.
    func publicMessage(in language: Language) -> String
}

extension LocalizedResponseError {
    /// The English words.
    public var publicMessage: String { publicMessage(in: .english) }
}

extension HTTPResponseError {
    /// What the visitor is told in `language`: a ``LocalizedResponseError``'s own words, an
    /// `HTTPError`'s catalog words or `ServerRefusal`, else the English message.
    public func localizedMessage(in language: Language) -> String {
        if let localized = self as? any LocalizedResponseError { return localized.publicMessage(in: language) }
        switch (self as? HTTPError)?.words {
        case let catalog as CatalogWords: return catalog.text.string(in: language)
        case let refusal as ServerRefusal: return refusal.text.string(in: language)
        default: return publicMessage
        }
    }
}

/// A catalog's message as an `HTTPError`'s words.
struct CatalogWords: TranslatedWords {
    let text: LocalizedText
    var english: String { text.string(in: .english) }
}

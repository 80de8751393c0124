/// Words for a visitor that the framework says in the visitor's language. The HTTP layer knows no
/// languages: it keeps the words with their English, and the framework's error step, which knows
/// the visitor's language, says them (a catalog's message, a ``ServerRefusal``).
public protocol TranslatedWords: Sendable {
    /// The words in English: for logs, JSON clients, and a server with no framework in front.
    var english: String { get }
}

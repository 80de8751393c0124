public import Tessera
public import TesseraViews

/// Why the catalog could not answer, and how each reason is answered over HTTP.
public enum CatalogError: LocalizedResponseError {
    /// No such product, category or page.
    case notFound(LocalizedText)
    /// A listing request that makes no sense, such as `?sort=sideways`.
    case invalid(LocalizedText)
    /// A change made against a state that has moved on since (the stock staff saw).
    case conflict(LocalizedText)
    /// The store failed; the details go to the log, the visitor is told to come back.
    case storage(any Error)

    /// 404, 400, 409 or 503: each reason is the status a client can act on.
    public var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .invalid: .badRequest
        case .conflict: .conflict
        case .storage: .serviceUnavailable
        }
    }

    /// What logs and JSON clients read: the English words.

    /// What the page says, in the visitor's language; a storage failure never shows its
    /// details, which go to the log.
    public func publicMessage(in language: Language) -> String {
        switch self {
        case .notFound(let text), .invalid(let text), .conflict(let text): text.string(in: language)
        case .storage: Messages.errorUnavailable.string(in: language)
        }
    }

    /// A failed store says when to try again, as any 503 should.
    public var headers: HTTPFields {
        switch self {
        case .storage: [.retryAfter: "5"]
        case .notFound, .invalid, .conflict: [:]
        }
    }
}

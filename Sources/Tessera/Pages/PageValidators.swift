import TesseraHTTP

/// The `ETag`s of pages shown lately, kept until a topic they depend on is published, so that a
/// repeat view whose `If-None-Match` still matches is answered 304 before the page loads: no
/// model read, no region run. A ``TopicCache`` owned by the app
/// (``ApplicationBuilder/pageValidators``), told of every publication by its ``LiveRegions``.
///
/// A validator is only known where it was made: another instance renders the page, and still
/// answers 304 when the bytes it rendered are the visitor's.
public typealias PageValidators = TopicCache<PageValidatorKey, PageValidator>

extension TopicCache where Key == PageValidatorKey, Value == PageValidator {
    /// About `maxBytes` of validators (4 MB, some fifteen thousand), each kept a minute at most:
    /// the bound on how long a change nobody published can be answered 304. Zero keeps none.
    public static func pages(maxBytes: Int = 4 << 20, maxAge: Duration = .seconds(60)) -> PageValidators {
        PageValidators(limits: Limits(maxCost: maxBytes, maxAge: maxAge)) { key, validator in
            key.cost + validator.eTag.utf8.count + (validator.cacheControl?.utf8.count ?? 0) + 64
        }
    }
}

/// Everything a validated page may vary with besides its topics: the address it was asked
/// for, its language, and the visitor's session as its cookie holds it.
public struct PageValidatorKey: Hashable, Sendable {
    let host: String
    let target: String
    let language: String
    /// The session cookie's value, or empty without one: the whole of an anonymous session.
    let session: String

    var cost: Int { host.utf8.count + target.utf8.count + language.utf8.count + session.utf8.count }
}

/// What a page last answered: its `ETag`, and the `Cache-Control` its 304 repeats.
public struct PageValidator: Sendable {
    let eTag: String
    let cacheControl: String?
    /// The answer to a request that already has this version, built once with the validator:
    /// a repeat view copies it. It names the page's type, so the steps that shape pages (the
    /// language's `Vary`, say) shape it as they did the 200.
    let notModified: Response

    init(eTag: String, cacheControl: String?) {
        self.eTag = eTag
        self.cacheControl = cacheControl
        var response = Response(status: .notModified, headers: [.eTag: eTag, .contentType: "text/html; charset=utf-8"])
        if let cacheControl { response.headers[.cacheControl] = cacheControl }
        self.notModified = response
    }
}

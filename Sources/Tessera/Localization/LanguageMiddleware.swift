import HTTPTypes
public import TesseraViews

/// Picks the language of each answer, so views render their catalog messages, prices and dates
/// in it: the URL's `?lang=de` first (and remembered in the visitor's session, as a switcher link
/// sets it: a language chosen by hand starts a session), then the session's, then
/// `Accept-Language`, then the first language.
///
/// The answer says which (`Content-Language`) and, when the URL did not name the language,
/// that it depends on the headers (`Vary: Accept-Language, Cookie`), so a shared cache never
/// hands a German page to an English reader. Put it after ``SessionMiddleware``. Put it before ``ErrorPageMiddleware``, so that
/// error pages are in the visitor's language and carry these headers too, and put
/// ``LanguageParameterCheck`` among the route steps, which refuses a `?lang=` the app lacks.
public struct LanguageMiddleware: Middleware {
    /// The app's languages; the first is the fallback.
    public let languages: [Language]
    /// The query parameter that names a language, and the session's key that remembers it.
    public let parameter: String

    /// - Parameters:
    ///   - languages: at least one; the first answers when nothing else decides.
    ///   - parameter: the name of both the query parameter and the session's key, `lang` by default.
    public init(languages: [Language], parameter: String = "lang") {
        precondition(!languages.isEmpty, "an app has at least one language")
        self.languages = languages
        self.parameter = parameter
    }

    /// Chooses the request's language. A `?lang=` the app does not have is kept aside for
    /// ``LanguageParameterCheck``, and the other sources choose.
    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        let request = context.request
        var refused: String?
        var chosen: (Language, LanguageChoice.Source)?
        if let asked = request.query[parameter] {
            if let language = languages.first(where: { $0.code == asked.lowercased() }) {
                chosen = (language, .url)
            } else {
                refused = asked
            }
        }
        if chosen == nil {
            if let remembered = context.session[parameter], let language = languages.first(where: { $0.code == remembered }) {
                chosen = (language, .session)
            } else if let accepted = AcceptLanguage(request.headers[.acceptLanguage]).bestMatch(in: languages) {
                chosen = (accepted, .header)
            } else {
                chosen = (languages[0], .fallback)
            }
        }
        let (language, source) = chosen ?? (languages[0], .fallback)
        context.languageChoice = LanguageChoice(
            current: language, available: languages, source: source, parameter: parameter, refusedValue: refused,
            target: request.target, isGet: request.method == .get || request.method == .head
        )
        return .next
    }

    /// Names a page's language, remembers a language the URL chose, and says what the choice
    /// depended on. Answers other than HTML (a health check, a photo, JSON) are left as they
    /// are: they have no language, and a prepared answer stays the same bytes for everyone.
    public func after(_ response: inout Response, for context: RequestContext) {
        guard let choice = context.languageChoice, response.isHTML else { return }
        response.headers[.contentLanguage] = choice.current.code
        switch choice.source {
        case .url:
            // Remembered for the visitor's next pages; the session step, which runs after this
            // on the way out, sets its cookie and keeps the answer from shared caches.
            context.session[parameter] = choice.current.code
        case .session, .header, .fallback:
            response.headers.addVary("Accept-Language, Cookie")
        }
    }

    /// Yes: an error page is in the visitor's language too.
    public var runsForRejectedRequests: Bool { true }
}

/// Refuses a `?lang=` the app does not have (400), after ``LanguageMiddleware`` chose the
/// language from the other sources, so that the error page is in that language and names the
/// ones there are. A route step: an unknown path is a 404 whatever its `?lang=`.
public struct LanguageParameterCheck: Middleware {
    public init() {}

    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        guard let choice = context.languageChoice, let refused = choice.refusedValue else { return .next }
        let offered = choice.available.map { "\($0.name) (\(choice.parameter)=\($0.code))" }.joined(separator: ", ")
        throw HTTPError(.badRequest, Messages.errorLanguage.text(["offered": offered, "refused": String(refused.prefix(20))]))
    }
}

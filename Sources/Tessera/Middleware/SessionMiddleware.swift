/// Loads the visitor's session from its sealed cookie before the rest of the chain runs, and
/// writes the cookie back when the session changed. A visitor without a session gets an empty
/// one, which sets no cookie unless something is kept in it.
public struct SessionMiddleware: Middleware {
    let configuration: SessionConfiguration

    /// A session step that keeps sessions as `configuration` says.
    public init(_ configuration: SessionConfiguration) {
        self.configuration = configuration
    }

    /// Loads the session from its cookie (or starts one) for everything after this step.
    ///
    /// A live region rendered again for its stream sends the stream's own cookie, which this
    /// step verified when the stream opened: when the cookie and the secret are those exactly,
    /// it starts from that session (see ``LiveRegions``), so a change fanned out to a thousand
    /// open pages does not verify a thousand cookies again.
    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        if context.keptPageRecord != nil {
            // A kept page's copy is rendered for nobody: no session, and none to start.
            context.session = .nobodys()
            return .next
        }
        let cookie = context.request.cookie(configuration.sentCookieName)
        if let loaded = context.liveProbe?.session, loaded.isLoaded(from: cookie, by: configuration.codec) {
            context.session = Session(reloading: loaded)
        } else {
            context.session = Session(cookie: cookie, sessions: configuration)
        }
        return .next
    }

    /// Sets the cookie when the session changed, and the answer's `Cache-Control` when it used
    /// the session and did not choose its own.
    public func after(_ response: inout Response, for context: RequestContext) {
        let cookie = context.session.setCookie(configuration, overHTTPS: context.request.isSecure)
        if let cookie {
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        if response.headers.contains(.cacheControl) {
            let chosen = CacheControlField(response.headers)
            // An answer that chose its own caching (a static file) keeps it, with two exceptions.
            // One that is already private (a step's `private, no-cache`, such as the language
            // cookie's) but showed what a signed-in session holds becomes `no-store`, so that
            // Back after sign-out shows nothing. One that carries a new session cookie (a cart
            // just started, a session just ended) must never reach a shared cache, which would
            // hand that cookie to everyone.
            if chosen.has("private"), !chosen.has("no-store"),
                let needed = context.session.cacheControl, CacheControlField(needed).has("no-store")
            {
                response.headers[.cacheControl] = needed
            } else if cookie != nil, !chosen.has("private"), !chosen.has("no-store") {
                response.headers[.cacheControl] = "private, no-cache"
            }
        } else if let cacheControl = context.session.cacheControl ?? (cookie == nil ? nil : "private, no-cache") {
            response.headers[.cacheControl] = cacheControl
        }
    }

    /// Yes: the error page of a refused request knows the visitor.
    public var runsForRejectedRequests: Bool { true }
}

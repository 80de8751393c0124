public import Logging
public import TesseraViews

/// What a ``KeptPage`` loads and renders in: its key (the URL's query, the language, the site)
/// and the app's parts, and nothing of the visitor. The page's HTML is kept and handed to every
/// visitor without a session, so it gets no session, cookie, header, client address or
/// middleware value to read: that fails to compile, where a comment could only ask. The route's
/// parameters reach the page's factory; the services are the page's own.
///
/// The regions other modules provide (``region(providedFor:input:)``) are theirs to decide: for
/// a visitor with a session they may show what is theirs (a signed-in shopper's purchases), but
/// the page that is kept is rendered for nobody, so they show what anybody sees.
public struct KeptPageContext: Sendable {
    /// The request the page is rendered for: made of its key alone when it is kept, else the
    /// visitor's, for the layout and the regions others provide. Never handed to the page's code.
    private let request: RequestContext

    init(_ request: RequestContext) {
        self.request = request
    }

    /// The language the page is rendered (and kept) in.
    public var language: Language { request.language }

    /// The URL's query, part of what the page is kept under: a search, a sort, a page number.
    public var query: QueryParameters { request.request.query }

    /// Where the site is reached, for absolute URLs: `PUBLIC_URL`, or the request's own host,
    /// which is part of what the page is kept under when `PUBLIC_URL` is not set.
    public var site: SiteURL { request.site }

    /// The app's logger, with the id of the request that rendered the page.
    public var logger: Logger { request.logger }

    /// What the request that renders the page may spend on its database: every store call takes
    /// it (`within:`). Its patience is the same for every visitor, so it says nothing of the one
    /// who asked.
    public var databaseBudget: DatabaseBudget { request.databaseBudget }

    /// Renders `view` in the page's language, with the app's fingerprinted assets.
    public func render<View: HTMLView>(_ view: View.Type, _ model: View.Model) -> HTMLOutput {
        request.render(view, model)
    }

    /// A catalog message as text in ``language``.
    public func localized(
        _ message: LocalizedMessage, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]
    ) -> String {
        request.localized(message, count: count, arguments)
    }

    /// The region provided under `key` (``RegionRegistry``), for an optional slot of the page.
    public func region<Input>(providedFor key: RegionKey<Input>, input: Input) -> Region? {
        request.regions.region(providedFor: key, input: input, in: request)
    }

    /// The shared region registered at `route`, for `parameters`
    /// (``Region/init(shared:_:deadline:isRequired:in:)``).
    public func region<Parameters>(
        shared route: Route<Parameters>, _ parameters: Parameters, deadline: Duration = .seconds(2), isRequired: Bool = false
    ) -> Region {
        Region(shared: route, parameters, deadline: deadline, isRequired: isRequired, in: request)
    }
}

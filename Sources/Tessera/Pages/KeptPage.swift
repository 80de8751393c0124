public import TesseraViews

/// A page kept whole for visitors without a session: the same HTML for all of them, in a
/// language, until a topic it shows is published (decision 0036). Register it with
/// ``RouterBuilder/keptPage(_:_:)``.
///
/// A visitor without a session cookie gets the kept copy: no load, no render, a strong `ETag`
/// and a 304 for a repeat view, `Cache-Control: public, no-cache`, so that proxies and CDNs keep
/// it too. A visitor with a session gets the page rendered for them, with the same controller:
/// the layout and the regions other modules provide then show what is theirs.
///
/// Nothing of a visitor can reach the kept copy, by construction:
/// - the factory gets the route's parameters alone, where no request exists;
/// - ``load(_:)``, ``render(_:in:)`` and ``regions(for:in:)`` get a ``KeptPageContext``: the
///   URL's query, the language and the site, and no session, cookie, header, client address or
///   middleware value (reading one does not compile);
/// - the copy is rendered for nobody: a request made of its key (target, language, host) alone,
///   with no cookie, through the app's whole chain.
public protocol KeptPage: Sendable {
    /// What ``load(_:)`` gets through the services and ``render(_:in:)`` shows.
    associatedtype Model: Sendable
    /// The slots of the page's view, as for a ``PageController``.
    associatedtype Regions: RegionSlots<Region> = NoRegions<Region>

    /// Loads the page's data through the injected services; throw `HTTPError` for a 404.
    func load(_ context: KeptPageContext) async throws -> Model

    /// Renders the page's view with `context.render(View.self, model)`.
    func render(_ model: Model, in context: KeptPageContext) -> Page

    /// The regions of the page, each served by a child controller: shared ones
    /// (`context.region(shared:…)`) and those other modules provide (`context.region(providedFor:…)`).
    func regions(for model: Model, in context: KeptPageContext) -> Regions

    /// The topics whose publication ends the kept copy: everything the page's own view shows
    /// that can change. The layout's and the regions' are added to them.
    var keptUntil: [Topic] { get }
}

extension KeptPage where Regions == NoRegions<Region> {
    /// No regions, for a page whose view has no slots.
    public func regions(for model: Model, in context: KeptPageContext) -> NoRegions<Region> { NoRegions() }
}

/// A kept page rendered as any page is, through ``PageRenderer``: its own code sees a
/// ``KeptPageContext``, the layout and the provided regions the request's context.
struct KeptPageRendering<Kept: KeptPage>: PageController {
    let page: Kept

    var freshness: PageFreshness { .until(page.keptUntil) }

    func load(_ context: RequestContext) async throws -> Kept.Model {
        try await page.load(KeptPageContext(context))
    }

    func render(_ model: Kept.Model, in context: RequestContext) -> Page {
        page.render(model, in: KeptPageContext(context))
    }

    func regions(for model: Kept.Model, in context: RequestContext) -> Kept.Regions {
        page.regions(for: model, in: KeptPageContext(context))
    }
}

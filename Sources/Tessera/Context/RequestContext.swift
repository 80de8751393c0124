public import Logging
public import TesseraViews

/// What a controller gets besides its injected services: the request, the visitor's session,
/// the app's typed per-request values, and by name the few shared things pages need (the
/// layout, the regions other modules provide, the logger).
///
/// It is a value. A middleware's ``Middleware/before(_:)`` changes it (loads the session, attaches
/// the signed-in shopper) for everything after that step; the way out (``Middleware/after(_:for:)``,
/// ``Middleware/recover(from:in:)``) sees the context the handler saw. Copies are cheap: the
/// request and the app's parts sit behind one reference, so handing the context along the chain
/// costs a few words, not a copy of every header.
public struct RequestContext: Sendable {
    /// The request and the app's parts: shared by every copy of the context, replaced as a whole
    /// when a middleware changes the request or the logger.
    private var core: Core
    /// The visitor's session, loaded by ``SessionMiddleware``; detached without it.
    public internal(set) var session: Session
    /// The route that matched, once the router has run.
    public internal(set) var route: MatchedRoute?
    /// How ``language`` was chosen and what else the app offers, for a switcher; `nil` without
    /// a ``LanguageMiddleware``.
    public internal(set) var languageChoice: LanguageChoice?
    var values: RequestValues
    /// The request's server span, when the app traces (``TracingMiddleware``).
    var trace: RequestTrace?
    /// Whom the answer is rendered for: the visitor who asked, nobody (a kept page's copy), or
    /// a live region's subscriber. Set by the one who makes the request, never read from the
    /// task: a task the handler starts gets it only by taking the context along.
    var renderedFor: RenderedFor
    /// What the request may spend on its database: hand it to every store call (`within:`), and
    /// a task the handler starts keeps it. Its patience is set by ``DatabasePatienceMiddleware``.
    public internal(set) var databaseBudget: DatabaseBudget

    init(request: Request, application: ApplicationParts) {
        self.languageChoice = nil
        let core = Core(request: request, logger: nil, application: application)
        self.core = core
        // The first core counts the request's database time for good, even once a step
        // replaces the core with a changed request or logger.
        self.databaseBudget = DatabaseBudget(patience: nil, metered: false, account: core)
        self.session = .detached
        self.route = nil
        self.values = RequestValues()
        self.trace = nil
        self.renderedFor = .visitor
    }

    /// Where a kept page's copy notes what it depends on; `nil` unless this request renders one
    /// for nobody (``KeptPages``).
    var keptPageRecord: KeptPageRecord? {
        guard case .keptPage(let record) = renderedFor else { return nil }
        return record
    }

    /// Where a live re-render notes the region's topics; `nil` unless this request renders a
    /// region again for a subscriber (``LiveRegions``).
    var liveProbe: LiveRender.Probe? {
        guard case .liveRegion(let probe) = renderedFor else { return nil }
        return probe
    }

    /// The request as the server read it, or as a middleware rewrote it.
    public var request: Request {
        get { core.request }
        set { core = Core(request: newValue, logger: core.logger, application: core.application) }
    }

    /// The app's logger with the request's id (`request_id`) on every line, as the access log
    /// line has it, and its trace's (`trace_id`) when traced; a middleware may hand on one with
    /// more metadata. Made when first asked for,
    /// so a request that logs nothing pays nothing.
    public var logger: Logger {
        get { loggerSource.logger }
        set { core = Core(request: core.request, logger: newValue, application: core.application) }
    }

    /// What ``logger`` is made from, for one who may log later: a shared region keeps this, not
    /// the logger, whose metadata costs allocations every request would pay.
    var loggerSource: LoggerSource {
        LoggerSource(chosen: core.logger, application: application.logger, requestID: core.request.id, traceID: trace?.traceID)
    }

    /// The request's logger before it is made.
    struct LoggerSource: Sendable {
        /// One a middleware handed on, which is used as it is.
        let chosen: Logger?
        let application: Logger
        let requestID: String
        let traceID: String?

        var logger: Logger {
            if let chosen { return chosen }
            var logger = application
            if !requestID.isEmpty { logger[metadataKey: "request_id"] = "\(requestID)" }
            if let traceID { logger[metadataKey: "trace_id"] = "\(traceID)" }
            return logger
        }
    }

    /// The app's shared parts, reached through the named properties below.
    var application: ApplicationParts { core.application }

    /// A budget's account too (``DatabaseBudget``): the one allocation every request makes
    /// holds its database count as well.
    private final class Core: DatabaseBudget.Account, @unchecked Sendable {
        let request: Request
        /// Set by a middleware; otherwise the app's, with the request id.
        let logger: Logger?
        let application: ApplicationParts

        init(request: Request, logger: Logger?, application: ApplicationParts) {
            self.request = request
            self.logger = logger
            self.application = application
            super.init()
        }
    }

    /// The language the answer is in, chosen by ``LanguageMiddleware``; English without it.
    /// Views rendered with ``render(_:_:)`` write their messages, numbers and prices in it.
    public var language: Language { languageChoice?.current ?? .english }

    /// The site's layout, which every full page and error page goes through.
    public var layout: any PageLayout { application.layout }

    /// The regions other modules provide, by key (``RegionRegistry``).
    public var regions: RegionRegistry { application.regions }

    /// A typed value attached to this request by a middleware, such as the signed-in shopper.
    public subscript<Key: RequestValueKey>(_ key: Key.Type) -> Key.Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Renders `view` for this request: its `asset` filters link the app's fingerprinted static
    /// files, and its messages are in the request's ``language``.
    public func render<View: HTMLView>(_ view: View.Type, _ model: View.Model) -> HTMLOutput {
        #if DEBUG
        // Under make dev: the markup saved since the build, as of the version this request read.
        View.render(model, assets: application.assets, language: language, savedMarkup: self[RenderedMarkup.self]?.markup)
        #else
        View.render(model, assets: application.assets, language: language)
        #endif
    }

    /// A catalog message as text in the request's language, for what Swift code hands on: a
    /// page title, a flash, an error's message.
    public func localized(
        _ message: LocalizedMessage, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]
    ) -> String {
        message.string(in: language, count: count, arguments)
    }
}

/// The route the router matched for a request.
public struct MatchedRoute: Sendable {
    let entry: RouteEntry
    /// The route's typed parameters, read from the path's `{…}` segments when it matched.
    let parameters: any Sendable

    /// The route's name, such as `catalog.product`: a label for logs and metrics.
    public var name: String { entry.name }
}

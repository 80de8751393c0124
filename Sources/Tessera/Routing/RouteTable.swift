import Logging
import TesseraViews

/// The mediator between modules, as CTMediator is in the seed article: every route and every
/// region provider is registered here by name, and modules reach each other only through it.
/// It is also the app's ``HTTPResponder``, and renders every error page.
///
/// Matching: a path that matches no route is a 404; one that matches only routes of other
/// methods is a 405 with `Allow`; `HEAD` is served by the `GET` route. Literal routes are tried
/// before patterned ones, so `/products/new` and `/products/{id}` can live side by side.
public final class RouteTable: HTTPResponder, HTTPErrorResponder, Sendable {
    let literalEntries: [String: [RouteEntry]]
    let patternedEntries: [RouteEntry]
    let regionProviders: [String: RegionProvider]
    let errorPages: [Int: any ErrorPageController]
    let fallback: (any HTTPResponder)?
    let sessions: SessionConfiguration?
    public let layout: any PageLayout
    public let logger: Logger
    /// Shows the details of a 500 on the page. Never in production.
    public let developmentMode: Bool

    init(
        entries: [RouteEntry], regionProviders: [String: RegionProvider], errorPages: [Int: any ErrorPageController],
        fallback: (any HTTPResponder)?, layout: any PageLayout, sessions: SessionConfiguration?, logger: Logger, developmentMode: Bool
    ) {
        self.fallback = fallback
        self.sessions = sessions
        var literal: [String: [RouteEntry]] = [:]
        var patterned: [RouteEntry] = []
        for entry in entries {
            if entry.pattern.parameterCount == 0 {
                literal[entry.pattern.description, default: []].append(entry)
            } else {
                patterned.append(entry)
            }
        }
        self.literalEntries = literal
        self.patternedEntries = patterned
        self.regionProviders = regionProviders
        self.errorPages = errorPages
        self.layout = layout
        self.logger = logger
        self.developmentMode = developmentMode
    }

    /// The region another module provides under `key`, named `name` in the asking page, with
    /// the provider's fragment URL; `nil` when nobody provides it or the provider declines, and
    /// then the region is absent.
    public func region<Input>(_ name: String, providedFor key: RegionKey<Input>, input: Input, in context: RequestContext) -> Region? {
        guard let provider = regionProviders[key.name], let controller = provider.make(input, context) else { return nil }
        return Region(name, source: provider.source(input), controller: controller)
    }

    // MARK: HTTPResponder

    public func respond(to request: Request) async throws -> Response {
        let context = makeContext(for: request)
        var response: Response
        do {
            response = try await dispatch(context)
        } catch let error as HTTPError {
            response = await self.response(for: error, in: context)
        } catch let redirect as Redirect {
            response = .redirect(to: redirect.location)
        } catch is CancellationError {
            response = await self.response(for: HTTPError(.serviceUnavailable), in: context)
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.path)", "error": "\(String(reflecting: error))"])
            let message = developmentMode ? String(reflecting: error) : "Something went wrong on our side."
            response = await self.response(for: HTTPError(.internalServerError, message: message), in: context)
        }
        if let sessions, let cookie = context.session.setCookie(sessions) {
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        return response
    }

    private func makeContext(for request: Request) -> RequestContext {
        let session = Session(cookie: sessions.flatMap { request.cookies[$0.cookieName] }, codec: sessions?.codec)
        return RequestContext(request: request, routes: self, session: session, logger: logger)
    }

    private func dispatch(_ context: RequestContext) async throws -> Response {
        // Matching is synchronous; the only suspension point is the handler itself.
        try await route(context)()
    }

    private func route(_ context: RequestContext) throws -> @Sendable () async throws -> Response {
        let request = context.request
        let method = request.method == .head ? .get : request.method
        var allowed: Set<String> = []
        var found: (@Sendable () async throws -> Response)?
        func consider(_ entry: RouteEntry, _ captures: [String]) throws -> Bool {
            guard let run = entry.prepare(captures, context) else { return false }
            guard entry.method == method else {
                allowed.insert(entry.method.rawValue)
                return false
            }
            if CSRFCheck.applies(to: method) { try CSRFCheck.verify(context) }
            found = run
            return true
        }
        for entry in literalEntries[request.path] ?? [] where try consider(entry, []) {
            return found!
        }
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true)
        for entry in patternedEntries {
            guard let captures = entry.pattern.match(segments) else { continue }
            if try consider(entry, captures) { return found! }
        }
        if allowed.isEmpty, method == .get, let fallback {
            return { try await fallback.respond(to: request) }
        }
        guard allowed.isEmpty else {
            if allowed.contains("GET") { allowed.insert("HEAD") }
            throw HTTPError(.methodNotAllowed, message: "This address does not accept \(request.method.rawValue).",
                            headers: [.allow: allowed.sorted().joined(separator: ", ")])
        }
        throw HTTPError(.notFound, message: "There is nothing at this address.")
    }

    // MARK: Errors

    public func response(for error: HTTPError, to request: Request) async -> Response {
        await response(for: error, in: makeContext(for: request))
    }

    /// An error answered in the format the client asked for: JSON, or a page in the site layout.
    public func response(for error: HTTPError, in context: RequestContext) async -> Response {
        if AcceptHeader(context.request.headers[.accept]).prefersJSON {
            var response = Response(
                status: error.status,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .bytes(Array(ErrorJSON.encode(status: error.status.code, message: error.message).utf8))
            )
            response.headers.append(contentsOf: error.headers)
            return response
        }
        let controller = errorPages[error.status.code] ?? DefaultErrorPage()
        let page = controller.render(error, in: context)
        var response = Response.html(layout.render(page, in: context).bytes, status: error.status)
        response.headers.append(contentsOf: error.headers)
        return response
    }
}

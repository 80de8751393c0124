import Logging

/// A Tessera app, ready to serve: the middleware chain around the router, composed once.
///
/// It is what the HTTP server calls, both for requests (``respond(to:)``) and for requests the
/// server refused on its own (``response(for:to:)``), so that every answer, an early 413
/// included, is shaped by the same steps. Build one with ``ApplicationBuilder``.
public final class Application: HTTPResponder, HTTPErrorResponder {
    let parts: ApplicationParts
    private let chain: RequestResponder
    /// The steps that also shape answers to requests the server refused (sessions, error pages).
    private let rejectedRequestSteps: [any Middleware]

    init(parts: ApplicationParts, router: Router, middleware: [any Middleware]) {
        self.parts = parts
        self.chain = MiddlewareChain.compose(middleware, around: router.respond)
        self.rejectedRequestSteps = middleware.filter(\.runsForRejectedRequests)
    }

    /// The logger the app was built with; every request's context starts with it.
    public var logger: Logger { parts.logger }

    /// Answers a request through the middleware chain and, at its end, the router.
    public func respond(to request: Request) async throws -> Response {
        try await chain(RequestContext(request: request, application: parts))
    }

    /// A request the server refused before the app ran (or an error thrown outside the chain):
    /// answered by the steps that shape every answer, around a step that throws `error`.
    public func response(for error: any Error, to request: Request) async -> Response {
        let failing = MiddlewareChain.compose(rejectedRequestSteps) { _ in throw error }
        let context = RequestContext(request: request, application: parts)
        do {
            return try await failing(context)
        } catch {
            // No error step in the chain: the plain page, still through the one mapping.
            return parts.errorPages.response(for: ThrownError.answer(for: error, revealingDetails: parts.developmentMode), in: context)
        }
    }
}

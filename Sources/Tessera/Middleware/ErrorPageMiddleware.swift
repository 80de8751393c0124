import Logging

/// Turns whatever the rest of the chain throws into an answer: an error page in the site's
/// layout (rendered by the controller registered for its status), JSON for a client that asks
/// for it, or a bare redirect.
///
/// This is the framework's one `catch`. What an error means is decided by
/// `ThrownError.answer(for:revealingDetails:)`; what it looks like by the error page renderer.
/// Place it after the session step, so that error pages know the visitor and their forms carry
/// the session's token.
public struct ErrorPageMiddleware: Middleware {
    /// The error step; place it after the session step.
    public init() {}

    /// Answers anything thrown with its error page, logging server faults.
    public func recover(from error: any Error, in context: RequestContext) -> Response {
        if ThrownError.isServerFault(error) {
            context.logger.error("request failed", metadata: ["path": "\(context.request.loggedPath)", "error": "\(String(reflecting: error))"])
        }
        let revealing = context.application.developmentMode
        let answer = HTTPError.inLanguages(ThrownError.answer(for: error, revealingDetails: revealing), for: error, revealingDetails: revealing)
        return context.application.errorPages.response(for: answer, in: context)
    }

    /// Yes: a request the server refused gets the same error page as any other.
    public var runsForRejectedRequests: Bool { true }
}

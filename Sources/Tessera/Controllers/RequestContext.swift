import Logging
import TesseraViews

/// What a controller gets besides its injected services: the request, the visitor's session,
/// and the route table to reach other modules through (URLs by route, optional regions by key).
public struct RequestContext: Sendable {
    public let request: Request
    public let routes: RouteTable
    public let session: Session
    public let logger: Logger

    public init(request: Request, routes: RouteTable, session: Session? = nil, logger: Logger) {
        self.request = request
        self.routes = routes
        self.session = session ?? Session(cookie: nil, codec: nil)
        self.logger = logger
    }
}

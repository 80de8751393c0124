import Logging
import TesseraViews

/// What a controller gets besides its injected services: the request, the visitor's session,
/// the app's typed per-request values, and by name the few shared things pages need (the
/// layout, the regions other modules provide, the logger).
///
/// It is a value. A middleware that adds something (the session, the signed-in shopper) hands a
/// changed copy to the rest of the chain; nobody else sees the change.
public struct RequestContext: Sendable {
    public var request: Request
    /// The visitor's session, loaded by ``SessionMiddleware``; detached without it.
    public internal(set) var session: Session
    public var logger: Logger
    /// The route that matched, once the router has run: its name and captured segments.
    public internal(set) var route: MatchedRoute?
    var values: RequestValues
    /// The app's shared parts, reached through the named properties below.
    let application: ApplicationParts

    init(request: Request, application: ApplicationParts) {
        self.request = request
        self.session = .detached
        self.logger = application.logger
        self.route = nil
        self.values = RequestValues()
        self.application = application
    }

    /// The site's layout, which every full page and error page goes through.
    public var layout: any PageLayout { application.layout }

    /// The regions other modules provide, by key (``RegionRegistry``).
    public var regions: RegionRegistry { application.regions }

    /// The CSRF token this request's forms carry; `nil` without a session step.
    public var formToken: String? { session.csrfToken }

    /// A typed value attached to this request by a middleware, such as the signed-in shopper.
    public subscript<Key: RequestValueKey>(_ key: Key.Type) -> Key.Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// Renders `view` for this request: its forms carry the request's CSRF token.
    public func render<View: HTMLView>(_ view: View.Type, _ model: View.Model) -> HTMLOutput {
        View.render(model, formToken: formToken)
    }
}

/// The route the router matched for a request.
public struct MatchedRoute: Sendable {
    /// The route's name, such as `catalog.product`: a label for logs and metrics.
    public let name: String
    /// The decoded `{…}` segments, in order.
    let captures: [String]
}

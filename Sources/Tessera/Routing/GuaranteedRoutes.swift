/// The routes of a group that states a ``RouteGuarantee``: every handler gets the guaranteed
/// value, checked before it runs. Registered with ``RouterBuilder/group(_:_:routes:)``.
public struct GuaranteedRoutes<Guarantee: RouteGuarantee>: Sendable {
    let guarantee: Guarantee
    var routes = RouterBuilder()

    /// A full page; a visitor sent away (to sign in) comes back to it.
    public mutating func page<Parameters, Controller: PageController>(
        _ route: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters, RequestContext, Guarantee.Guaranteed) throws -> Controller
    ) {
        let guarantee = self.guarantee
        routes.page(route) { parameters, context in
            try factory(parameters, context, guarantee.check(context, returningTo: context.request.target))
        }
    }

    /// A region at its own URL; a visitor sent away comes back to `page`, the page it is part of.
    public mutating func fragment<Parameters>(
        _ route: Route<Parameters>,
        page: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters, RequestContext, Guarantee.Guaranteed) throws -> any RegionController
    ) {
        let guarantee = self.guarantee
        routes.fragment(route) { parameters, context in
            try factory(parameters, context, guarantee.check(context, returningTo: page.path(parameters)))
        }
    }

    /// An action that may wait, such as a form's post; a visitor sent away comes back to `page`,
    /// the page the form is on (signing in cannot replay a post), or, without one, to the
    /// request's parent address for a post (`/admin/orders/7` for `/admin/orders/7/ship`).
    public mutating func action<Parameters>(
        _ route: Route<Parameters>,
        page: Route<Parameters>? = nil,
        _ handler: @escaping @Sendable (Parameters, RequestContext, Guarantee.Guaranteed) async throws -> Response
    ) {
        let guarantee = self.guarantee
        routes.action(route) { parameters, context in
            let value = try guarantee.check(context, returningTo: Self.returnPage(page?.path(parameters), context.request))
            return try await handler(parameters, context, value)
        }
    }

    /// An action that answers without waiting.
    public mutating func action<Parameters>(
        _ route: Route<Parameters>,
        page: Route<Parameters>? = nil,
        _ handler: @escaping @Sendable (Parameters, RequestContext, Guarantee.Guaranteed) throws -> Response
    ) {
        let guarantee = self.guarantee
        routes.action(route) { parameters, context in
            try handler(parameters, context, guarantee.check(context, returningTo: Self.returnPage(page?.path(parameters), context.request)))
        }
    }

    /// Where to come back to: `page` when given, the address itself for a `GET`, else its parent.
    static func returnPage(_ page: String?, _ request: Request) -> String {
        if let page { return page }
        guard request.method != .get, request.method != .head else { return request.target }
        return "/" + request.path.split(separator: "/").dropLast().joined(separator: "/")
    }
}

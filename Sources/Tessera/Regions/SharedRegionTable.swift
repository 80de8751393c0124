/// The shared regions of an app by route name, as registered when it was built: the only ones a
/// page can name.
struct SharedRegionTable: Sendable {
    /// Makes the use of a region from its parameters' path segments, or `nil` when they do not
    /// parse.
    typealias Binder = @Sendable (_ segments: [String], _ source: String) -> (any SharedRegionUse)?

    private(set) var binders: [String: Binder] = [:]

    mutating func register<Shared: SharedRegion>(_ region: Shared, at route: Route<Shared.Parameters>) {
        binders[route.name] = { segments, source in
            var captures = RouteCaptures(segments)
            guard let parameters = Shared.Parameters(captures: &captures) else { return nil }
            return SharedRegionCall(region: region, parameters: parameters, source: source)
        }
    }

    /// The use of the region registered at `route` with these path segments, or `nil` when
    /// none is or they do not parse.
    func use(of route: String, segments: [String], source: String) -> (any SharedRegionUse)? {
        binders[route]?(segments, source)
    }

    mutating func merge(_ other: SharedRegionTable) {
        binders.merge(other.binders) { first, _ in first }
    }
}

import Tessera

/// The catalog's one entry point: its pages, its region fragments.
public struct CatalogModule: FeatureModule {
    let catalog: CatalogService

    public init(catalog: CatalogService) {
        self.catalog = catalog
    }

    public func register(in routes: inout RouteTableBuilder) {
        let catalog = self.catalog
        routes.page(CatalogRoutes.list) { _, _ in ProductListController(catalog: catalog) }
        routes.page(CatalogRoutes.product) { id, _ in ProductPageController(catalog: catalog, id: id) }
        routes.fragment(CatalogRoutes.detail) { id, _ in ProductDetailRegion(catalog: catalog, product: .id(id)) }
        routes.fragment(CatalogRoutes.related) { id, _ in RelatedProductsRegion(catalog: catalog, product: .id(id)) }
    }
}

extension CatalogError {
    /// How a catalog failure is answered.
    var httpError: HTTPError {
        switch self {
        case .notFound(let message): HTTPError(.notFound, message: message)
        case .invalid(let message): HTTPError(.badRequest, message: message)
        case .storage: HTTPError(.serviceUnavailable, message: "The catalog is unavailable right now.")
        }
    }
}

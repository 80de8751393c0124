import Tessera

/// The catalog's one entry point: its pages, its region fragments, and the service that keeps
/// what the store holds in memory current (``CatalogService/followChanges()``).
public struct CatalogModule: FeatureModule {
    let catalog: CatalogService

    /// The catalog's pages, answered by `catalog`; the composition root makes the service with its store.
    public init(catalog: CatalogService) {
        self.catalog = catalog
    }

    /// Registers the list, the product page and its regions at their own URLs, and the sitemap.
    public func register(in app: inout ApplicationBuilder) {
        let catalog = self.catalog
        app.services.append(CatalogChangesFollower(catalog: catalog))
        app.routes.page(CatalogRoutes.list) { _, _ in ProductListPageController(catalog: catalog) }
        app.routes.page(CatalogRoutes.product) { id, _ in ProductPageController(catalog: catalog, id: id) }
        app.routes.fragment(CatalogRoutes.detail) { id, _ in ProductDetailRegion(catalog: catalog, product: .id(id)) }
        app.routes.fragment(CatalogRoutes.related) { id, _ in RelatedProductsRegion(catalog: catalog, product: .id(id)) }
        SitemapAction(catalog: catalog).register(in: &app.routes)
    }
}

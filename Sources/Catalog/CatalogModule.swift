public import Tessera

/// The catalog's one entry point: its pages, its shared regions, and the store's work beside the
/// server (``CatalogService/maintain()``).
public struct CatalogModule: FeatureModule {
    let catalog: CatalogService
    let photos: PhotoService

    /// The catalog's pages, answered by `catalog` with the products' `photos`; the composition
    /// root makes the services with their stores.
    public init(catalog: CatalogService, photos: PhotoService) {
        self.catalog = catalog
        self.photos = photos
    }

    /// Registers the list, the product page and its regions at their own URLs, and the sitemap.
    public func register(in app: inout ApplicationBuilder) {
        let catalog = self.catalog, photos = self.photos
        app.services.append(CatalogMaintenance(catalog: catalog))
        app.routes.keptPage(CatalogRoutes.list) { _ in ProductListPageController(catalog: catalog, photos: photos) }
        app.routes.keptPage(CatalogRoutes.product) { id in ProductPageController(catalog: catalog, photos: photos, id: id) }
        app.routes.sharedRegion(CatalogRoutes.detail, ProductDetailRegion(catalog: catalog, photos: photos))
        PhotoActions(photos: photos).register(in: &app.routes)
        app.routes.sharedRegion(CatalogRoutes.related, RelatedProductsRegion(catalog: catalog, photos: photos))
        SitemapAction(catalog: catalog).register(in: &app.routes)
    }
}

public import Catalog
public import Orders
public import Tessera

/// Staff's side of the shop: orders to ship or cancel, products' stock and price. It uses the
/// Orders and Catalog services, and neither of them knows it exists.
///
/// Every `/admin` route is in one group that guarantees a member of staff (``StaffOnly``): a
/// visitor who is not signed in is sent to sign in, and a signed-in shopper gets the same 404 as
/// for an address that does not exist.
public struct BackOfficeModule: FeatureModule {
    let orders: OrderService
    let catalog: CatalogService
    let photos: PhotoService

    /// The back office over the same services the shop uses: staff change orders and products only through their rules.
    public init(orders: OrderService, catalog: CatalogService, photos: PhotoService) {
        self.orders = orders
        self.catalog = catalog
        self.photos = photos
    }

    /// Registers every `/admin` route inside one staff-only group.
    public func register(in app: inout ApplicationBuilder) {
        let (orders, catalog, photos) = (orders, catalog, photos)
        app.routes.group(StaffOnly()) { routes in
            Self.register(in: &routes, orders: orders, catalog: catalog, photos: photos)
        }
    }

    private static func register(in routes: inout GuaranteedRoutes<StaffOnly>, orders: OrderService, catalog: CatalogService, photos: PhotoService) {
        routes.action(BackOfficeRoutes.home) { _, _, _ in .redirect(to: BackOfficeRoutes.orders.path) }
        routes.page(BackOfficeRoutes.orders) { _, _, _ in AdminOrderListPageController(orders: orders) }
        routes.page(BackOfficeRoutes.order) { id, _, _ in AdminOrderPageController(orders: orders, id: id) }
        routes.page(BackOfficeRoutes.products) { _, _, _ in AdminProductsPageController(catalog: catalog) }
        routes.page(BackOfficeRoutes.mail) { _, _, _ in AdminMailPageController(orders: orders) }
        AdminOrderActions(orders: orders).register(in: &routes)
        AdminProductActions(catalog: catalog, photos: photos).register(in: &routes)
        AdminMailActions(orders: orders).register(in: &routes)
    }
}

public import Accounts
public import Catalog
public import Orders
public import Tessera

/// Staff's side of the shop: orders to ship or cancel, products' stock and price, and who is
/// staff. It uses the Orders, Catalog and Accounts services, and none of them knows it exists.
///
/// Every `/admin` route is in one group that guarantees a member of staff (``StaffOnly``): a
/// visitor who is not signed in is sent to sign in, and a signed-in shopper gets the same 404 as
/// for an address that does not exist.
public struct BackOfficeModule: FeatureModule {
    let orders: OrderService
    let catalog: CatalogService
    let photos: PhotoService
    let accounts: AccountsService

    /// The back office over the same services the shop uses: staff change orders, products and
    /// staff rights only through their rules.
    public init(orders: OrderService, catalog: CatalogService, photos: PhotoService, accounts: AccountsService) {
        self.orders = orders
        self.catalog = catalog
        self.photos = photos
        self.accounts = accounts
    }

    /// Registers every `/admin` route inside one staff-only group.
    public func register(in app: inout ApplicationBuilder) {
        let (orders, catalog, photos, accounts) = (orders, catalog, photos, accounts)
        app.routes.group(StaffOnly()) { routes in
            Self.register(in: &routes, orders: orders, catalog: catalog, photos: photos, accounts: accounts)
        }
    }

    private static func register(
        in routes: inout GuaranteedRoutes<StaffOnly>, orders: OrderService, catalog: CatalogService, photos: PhotoService, accounts: AccountsService
    ) {
        routes.action(BackOfficeRoutes.home) { _, _, _ in .redirect(to: BackOfficeRoutes.orders.path) }
        routes.page(BackOfficeRoutes.orders) { _, _, _ in AdminOrderListPageController(orders: orders) }
        routes.page(BackOfficeRoutes.order) { id, _, _ in AdminOrderPageController(orders: orders, id: id) }
        routes.page(BackOfficeRoutes.products) { _, _, _ in AdminProductsPageController(catalog: catalog) }
        routes.page(BackOfficeRoutes.mail) { _, _, _ in AdminMailPageController(orders: orders) }
        AdminOrderActions(orders: orders).register(in: &routes)
        AdminProductActions(catalog: catalog, photos: photos).register(in: &routes)
        AdminMailActions(orders: orders).register(in: &routes)
        routes.page(BackOfficeRoutes.staff) { _, _, _ in AdminStaffPageController(accounts: accounts) }
        AdminStaffActions(accounts: accounts).register(in: &routes)
    }
}

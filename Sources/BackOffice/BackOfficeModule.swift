import Catalog
import Orders
import Tessera

/// Staff's side of the shop: orders to ship or cancel, products' stock and price. It uses the
/// Orders and Catalog services, and neither of them knows it exists.
///
/// Every `/admin` page is for staff only: a visitor who is not signed in is sent to sign in, and
/// a signed-in shopper gets the same 404 as for an address that does not exist.
public struct BackOfficeModule: FeatureModule {
    let orders: OrderService
    let catalog: CatalogService

    public init(orders: OrderService, catalog: CatalogService) {
        self.orders = orders
        self.catalog = catalog
    }

    public func register(in app: inout ApplicationBuilder) {
        let (orders, catalog) = (orders, catalog)
        app.routes.action(BackOfficeRoutes.home) { _, context in
            _ = try StaffMember.require(context)
            return .redirect(to: BackOfficeRoutes.orders.path)
        }
        app.routes.page(BackOfficeRoutes.orders) { _, context in
            _ = try StaffMember.require(context)
            return AdminOrderListPageController(orders: orders)
        }
        app.routes.page(BackOfficeRoutes.order) { id, context in
            _ = try StaffMember.require(context)
            return AdminOrderPageController(orders: orders, id: id)
        }
        app.routes.page(BackOfficeRoutes.products) { _, context in
            _ = try StaffMember.require(context)
            return AdminProductsPageController(catalog: catalog)
        }
        AdminOrderActions(orders: orders).register(in: &app.routes)
        AdminProductActions(catalog: catalog).register(in: &app.routes)
    }
}

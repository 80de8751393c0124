import Accounts
import Catalog
import Tessera

/// Orders' one entry point: the cart, checkout, the orders pages, and the two regions Orders
/// provides to the catalog's product page through the route table.
public struct OrdersModule: FeatureModule {
    let cart: CartService
    let orders: OrderService
    let catalog: CatalogService

    public init(cart: CartService, orders: OrderService, catalog: CatalogService) {
        self.cart = cart
        self.orders = orders
        self.catalog = catalog
    }

    public func register(in routes: inout RouteTableBuilder) {
        let orders = self.orders
        let catalog = self.catalog
        CartActions(cart: cart, catalog: catalog).register(in: &routes)
        CheckoutActions(orders: orders, cart: cart).register(in: &routes)
        OrderActions(orders: orders).register(in: &routes)

        routes.page(OrdersRoutes.orders) { _, _ in OrderListController(orders: orders) }
        routes.page(OrdersRoutes.order) { id, _ in OrderPageController(orders: orders, id: id) }
        routes.fragment(OrdersRoutes.orderStatus) { id, _ in OrderStatusFragment(orders: orders, id: id) }

        routes.provide(CatalogRegions.addToCart, source: { OrdersRoutes.addToCartFragment.path($0.id) }) { product, _ in
            AddToCartRegion(product: product)
        }
        routes.fragment(OrdersRoutes.addToCartFragment) { id, _ in
            ProductFragment(catalog: catalog, id: id) { AddToCartRegion(product: $0) }
        }
        // Only for a signed-in shopper: for anyone else the region is not on the page at all.
        routes.provide(CatalogRegions.purchases, source: { OrdersRoutes.purchasesFragment.path($0.id) }) { product, context in
            SignedIn.userID(in: context).map { PurchasesRegion(orders: orders, productID: product.id, userID: $0) }
        }
        routes.fragment(OrdersRoutes.purchasesFragment) { id, context in
            let userID = SignedIn.userID(in: context)
            return ProductFragment(catalog: catalog, id: id) { product in
                guard let userID else { return EmptyRegion() }
                return PurchasesRegion(orders: orders, productID: product.id, userID: userID)
            }
        }
    }
}

import Accounts
public import Catalog
public import Tessera

/// Orders' one entry point: the cart, checkout, the orders pages, and the two regions Orders
/// provides to the catalog's product page through the region registry.
public struct OrdersModule: FeatureModule {
    let cart: CartService
    let orders: OrderService
    let catalog: CatalogService
    let checkoutLimit: RateLimitRule

    /// Orders one shopper may place: far above any honest shopper, low enough to stop a script.
    public static let defaultCheckoutLimit = RateLimitRule(limit: 30, per: .seconds(60))

    /// The cart and order pages over their services; `catalog` for the product page's regions
    /// Orders fills; `checkoutLimit` for orders placed per signed-in shopper.
    public init(cart: CartService, orders: OrderService, catalog: CatalogService, checkoutLimit: RateLimitRule = defaultCheckoutLimit) {
        self.checkoutLimit = checkoutLimit
        self.cart = cart
        self.orders = orders
        self.catalog = catalog
    }

    /// Registers the cart, checkout and order routes, and provides the product page's add-to-cart and purchases regions.
    public func register(in app: inout ApplicationBuilder) {
        let orders = self.orders
        let catalog = self.catalog
        let cart = self.cart
        app.routes.page(OrdersRoutes.cart) { _, _ in CartPageController(cart: cart) }
        // Everything about the shopper's own orders: only for a signed-in shopper, checked once.
        app.routes.group(SignedInShopper()) { routes in
            routes.page(OrdersRoutes.checkout) { _, _, shopper in CheckoutPageController(cart: cart, orders: orders, userID: shopper.id) }
            routes.page(OrdersRoutes.orders) { _, _, shopper in OrderListPageController(orders: orders, userID: shopper.id) }
            routes.page(OrdersRoutes.order) { id, _, shopper in OrderPageController(orders: orders, id: id, userID: shopper.id) }
            routes.fragment(OrdersRoutes.orderRows, page: OrdersRoutes.orders) { _, context, shopper in
                OrderRowsRegion(orders: orders, userID: shopper.id, status: try OrderStatus.filter(in: context.request))
            }
            routes.fragment(OrdersRoutes.orderStatus, page: OrdersRoutes.order) { id, _, shopper in
                OrderStatusRegion(orders: orders, id: id, userID: shopper.id)
            }
            OrderActions(orders: orders).register(in: &routes)
        }
        CartActions(cart: cart, catalog: catalog).register(in: &app.routes)
        CheckoutActions(orders: orders, cart: cart, limit: app.rateLimit("checkout", checkoutLimit, by: .shopper)).register(in: &app.routes)

        app.regions.provide(CatalogRegions.addToCart, source: { OrdersRoutes.addToCartFragment.path($0.id) }) { product, _ in
            AddToCartRegion(product: product)
        }
        app.routes.fragment(OrdersRoutes.addToCartFragment) { id, _ in
            ProductLoadingRegion(catalog: catalog, id: id) { AddToCartRegion(product: $0) }
        }
        // Only for a signed-in shopper: for anyone else the region is not on the page at all.
        app.regions.provide(CatalogRegions.purchases, source: { OrdersRoutes.purchasesFragment.path($0.id) }) { product, context in
            context.shopper.map { PurchasesRegion(orders: orders, productID: product.id, userID: $0.id) }
        }
        app.routes.fragment(OrdersRoutes.purchasesFragment) { id, context in
            let shopper = context.shopper
            return ProductLoadingRegion(catalog: catalog, id: id) { product in
                guard let shopper else { return EmptyRegion() }
                return PurchasesRegion(orders: orders, productID: product.id, userID: shopper.id)
            }
        }
    }
}

import Tessera

/// Orders' routes, for links from anywhere.
public enum OrdersRoutes {
    public static let cart = Route<NoParameters>("orders.cart", .get, "/cart")
    public static let addToCart = Route<NoParameters>("orders.cart.add", .post, "/cart/items")
    public static let updateLine = Route<Int>("orders.cart.update", .post, "/cart/items/{productID}")
    public static let removeLine = Route<Int>("orders.cart.remove", .post, "/cart/items/{productID}/remove")

    public static let checkout = Route<NoParameters>("orders.checkout", .get, "/checkout")
    public static let placeOrder = Route<NoParameters>("orders.checkout.place", .post, "/checkout")

    public static let orders = Route<NoParameters>("orders.list", .get, "/orders")
    public static let orderRows = Route<NoParameters>("orders.list.rows", .get, "/orders/rows")
    public static let order = Route<Int>("orders.order", .get, "/orders/{id}")
    public static let orderStatus = Route<Int>("orders.order.status", .get, "/orders/{id}/status")
    public static let pay = Route<Int>("orders.order.pay", .post, "/orders/{id}/pay")
    public static let cancel = Route<Int>("orders.order.cancel", .post, "/orders/{id}/cancel")
    public static let confirmReceipt = Route<Int>("orders.order.confirm", .post, "/orders/{id}/confirm")
    public static let review = Route<Int>("orders.order.review", .post, "/orders/{id}/review")

    /// The fragments of the regions Orders provides to the product page.
    public static let addToCartFragment = Route<Int>("orders.product.add-to-cart", .get, "/products/{id}/add-to-cart")
    public static let purchasesFragment = Route<Int>("orders.product.purchases", .get, "/products/{id}/purchases")
}

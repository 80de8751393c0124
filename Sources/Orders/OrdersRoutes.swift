public import Tessera

/// Orders' routes, for links from anywhere.
public enum OrdersRoutes {
    /// `/cart`: the cart with its quantities, totals computed on the server.
    public static let cart = Route<NoParameters>("orders.cart", .get, "/cart")
    /// Adds a product to the cart from its page; the quantity is capped by the stock.
    public static let addToCart = Route<NoParameters>("orders.cart.add", .post, "/cart/items")
    /// Sets a line's quantity from the cart page.
    public static let updateLine = Route<Int>("orders.cart.update", .post, "/cart/items/{productID}")
    /// Removes a line from the cart.
    public static let removeLine = Route<Int>("orders.cart.remove", .post, "/cart/items/{productID}/remove")

    /// `/checkout`: the cart's review before the order is placed; signed in only.
    public static let checkout = Route<NoParameters>("orders.checkout", .get, "/checkout")
    /// Places the order: stock, order and cart in one transaction, once per checkout form.
    public static let placeOrder = Route<NoParameters>("orders.checkout.place", .post, "/checkout")

    /// `/orders`: the shopper's orders, newest first, filtered by `?status=`.
    public static let orders = Route<NoParameters>("orders.list", .get, "/orders")
    /// The order list's rows alone, the region a live list follows.
    public static let orderRows = Route<NoParameters>("orders.list.rows", .get, "/orders/rows")
    /// `/orders/{id}`: one of the shopper's orders; another shopper's is a 404.
    public static let order = Route<Int>("orders.order", .get, "/orders/{id}")
    /// An order page's status region alone, which follows the order live.
    public static let orderStatus = Route<Int>("orders.order.status", .get, "/orders/{id}/status")
    /// Pays the order, once per pay form (its idempotency key).
    public static let pay = Route<Int>("orders.order.pay", .post, "/orders/{id}/pay")
    /// Cancels the order while it has not shipped, and puts its stock back.
    public static let cancel = Route<Int>("orders.order.cancel", .post, "/orders/{id}/cancel")
    /// The shopper confirms a shipped order arrived, which completes it.
    public static let confirmReceipt = Route<Int>("orders.order.confirm", .post, "/orders/{id}/confirm")
    /// Reviews a completed order, once.
    public static let review = Route<Int>("orders.order.review", .post, "/orders/{id}/review")

    /// The fragments of the regions Orders provides to the product page.
    public static let addToCartFragment = Route<Int>("orders.product.add-to-cart", .get, "/products/{id}/add-to-cart")
    /// The product page's "your purchases" region alone.
    public static let purchasesFragment = Route<Int>("orders.product.purchases", .get, "/products/{id}/purchases")
}

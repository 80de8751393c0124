import Tessera

/// The back office's addresses: staff's side of the shop, all under `/admin`.
public enum BackOfficeRoutes {
    public static let home = Route<NoParameters>("backoffice", .get, "/admin")
    public static let orders = Route<NoParameters>("backoffice.orders", .get, "/admin/orders")
    public static let order = Route<Int>("backoffice.order", .get, "/admin/orders/{id}")
    public static let ship = Route<Int>("backoffice.order.ship", .post, "/admin/orders/{id}/ship")
    public static let cancel = Route<Int>("backoffice.order.cancel", .post, "/admin/orders/{id}/cancel")
    public static let products = Route<NoParameters>("backoffice.products", .get, "/admin/products")
    public static let adjustProduct = Route<Int>("backoffice.product.adjust", .post, "/admin/products/{id}")
}

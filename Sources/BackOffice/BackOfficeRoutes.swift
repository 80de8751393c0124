public import Tessera

/// The back office's addresses: staff's side of the shop, all under `/admin`.
public enum BackOfficeRoutes {
    /// `/admin`: sends staff on to the orders.
    public static let home = Route<NoParameters>("backoffice", .get, "/admin")
    /// `/admin/orders`: every order, filtered by status, newest first.
    public static let orders = Route<NoParameters>("backoffice.orders", .get, "/admin/orders")
    /// One order for staff: its lines, its history, and Ship or Cancel while its status allows.
    public static let order = Route<Int>("backoffice.order", .get, "/admin/orders/{id}")
    /// Ships a paid order with its tracking number.
    public static let ship = Route<Int>("backoffice.order.ship", .post, "/admin/orders/{id}/ship")
    /// Cancels an order that has not shipped, with the reason the shopper will read.
    public static let cancel = Route<Int>("backoffice.order.cancel", .post, "/admin/orders/{id}/cancel")
    /// `/admin/products`: stock and price of every product, a page at a time.
    public static let products = Route<NoParameters>("backoffice.products", .get, "/admin/products")
    /// Sets one product's stock and price, refused if the stock moved since the form was shown.
    public static let adjustProduct = Route<Int>("backoffice.product.adjust", .post, "/admin/products/{id}")
    /// Adds an uploaded photo to the product (`multipart/form-data`, its field `photo`).
    public static let addPhoto = Route<Int>("backoffice.product.photo", .post, "/admin/products/{id}/photos")
    /// `/admin/mail`: order confirmations the outbox gave up on, to mend and send again or discard.
    public static let mail = Route<NoParameters>("backoffice.mail", .get, "/admin/mail")
    /// Sends dead letter `{id}` again, to the address the form gives (the account gets it too).
    public static let resendMail = Route<Int>("backoffice.mail.resend", .post, "/admin/mail/{id}/resend")
    /// Sends every dead letter again to its buyer's address now (after a mail server's outage).
    public static let resendAllMail = Route<NoParameters>("backoffice.mail.resend-all", .post, "/admin/mail/resend")
    /// Drops dead letter `{id}` for good.
    public static let discardMail = Route<Int>("backoffice.mail.discard", .post, "/admin/mail/{id}/discard")
    /// `/admin/staff`: who is staff, with forms to give and take staff rights.
    public static let staff = Route<NoParameters>("backoffice.staff", .get, "/admin/staff")
    /// Gives the account of the form's e-mail staff rights.
    public static let grantStaff = Route<NoParameters>("backoffice.staff.grant", .post, "/admin/staff")
    /// Takes staff rights from an account, ending its sessions everywhere.
    public static let revokeStaff = Route<Int>("backoffice.staff.revoke", .post, "/admin/staff/{id}/revoke")
}

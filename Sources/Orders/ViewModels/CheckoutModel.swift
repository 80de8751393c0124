/// The checkout page: the cart's lines, priced by the server, and why placing the order failed.
struct CheckoutModel: Sendable {
    var items: LineItems
    var isEmpty: Bool
    var error: String?
}

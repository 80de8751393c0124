/// The checkout page: the cart's lines, priced by the server, and why placing the order failed.
struct CheckoutModel: Sendable {
    var items: LineItems
    var isEmpty: Bool
    var error: String?
    /// The number the order placed from this page gets: a second submission of the same page
    /// finds that order instead of placing another.
    var checkoutNumber: Int
}

import Tessera

/// Why a cart could not become an order; the checkout page shows it again, with the reason.
public enum CheckoutError: HTTPResponseError, Equatable {
    case emptyCart
    /// A line asks for more than the stock; the message names the product.
    case stock(String)
    /// The form is older than the shopper's last checkout (or not a checkout form of theirs):
    /// its cart may not be what the page showed.
    case outdatedForm

    public var status: HTTPResponse.Status {
        switch self {
        case .emptyCart, .stock: .unprocessableContent
        case .outdatedForm: .conflict
        }
    }

    public var publicMessage: String {
        switch self {
        case .emptyCart: "Your cart is empty."
        case .stock(let message): message + " Please change your cart."
        case .outdatedForm: "This checkout page was out of date: another order was placed since it was shown. Check your cart below and place the order again."
        }
    }
}

import Tessera

/// Why a cart could not become an order; the checkout page shows it again, with the reason.
public enum CheckoutError: HTTPResponseError, Equatable {
    case emptyCart
    /// A line asks for more than the stock; the message names the product.
    case stock(String)

    public var status: HTTPResponse.Status { .unprocessableContent }

    public var publicMessage: String {
        switch self {
        case .emptyCart: "Your cart is empty."
        case .stock(let message): message + " Please change your cart."
        }
    }
}

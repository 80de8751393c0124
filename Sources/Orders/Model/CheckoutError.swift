public import Tessera
public import TesseraViews

/// Why a cart could not become an order; the checkout page shows it again, with the reason.
public enum CheckoutError: LocalizedResponseError, Equatable {
    case emptyCart
    /// A line asks for more than the stock.
    case stock(QuantityProblem)
    /// The form is older than the shopper's last checkout (or not a checkout form of theirs):
    /// its cart may not be what the page showed.
    case outdatedForm

    public var status: HTTPResponse.Status {
        switch self {
        case .emptyCart, .stock: .unprocessableContent
        case .outdatedForm: .conflict
        }
    }

    /// What the checkout page says, in `language`.
    public func publicMessage(in language: Language) -> String {
        switch self {
        case .emptyCart: Messages.checkoutEmpty.string(in: language)
        case .stock(let problem): Messages.checkoutChangeCart.string(in: language, ["problem": problem.message(in: language)])
        case .outdatedForm: Messages.checkoutOutdated.string(in: language)
        }
    }
}

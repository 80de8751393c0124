public import Tessera
public import TesseraViews

/// Why a cart change was refused.
public enum CartError: LocalizedResponseError, Equatable {
    /// The product is not (or no longer) in the catalog.
    case unknownProduct
    /// The quantity does not fit the stock.
    case quantity(QuantityProblem)

    public var status: HTTPResponse.Status {
        switch self {
        case .unknownProduct: .notFound
        case .quantity: .unprocessableContent
        }
    }

    /// In English, for logs.

    /// What the cart page says, in `language`.
    public func publicMessage(in language: Language) -> String {
        switch self {
        case .unknownProduct: Messages.errorNoSuchProduct.string(in: language)
        case .quantity(let problem): problem.message(in: language)
        }
    }
}

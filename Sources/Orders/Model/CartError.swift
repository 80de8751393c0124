import Tessera
import TesseraViews

/// Why a cart change was refused.
public enum CartError: HTTPResponseError, Equatable {
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

    public var publicMessage: String {
        switch self {
        case .unknownProduct: "There is no such product."
        case .quantity(let problem): problem.description
        }
    }

    /// What the cart page says, in `language`.
    public func message(in language: Language) -> String {
        switch self {
        case .unknownProduct: publicMessage
        case .quantity(let problem): problem.message(in: language)
        }
    }
}

import Tessera

/// Why a cart change was refused.
public enum CartError: HTTPResponseError, Equatable {
    /// The product is not (or no longer) in the catalog.
    case unknownProduct
    /// The quantity does not fit the stock; the message names the product.
    case quantity(String)

    public var status: HTTPResponse.Status {
        switch self {
        case .unknownProduct: .notFound
        case .quantity: .unprocessableContent
        }
    }

    public var publicMessage: String {
        switch self {
        case .unknownProduct: "There is no such product."
        case .quantity(let message): message
        }
    }
}

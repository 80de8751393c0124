public import TesseraViews

/// Why a quantity cannot be had: what the cart and checkout refuse, said in the shopper's
/// language where a page shows it, and in English in logs and `publicMessage`.
public enum QuantityProblem: Sendable, Equatable, CustomStringConvertible {
    case atLeastOne
    case soldOut(product: String)
    case onlyInStock(Int, product: String)
    /// A line's product has left the catalog.
    case productGone

    /// The sentence in `language`.
    public func message(in language: Language) -> String {
        switch self {
        case .atLeastOne: Messages.problemAtLeastOne.string(in: language)
        case .soldOut(let name): Messages.problemSoldOut.string(in: language, ["name": name])
        case .onlyInStock(let stock, let name): Messages.problemOnly.string(in: language, count: stock, ["name": name])
        case .productGone: Messages.problemGone.string(in: language)
        }
    }

    public var description: String { message(in: .english) }
}

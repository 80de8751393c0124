public import Tessera

/// Carts, keyed by an id: the account's for a signed-in shopper, else one kept in the visitor's
/// session (see `CartSession`).
public protocol CartStore: Sendable {
    /// The cart's lines, by product; an unknown cart has none.
    func lines(cart: String, within budget: DatabaseBudget) async throws -> [(productID: Int, quantity: Int)]
    /// Sets a line's quantity, adding the line if needed; 0 removes it.
    func setQuantity(_ quantity: Int, of productID: Int, in cart: String, within budget: DatabaseBudget) async throws
    /// Adds to a line in one statement, so two quick adds both count; returns the line's new quantity.
    func add(_ quantity: Int, of productID: Int, to cart: String, within budget: DatabaseBudget) async throws -> Int
    /// Moves the lines of `source` whose product has a limit into `target`, in one transaction:
    /// quantities add up, capped at `limits[productID]` (0 drops the line).
    func merge(cart source: String, into target: String, limits: [Int: Int], within budget: DatabaseBudget) async throws
}

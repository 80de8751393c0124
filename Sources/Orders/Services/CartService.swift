public import Catalog
public import Tessera

/// The cart's rules: quantities are whole numbers from 1 up to the stock, prices come from the
/// catalog (a client never supplies one), and the server computes every total.
public struct CartService: Sendable {
    let store: any CartStore
    let catalog: CatalogService

    /// The cart over `store`, with prices and stock always from `catalog`.
    public init(store: any CartStore, catalog: CatalogService) {
        self.store = store
        self.catalog = catalog
    }

    /// A cart line with its product as the catalog has it now: the price shown is today's.
    public struct Line: Sendable {
        /// The product, read fresh from the catalog.
        public var product: Product
        /// How many, from 1 to the product's stock.
        public var quantity: Int
        /// The line's total in cents, computed by the server.
        public var totalMinor: Int { product.priceMinor * quantity }
    }

    /// The cart as pages show it: lines of products that still exist, in a stable order.
    public struct Cart: Sendable {
        /// The lines, by product.
        public var lines: [Line]
        /// The cart's total in cents.
        public var totalMinor: Int { lines.reduce(0) { $0 + $1.totalMinor } }
        /// How many items, for the layout's cart count.
        public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
    }

    /// The cart with this id; an unknown id is an empty cart.
    public func cart(_ id: String, within budget: DatabaseBudget) async throws -> Cart {
        var lines: [Line] = []
        for line in try await store.lines(cart: id, within: budget) {
            if let product = try await catalog.existingProduct(id: line.productID, within: budget) {
                lines.append(Line(product: product, quantity: line.quantity))
            }
        }
        return Cart(lines: lines)
    }

    /// Adds `quantity` of a product and returns the product; the line may not exceed the stock
    /// (``CartError``).
    @discardableResult
    public func add(_ quantity: Int, of productID: Int, to cart: String, within budget: DatabaseBudget) async throws -> Product {
        guard let product = try await catalog.existingProduct(id: productID, within: budget) else { throw CartError.unknownProduct }
        let current = try await store.lines(cart: cart, within: budget).first { $0.productID == productID }?.quantity ?? 0
        if let problem = Self.problem(with: quantity + current, of: product, adding: quantity) { throw CartError.quantity(problem) }
        _ = try await store.add(quantity, of: productID, to: cart, within: budget)
        return product
    }

    /// Sets a line's quantity; 0 removes it. A quantity over the stock is a ``CartError``.
    public func setQuantity(_ quantity: Int, of productID: Int, in cart: String, within budget: DatabaseBudget) async throws {
        guard let product = try await catalog.existingProduct(id: productID, within: budget) else { throw CartError.unknownProduct }
        if quantity != 0, let problem = Self.problem(with: quantity, of: product, adding: quantity) { throw CartError.quantity(problem) }
        try await store.setQuantity(quantity, of: productID, in: cart, within: budget)
    }

    /// Moves the anonymous cart `source` into the account's cart `target`, as a shopper signs
    /// in: quantities of the same product add up, capped at the stock (what is sold out is
    /// dropped). Returns the account's cart.
    public func merge(_ source: String?, into target: String, within budget: DatabaseBudget) async throws -> Cart {
        if let source, source != target {
            var limits: [Int: Int] = [:]
            for line in try await store.lines(cart: source, within: budget) {
                // A product gone from the catalog can be bought by nobody: its line is dropped.
                limits[line.productID] = try await catalog.existingProduct(id: line.productID, within: budget)?.stock ?? 0
            }
            try await store.merge(cart: source, into: target, limits: limits, within: budget)
        }
        return try await cart(target, within: budget)
    }

    static func problem(with total: Int, of product: Product, adding quantity: Int) -> QuantityProblem? {
        if quantity < 1 { return .atLeastOne }
        if product.stock == 0 { return .soldOut(product: product.name) }
        if total > product.stock { return .onlyInStock(product.stock, product: product.name) }
        return nil
    }
}

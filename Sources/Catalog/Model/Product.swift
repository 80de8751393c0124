/// A product in the shop. Prices are integer minor units (cents): money is never a `Double`.
public struct Product: Sendable, Equatable, Codable {
    public var id: Int
    public var categoryID: Int
    public var name: String
    public var summary: String
    public var priceMinor: Int
    public var stock: Int
    public var imagePath: String

    public init(id: Int, categoryID: Int, name: String, summary: String, priceMinor: Int, stock: Int, imagePath: String) {
        self.id = id
        self.categoryID = categoryID
        self.name = name
        self.summary = summary
        self.priceMinor = priceMinor
        self.stock = stock
        self.imagePath = imagePath
    }
}

public struct Category: Sendable, Equatable, Codable {
    public var id: Int
    public var slug: String
    public var name: String

    public init(id: Int, slug: String, name: String) {
        self.id = id
        self.slug = slug
        self.name = name
    }
}

/// Display formatting lives with the model, not in templates or controllers.
extension Product {
    /// `$12.50`
    public var price: String { Money.format(minor: priceMinor) }
    public var inStock: Bool { stock > 0 }
    public var stockLabel: String { stock == 0 ? "Sold out" : stock < 5 ? "Only \(stock) left" : "In stock" }
}

public enum Money {
    public static func format(minor: Int) -> String {
        let sign = minor < 0 ? "-" : ""
        let cents = abs(minor) % 100
        return "\(sign)$\(abs(minor) / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}

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
    /// The stock label's class beside `stock`, so that sold out and running low look different:
    /// `stock-out`, `stock-low` or `stock-in`.
    public var stockClass: String { stock == 0 ? "stock-out" : stock < 5 ? "stock-low" : "stock-in" }
    /// The price as a plain decimal, `12.50`, for schema.org's `price`.
    public var priceDecimal: String { Money.decimal(minor: priceMinor) }
    /// The ISO 4217 code of the price, for schema.org's `priceCurrency`.
    public var priceCurrency: String { Money.currencyCode }
    /// schema.org's availability for the stock: `https://schema.org/InStock` or `…/OutOfStock`.
    public var availabilityURL: String { inStock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock" }
}

public enum Money {
    /// The shop's one currency, as `format(minor:)` shows it (`$`).
    public static let currencyCode = "USD"

    /// `$12.50`
    public static func format(minor: Int) -> String {
        let sign = minor < 0 ? "-" : ""
        return "\(sign)$\(digits(abs(minor)))"
    }

    /// `12.50`: the amount as a plain decimal number, no currency sign, for machines (schema.org's `price`).
    public static func decimal(minor: Int) -> String {
        (minor < 0 ? "-" : "") + digits(abs(minor))
    }

    private static func digits(_ minor: Int) -> String {
        let cents = minor % 100
        return "\(minor / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}

public import TesseraViews

/// A product in the shop. Prices are integer minor units (cents): money is never a `Double`.
public struct Product: Sendable, Equatable, Codable {
    /// The product's number, stable for its life: its URL is made from it.
    public var id: Int
    /// The one category the product is listed under.
    public var categoryID: Int
    /// The name shown on cards, pages and orders; searched, with the summary.
    public var name: String
    /// One sentence for the card and the page's description; searched, with the name.
    public var summary: String
    /// The price in cents of `Money.currencyCode`; an order copies it, so a later change never alters one.
    public var priceMinor: Int
    /// Units left to sell; checkout takes them in the order's transaction, so it never goes below zero.
    public var stock: Int
    /// The image's path under `Public/`, fingerprinted by the asset map when a page links it.
    public var imagePath: String

    /// A product as a store reads it, or as seeds and tests make one.
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

/// A shelf of the catalog: every product is in exactly one, and the list filters by its slug.
public struct Category: Sendable, Equatable, Codable {
    /// The category's number, stable for its life.
    public var id: Int
    /// The category in URLs (`?category=kitchen`): lower case, stable, safe in a query string.
    public var slug: String
    /// The heading of its shelf and its link in the navigation.
    public var name: String

    /// A category as a store reads it, or as seeds and tests make one.
    public init(id: Int, slug: String, name: String) {
        self.id = id
        self.slug = slug
        self.name = name
    }
}

/// Display formatting lives with the model, not in templates or controllers.
extension Product {
    /// `$12.50`, or `12,50 $` on a German page.
    public var price: Price { Price(minor: priceMinor) }
    /// Whether the add-to-cart form is offered at all.
    public var inStock: Bool { stock > 0 }
    /// The words beside the stock, so that a shopper sees scarcity before the cart refuses.
    public var stockLabel: LocalizedText {
        stock == 0 ? Messages.stockSoldOut.text() : stock < 5 ? Messages.stockLow.text(count: stock) : Messages.stockIn.text()
    }
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

/// Money as text, in one place: prices are integer cents everywhere else, never `Double`.
public enum Money {
    /// The shop's one currency; each language writes it its own way (`$12.50`, `12,50 $`).
    public static let currencyCode = "USD"

    /// `12.50`: the amount as a plain decimal number, no currency sign, for machines (schema.org's `price`).
    public static func decimal(minor: Int) -> String {
        (minor < 0 ? "-" : "") + digits(abs(minor))
    }

    private static func digits(_ minor: Int) -> String {
        let cents = minor % 100
        return "\(minor / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}

import Foundation
import TesseraViews

struct Product {
    var id: Int
    var name: String
    var priceMinor: Int
    var inStock: Bool
    var price: String { "$\(priceMinor / 100).\(String(format: "%02d", priceMinor % 100))" }
}

struct Catalog {
    var products: [Product]
    var featured: Product?
    var showEmptyFeatured = false
    var hasMore = false
}

struct FilterSample {
    var name: String
    var blurb: String
    var when: Date
}

extension Filters {
    /// An app-defined filter, registered by extending `Filters`.
    static func shout(_ value: String) -> String { value.uppercased() + "!" }
}

public struct LayoutModel {
    public var siteName: String
    public var userName: String
}

struct ProductPage {
    var layout: LayoutModel
    var product: Product
}

/// The data-source style of seed 002: the view binds to a protocol, and domain models adopt it.
protocol OrderRowDisplayable {
    var orderID: Int { get }
    var statusLabel: String { get }
    var totalText: String { get }
}

struct Order {
    var id: Int
    var status: String
    var totalMinor: Int
}

extension Order: OrderRowDisplayable {
    var orderID: Int { id }
    var statusLabel: String { status.replacingOccurrences(of: "_", with: " ").capitalized }
    var totalText: String { "$\(totalMinor / 100)" }
}

import Catalog

/// The add-to-cart form: the product, the quantity typed, and what was wrong with it.
struct AddToCartModel: Sendable {
    var product: Product
    var quantity: String
    var error: String?
}

import Tessera

/// The catalog's routes, for links from anywhere.
public enum CatalogRoutes {
    public static let list = Route<NoParameters>("catalog.list", .get, "/")
    public static let product = Route<Int>("catalog.product", .get, "/products/{id}")
    public static let detail = Route<Int>("catalog.product.detail", .get, "/products/{id}/detail")
    public static let related = Route<Int>("catalog.product.related", .get, "/products/{id}/related")
    public static let sitemap = Route<NoParameters>("catalog.sitemap", .get, "/sitemap.xml")
}

/// The product page's extension points. Other modules provide them through the region registry;
/// the catalog never knows who does. A key nobody provides leaves its region out.
public enum CatalogRegions {
    /// The add-to-cart form, given the product.
    public static let addToCart = RegionKey<Product>("catalog.product.add-to-cart")
    /// "Your purchases of this product", given the product.
    public static let purchases = RegionKey<Product>("catalog.product.purchases")
}

extension Product {
    public var url: String { CatalogRoutes.product.path(id) }
}

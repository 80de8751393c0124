public import Tessera

/// The catalog's routes, for links from anywhere.
public enum CatalogRoutes {
    /// `/`: the product list; its query string carries the category, the search, the sort and the page.
    public static let list = Route<NoParameters>("catalog.list", .get, "/")
    /// `/products/{id}`: a product's page, a container of regions.
    public static let product = Route<Int>("catalog.product", .get, "/products/{id}")
    /// The product page's `detail` region alone, for live updates and scrapers.
    public static let detail = Route<Int>("catalog.product.detail", .get, "/products/{id}/detail")
    /// The product page's `related` region alone.
    public static let related = Route<Int>("catalog.product.related", .get, "/products/{id}/related")
    /// `/photos/{name}`: one variant of a product photo, kept by caches for good.
    public static let photo = Route<PhotoVariantName>("catalog.photo", .get, "/photos/{name}")
    /// `/sitemap.xml`: the sitemap, or an index of its parts (`?part=N`) when the products fill more than one.
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
    /// The product's page, for view models that link to it from other modules.
    public var url: String { CatalogRoutes.product.path(id) }
}

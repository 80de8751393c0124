public import Tessera

/// What the catalog's regions depend on, for live regions: a product changes when its stock,
/// price or text does. Public, so the modules that change stock (Orders, the back office)
/// publish the same topic the product page listens to.
public enum CatalogTopics {
    /// One product, by id.
    public static let product = TopicFamily<Int>("product")
}

import Foundation

/// The catalog's rules: how listings are paged, sorted and searched, and what a bad request is.
/// Controllers call it; it talks to a ``CatalogStore``.
public struct CatalogService: Sendable {
    public static let pageSize = 12
    let store: any CatalogStore

    public init(store: any CatalogStore) {
        self.store = store
    }

    public struct Listing: Sendable {
        public var products: [Product]
        public var total: Int
        public var query: ProductQuery
        public var category: Category?
        public var categories: [Category]
        public var pageCount: Int { max(1, (total + query.pageSize - 1) / query.pageSize) }
    }

    /// The listing for the raw query-string values. A page that is not a positive number, an
    /// unknown sort or an unknown category is a client error, not a guess.
    public func listing(category slug: String?, search: String?, sort: String?, page: String?) async throws(CatalogError) -> Listing {
        let categories: [Category]
        do { categories = try await store.categories() } catch { throw .storage(error) }
        var query = ProductQuery(pageSize: Self.pageSize)
        var category: Category?
        if let slug, !slug.isEmpty {
            guard let found = categories.first(where: { $0.slug == slug }) else { throw .notFound("There is no category “\(slug)”.") }
            category = found
            query.categoryID = found.id
        }
        if let sort, !sort.isEmpty {
            guard let parsed = ProductQuery.Sort(rawValue: sort) else { throw .invalid("Sort by relevance, name, price or price-desc.") }
            query.sort = parsed
        }
        if let page, !page.isEmpty {
            guard let number = Int(page), number >= 1, number <= 10_000 else { throw .invalid("The page must be a number from 1.") }
            query.page = number
        }
        let trimmed = search?.trimmingCharacters(in: .whitespaces) ?? ""
        guard trimmed.count <= 100 else { throw .invalid("Searches are at most 100 characters.") }
        query.search = trimmed.isEmpty ? nil : trimmed
        // A search lists its best matches first unless asked otherwise; relevance means nothing
        // without one.
        if sort == nil || sort?.isEmpty == true { query.sort = query.search == nil ? .name : .relevance }
        if query.sort == .relevance, query.search == nil { query.sort = .name }
        let result: (products: [Product], total: Int)
        do { result = try await store.products(matching: query) } catch { throw .storage(error) }
        let listing = Listing(products: result.products, total: result.total, query: query, category: category, categories: categories)
        if query.page > listing.pageCount { throw .notFound("There is no page \(query.page).") }
        return listing
    }

    public func product(id: Int) async throws(CatalogError) -> Product {
        guard let product = try await existingProduct(id: id) else { throw .notFound("There is no product \(id).") }
        return product
    }

    /// The product, or `nil` when there is none. Unlike `try? product(id:)`, a storage failure
    /// still throws, so that it is answered as the server's fault and not as "no such product".
    public func existingProduct(id: Int) async throws(CatalogError) -> Product? {
        do { return try await store.product(id: id) } catch { throw .storage(error) }
    }

    /// The pages a search engine should know: every category and every product.
    public func sitemap() async throws -> (categories: [Category], productIDs: [Int]) {
        (try await store.categories(), try await store.productIDs())
    }

    public func related(to product: Product) async throws -> [Product] {
        try await store.related(to: product, limit: 4)
    }
}

import Foundation
public import Tessera
import TesseraViews

/// The catalog's rules: how listings are paged, sorted and searched, and what a bad request is.
/// Controllers call it; it talks to a ``CatalogStore``.
public struct CatalogService: Sendable {
    /// Products per page of the list; keyset links and the page count are computed from it.
    public static let pageSize = 12
    let store: any CatalogStore
    /// Where changes to products are published once committed (``CatalogTopics``).
    let topics: any TopicPublisher
    /// Products in one part of the sitemap: the protocol allows 50,000 URLs a file, each product
    /// is listed once per language (two in the shop), and the first part also lists the home
    /// page and the categories.
    public let sitemapPartSize: Int

    /// The catalog over `store`, publishing committed changes to `topics` so that live pages follow them.
    public init(store: any CatalogStore, topics: any TopicPublisher, sitemapPartSize: Int = 22_000) {
        self.store = store
        self.topics = topics
        self.sitemapPartSize = sitemapPartSize
    }

    /// One page of the list as the controller renders it: the products and everything its links need.
    public struct Listing: Sendable {
        /// The page's products, in the listing's order.
        public var products: [Product]
        /// How many products the listing has: for a search with more than
        /// ``SearchCandidates/limit`` matches, that limit (see ``matchesMore``).
        public var total: Int
        /// Whether the search matched more products than it lists: the best-selling
        /// ``SearchCandidates/limit`` of them are listed, and a page says "1,000+".
        public var matchesMore: Bool = false
        /// The query as the service understood it, so that links keep the category, search and sort.
        public var query: ProductQuery
        /// The category the list is filtered by, if any, for the heading and the canonical URL.
        public var category: Category?
        /// Every category, for the navigation; kept in memory by the store until a write changes them.
        public var categories: [Category]
        /// How many pages the listing fills, at least one, for "Page 3 of 834" and the Last link.
        public var pageCount: Int { query.pageCount(forTotal: total) }
    }

    /// The first pages a listing may reach by offset, without a cursor; links to later ones name
    /// the product they start after or end before (see ``ProductQuery/Start``).
    public static let pagesByOffset = 3

    /// The highest page number a URL may name: a keyset page's number is only its label, and a
    /// search by relevance ranks every match whatever its offset, so this only bounds the
    /// number; a page past the listing's end is a 404.
    static let highestPage = 1_000_000

    /// The listing for the raw query-string values. A page that is not a positive number (or
    /// `last`), an unknown sort or category, or a cursor that is not a product id is a client
    /// error, not a guess; a cursor whose product is gone is a page that no longer exists.
    public func listing(
        category slug: String?, search: String?, sort: String?, page: String?,
        after: String? = nil, before: String? = nil, within budget: DatabaseBudget
    ) async throws(CatalogError) -> Listing {
        let categories: [Category]
        do { categories = try await store.categories(within: budget) } catch { throw .storage(error) }
        var query = ProductQuery(pageSize: Self.pageSize)
        var category: Category?
        if let slug, !slug.isEmpty {
            guard let found = categories.first(where: { $0.slug == slug }) else { throw .notFound(Messages.errorNoCategory.text(["slug": slug])) }
            category = found
            query.categoryID = found.id
        }
        if let sort, !sort.isEmpty {
            guard let parsed = ProductQuery.Sort(rawValue: sort) else { throw .invalid(Messages.errorSort.text()) }
            query.sort = parsed
        }
        var toLastPage = false
        if let page, !page.isEmpty {
            if page == "last" {
                toLastPage = true
            } else {
                guard let number = Int(page), number >= 1, number <= Self.highestPage else { throw .invalid(Messages.errorPageNumber.text()) }
                query.page = number
            }
        }
        let trimmed = search?.trimmingCharacters(in: .whitespaces) ?? ""
        guard trimmed.count <= 100 else { throw .invalid(Messages.errorSearchTooLong.text()) }
        query.search = trimmed.isEmpty ? nil : trimmed
        // A search lists its best matches first unless asked otherwise; relevance means nothing
        // without one.
        if sort == nil || sort?.isEmpty == true { query.sort = query.search == nil ? .name : .relevance }
        if query.sort == .relevance, query.search == nil { query.sort = .name }
        query.start = try Self.start(after: after, before: before, toLastPage: toLastPage, page: query.page, byRelevance: query.sort == .relevance)
        var result: (products: [Product], total: Int, matchesMore: Bool)
        do { result = try await store.products(matching: query, within: budget) } catch { throw .storage(error) }
        var listing = Listing(
            products: result.products, total: result.total, matchesMore: result.matchesMore, query: query, category: category,
            categories: categories)
        if toLastPage {
            listing.query.page = listing.pageCount
            // Relevance has no keyset: its last page is an offset, known once the total is.
            if query.sort == .relevance, listing.pageCount > 1 {
                do { result = try await store.products(matching: listing.query, within: budget) } catch { throw .storage(error) }
                listing.products = result.products
            }
        }
        if listing.query.page > listing.pageCount {
            // A cursor's page number is a label: products removed since the link was made may
            // leave it past the end; the page itself is still right.
            guard query.start != .offset else { throw .notFound(Messages.errorNoPage.text(["page": listing.query.page])) }
            listing.query.page = listing.pageCount
        }
        if listing.products.isEmpty, query.start != .offset, listing.total > 0 {
            throw .notFound(Messages.errorListingGone.text())
        }
        return listing
    }

    /// Where the page starts, from the query string's `after`, `before` and `page`.
    private static func start(
        after: String?, before: String?, toLastPage: Bool, page: Int, byRelevance: Bool
    ) throws(CatalogError) -> ProductQuery.Start {
        func productID(_ value: String?) throws(CatalogError) -> Int? {
            guard let value, !value.isEmpty else { return nil }
            guard let id = Int(value), id >= 1 else { throw .invalid(Messages.errorPageAnchor.text()) }
            return id
        }
        let after = try productID(after), before = try productID(before)
        if after != nil || before != nil {
            guard after == nil || before == nil else { throw .invalid(Messages.errorPageBoth.text()) }
            guard !byRelevance else { throw .invalid(Messages.errorPageRelevance.text()) }
            guard !toLastPage, page >= 2 else { throw .invalid(Messages.errorPageAnchorNumber.text()) }
            return after.map { .after(productID: $0) } ?? .before(productID: before!)
        }
        if toLastPage { return byRelevance ? .offset : .end }
        guard byRelevance || page <= pagesByOffset else {
            throw .invalid(Messages.errorPageBeyond.text(["last": pagesByOffset]))
        }
        return .offset
    }

    /// The store's work beside the server, until the task is cancelled (``CatalogMaintenance``
    /// runs it).
    public func maintain() async {
        await store.maintain()
    }

    /// The product, or a 404 that names it: what a product page and its regions start from.
    public func product(id: Int, within budget: DatabaseBudget) async throws(CatalogError) -> Product {
        guard let product = try await existingProduct(id: id, within: budget) else { throw .notFound(Messages.errorNoProduct.text(["id": id])) }
        return product
    }

    /// One page of every product, by id, for staff: `pageSize` of them, and whether more follow.
    public func productsByID(
        page: Int, pageSize: Int = 20, within budget: DatabaseBudget
    ) async throws(CatalogError) -> (products: [Product], hasMore: Bool) {
        do {
            let ids = try await store.productIDs(offset: (page - 1) * pageSize, limit: pageSize + 1, within: budget)
            var products: [Product] = []
            for id in ids.prefix(pageSize) {
                if let product = try await store.product(id: id, within: budget) { products.append(product) }
            }
            return (products, ids.count > pageSize)
        } catch {
            throw .storage(error)
        }
    }

    /// Sets a product's stock and price (staff's back office checked both) if the stock is still
    /// `expectedStock`, the one staff saw: a sale or a cancellation in between is a conflict,
    /// never overwritten. Then tells every open page showing the product.
    public func adjust(
        productID: Int, stock: Int, priceMinor: Int, expectedStock: Int, within budget: DatabaseBudget
    ) async throws(CatalogError) -> Product {
        let outcome: ProductAdjustment
        do {
            outcome = try await store.setStockAndPrice(
                productID: productID, stock: stock, priceMinor: priceMinor, expectedStock: expectedStock, within: budget)
        } catch {
            throw .storage(error)
        }
        switch outcome {
        case .adjusted(let product):
            topics.publish(CatalogTopics.product(productID))
            return product
        case .stockMoved(let current):
            throw .conflict(Messages.errorStockMoved.text(["expected": expectedStock, "current": current]))
        case .noSuchProduct:
            throw .notFound(Messages.errorNoProduct.text(["id": productID]))
        }
    }

    /// The product, or `nil` when there is none. Unlike `try? product(id:)`, a storage failure
    /// still throws, so that it is answered as the server's fault and not as "no such product".
    public func existingProduct(id: Int, within budget: DatabaseBudget) async throws(CatalogError) -> Product? {
        do { return try await store.product(id: id, within: budget) } catch { throw .storage(error) }
    }

    /// How many parts the sitemap has: one until the catalog outgrows a file.
    public func sitemapPartCount(within budget: DatabaseBudget) async throws(CatalogError) -> Int {
        let count: Int
        do { count = try await store.productCount(within: budget) } catch { throw .storage(error) }
        return max(1, (count + sitemapPartSize - 1) / sitemapPartSize)
    }

    /// The pages a search engine should know, part by part: the categories in the first part,
    /// and every product in one part. A part that does not exist is a 404.
    public func sitemap(part: Int, within budget: DatabaseBudget) async throws(CatalogError) -> (categories: [Category], productIDs: [Int]) {
        guard part >= 1, part <= (try await sitemapPartCount(within: budget)) else {
            throw .notFound(Messages.errorNoSitemapPart.text(["part": part]))
        }
        do {
            return (
                part == 1 ? try await store.categories(within: budget) : [],
                try await store.productIDs(offset: (part - 1) * sitemapPartSize, limit: sitemapPartSize, within: budget)
            )
        } catch { throw .storage(error) }
    }

    /// Up to four other products of the same category, for the page's `related` region.
    public func related(to product: Product, within budget: DatabaseBudget) async throws -> [Product] {
        try await store.related(to: product, limit: 4, within: budget)
    }
}

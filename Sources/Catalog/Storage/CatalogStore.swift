public import Tessera

/// Where products live. The services talk to this protocol only, so a PostgreSQL store can be
/// added without touching services or controllers.
public protocol CatalogStore: Sendable {
    func categories(within budget: DatabaseBudget) async throws -> [Category]
    func product(id: Int, within budget: DatabaseBudget) async throws -> Product?

    /// Sets a product's stock and price if its stock is still `expectedStock` (what staff saw):
    /// checkouts and cancellations that moved it meanwhile are never overwritten.
    func setStockAndPrice(
        productID: Int, stock: Int, priceMinor: Int, expectedStock: Int, within budget: DatabaseBudget
    ) async throws -> ProductAdjustment
    /// One page of products matching `query`, and how many match in all. A search with more
    /// than ``SearchCandidates/limit`` matches lists only that many, the best-selling ones:
    /// its total is then the limit, and `matchesMore` is true.
    func products(matching query: ProductQuery, within budget: DatabaseBudget) async throws -> (products: [Product], total: Int, matchesMore: Bool)
    func related(to product: Product, limit: Int, within budget: DatabaseBudget) async throws -> [Product]
    /// How many products there are.
    func productCount(within budget: DatabaseBudget) async throws -> Int
    /// Product ids in order, `limit` of them after the first `offset`: a part of the sitemap.
    func productIDs(offset: Int, limit: Int, within budget: DatabaseBudget) async throws -> [Int]
    /// Work the store does beside the server until the task is cancelled, such as putting the
    /// search order back in step with sales; a store with none returns at once.
    func maintain() async
}

/// A listing request, already validated by the service.
/// What became of a change of stock and price.
public enum ProductAdjustment: Sendable, Equatable {
    case adjusted(Product)
    /// The stock is no longer what the change expected; it is this now.
    case stockMoved(to: Int)
    case noSuchProduct
}

/// What a listing asks the store for, already checked by the service: a store never sees a bad page or sort.
public struct ProductQuery: Sendable, Equatable {
    /// The orders a list can be sorted in; the raw values are the `?sort=` values in URLs.
    public enum Sort: String, Sendable, CaseIterable {
        /// Best matches first: a search's default order. Without a search, by name.
        case relevance
        /// By name, A to Z: the list's default.
        case name
        /// Cheapest first.
        case priceAscending = "price"
        /// Dearest first.
        case priceDescending = "price-desc"
    }

    /// Where a page starts. Sorted listings page by keyset: a link to the next page names the
    /// last product of this one, and the store reads on from it through the sort's index, as
    /// fast on page 8,000 as on page 2. An offset is for the first pages (what a visitor types)
    /// and for searches by relevance, which FTS5 ranks in full anyway.
    public enum Start: Sendable, Equatable {
        /// Skip `(page - 1) * pageSize` rows.
        case offset
        /// The page of products right after this one, in the listing's order.
        case after(productID: Int)
        /// The page of products right before this one.
        case before(productID: Int)
        /// The last page.
        case end
    }

    /// Only this category's products; `nil` for all.
    public var categoryID: Int?
    /// Words matched against names and summaries, each as a prefix (`lam` finds lamps), all of
    /// them required; anything else a visitor types is just text, never SQL or FTS syntax.
    public var search: String?
    /// The listing's order; keyset pages follow its index.
    public var sort: Sort
    /// Where the page starts: an offset, or a product to read on from.
    public var start: Start
    /// The page's number: with `.offset`, where it starts; otherwise its label.
    public var page: Int
    /// Products per page; `CatalogService.pageSize` unless a test asks for fewer.
    public var pageSize: Int

    /// How many pages `total` products fill: at least one, so an empty listing is a page.
    public func pageCount(forTotal total: Int) -> Int {
        max(1, (total + pageSize - 1) / pageSize)
    }

    /// A query; the defaults are the first page of every product by name.
    public init(categoryID: Int? = nil, search: String? = nil, sort: Sort = .name, start: Start = .offset, page: Int = 1, pageSize: Int = 12) {
        self.categoryID = categoryID
        self.search = search
        self.sort = sort
        self.start = start
        self.page = page
        self.pageSize = pageSize
    }
}

/// How a search is bounded, on every store: a search with at most ``limit`` matches lists and
/// ranks all of them (by relevance: bm25 on SQLite, `ts_rank` on PostgreSQL); one with more
/// lists only the ``limit`` best-selling matches, and ranks those among themselves. Ranking
/// costs per match, so without a bound a common word in a large catalog costs in proportion to
/// the catalog; with it, at most ``limit`` matches are ever ranked. The page then says
/// "1,000+ results". Meilisearch's bucket sort works the same way: popularity first,
/// relevance within.
public enum SearchCandidates {
    /// The most matches a search lists and ranks.
    public static let limit = 1_000
}

import Tessera

/// What the list template shows, already worked out: links, labels, flags.
struct ProductListPage: Sendable {
    struct Link: Sendable {
        var label: String
        var url: String
        var isCurrent: Bool
    }

    var title: String
    var heading: String
    var search: String
    var summary: String
    var products: [Product]
    var categories: [Link]
    var sorts: [Link]
    var pages: [Link]
    var previousURL: String?
    var nextURL: String?
    var isEmpty: Bool
    /// The listing without its sort: the one URL search engines should keep for it.
    var canonicalPath: String
    /// For `<meta name="description">`.
    var description: String

    /// The listing of one category.
    static func categoryPath(_ slug: String) -> String {
        CatalogRoutes.list.path + "?category=" + URLEncoding.queryValue(slug)
    }

    init(_ listing: CatalogService.Listing) {
        let query = listing.query
        let defaultSort: ProductQuery.Sort = query.search == nil ? .name : .relevance
        func url(category: String?? = .none, sort: ProductQuery.Sort? = nil, page: Int? = nil) -> String {
            var items: [String] = []
            let categorySlug = category ?? listing.category?.slug
            if let categorySlug { items.append("category=" + URLEncoding.queryValue(categorySlug)) }
            if let search = query.search { items.append("q=" + URLEncoding.queryValue(search)) }
            let sortValue = sort ?? query.sort
            if sortValue != defaultSort { items.append("sort=" + sortValue.rawValue) }
            if let page, page > 1 { items.append("page=\(page)") }
            return CatalogRoutes.list.path + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        }
        let shelf = listing.category?.name ?? "All products"
        // A search says what was searched for, and where: “lamp”, or “lamp” in Lighting; an
        // empty result repeats it.
        let none: String
        if let search = query.search {
            let place = listing.category.map { " in \($0.name)" } ?? ""
            heading = "Search results for “\(search)”\(place)"
            title = "“\(search)” · \(shelf)"
            none = "No products match “\(search)”."
        } else {
            heading = shelf
            title = shelf
            none = "No products match."
        }
        search = query.search ?? ""
        products = listing.products
        isEmpty = listing.products.isEmpty
        let first = (query.page - 1) * query.pageSize + 1
        summary = listing.total == 0 ? none
            : "Showing \(first)–\(first + listing.products.count - 1) of \(listing.total) products"
        categories = [Link(label: "All", url: url(category: .some(nil)), isCurrent: listing.category == nil)]
            + listing.categories.map { Link(label: $0.name, url: url(category: .some($0.slug)), isCurrent: $0.id == listing.category?.id) }
        let orders: [(ProductQuery.Sort, String)] = (query.search == nil ? [] : [(.relevance, "Best match")])
            + [(.name, "Name"), (.priceAscending, "Price, low to high"), (.priceDescending, "Price, high to low")]
        sorts = orders.map { Link(label: $0.1, url: url(sort: $0.0), isCurrent: $0.0 == query.sort) }
        // The first and last pages and two either side of this one: a large catalog has
        // thousands of pages, and a link to each would be most of the page.
        let shown = Set([1, listing.pageCount] + Array(max(1, query.page - 2)...min(listing.pageCount, query.page + 2))).sorted()
        pages = listing.pageCount > 1 ? shown.map { Link(label: "\($0)", url: url(page: $0), isCurrent: $0 == query.page) } : []
        previousURL = query.page > 1 ? url(page: query.page - 1) : nil
        nextURL = query.page < listing.pageCount ? url(page: query.page + 1) : nil
        canonicalPath = url(sort: defaultSort, page: query.page)
        let count = listing.total == 1 ? "1 product" : "\(listing.total) products"
        description = query.search.map { "\(count) matching “\($0)” at Tessera Shop." }
            ?? "\(shelf) at Tessera Shop: \(count), with prices and stock."
    }
}

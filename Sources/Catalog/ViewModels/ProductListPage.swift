import Tessera
import TesseraViews

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
    /// The products as cards, with their photos.
    var cards: [ProductCard] = []
    var categories: [Link]
    var sorts: [Link]
    /// “Page 3 of 834”, or nothing for a listing of one page.
    var position: String?
    var firstURL: String?
    var previousURL: String?
    var nextURL: String?
    var lastURL: String?
    var isEmpty: Bool
    /// The listing without its sort: the one URL search engines should keep for it.
    var canonicalPath: String
    /// For `<meta name="description">`.
    var description: String

    /// The listing of one category.
    static func categoryPath(_ slug: String) -> String {
        CatalogRoutes.list.path + "?category=" + URLEncoding.queryValue(slug)
    }

    /// The page for `listing`, its words in `language` (category names are the shop's data,
    /// and stay as the shop wrote them).
    init(_ listing: CatalogService.Listing, language: Language) {
        func text(
            _ message: LocalizedMessage, count: Int? = nil, _ arguments: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = [:]
        ) -> String {
            message.string(in: language, count: count, arguments)
        }
        let query = listing.query
        let defaultSort: ProductQuery.Sort = query.search == nil ? .name : .relevance
        /// `page` is a number or `last`; `start` names the product a keyset page starts after
        /// or ends before.
        func url(category: String?? = .none, sort: ProductQuery.Sort? = nil, page: String? = nil, start: ProductQuery.Start = .offset) -> String {
            var items: [String] = []
            let categorySlug = category ?? listing.category?.slug
            if let categorySlug { items.append("category=" + URLEncoding.queryValue(categorySlug)) }
            if let search = query.search { items.append("q=" + URLEncoding.queryValue(search)) }
            let sortValue = sort ?? query.sort
            if sortValue != defaultSort { items.append("sort=" + sortValue.rawValue) }
            if let page, page != "1" { items.append("page=" + page) }
            switch start {
            case .after(let id): items.append("after=\(id)")
            case .before(let id): items.append("before=\(id)")
            case .offset, .end: break
            }
            return CatalogRoutes.list.path + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        }
        let shelf = listing.category?.name ?? text(Messages.listAllProducts)
        // A search says what was searched for, and where: “lamp”, or “lamp” in Lighting; an
        // empty result repeats it.
        let none: String
        if let search = query.search {
            heading =
                listing.category.map { text(Messages.listSearchResultsIn, ["search": search, "category": $0.name]) }
                ?? text(Messages.listSearchResults, ["search": search])
            title = text(Messages.listSearchTitle, ["search": search, "shelf": shelf])
            none = text(Messages.listNoMatchFor, ["search": search])
        } else {
            heading = shelf
            title = shelf
            none = text(Messages.listNoMatch)
        }
        search = query.search ?? ""
        products = listing.products
        isEmpty = listing.products.isEmpty
        let first = (query.page - 1) * query.pageSize + 1
        let last = first + listing.products.count - 1
        summary =
            listing.total == 0
            ? none
            : listing.matchesMore
                ? text(
                    Messages.listShowingMore,
                    [
                        "first": LocalizedNumber(first), "last": LocalizedNumber(last),
                        "count": LocalizedNumber(SearchCandidates.limit),
                    ])
                : text(Messages.listShowing, count: listing.total, ["first": LocalizedNumber(first), "last": LocalizedNumber(last)])
        categories =
            [Link(label: text(Messages.listAll), url: url(category: .some(nil)), isCurrent: listing.category == nil)]
            + listing.categories.map { Link(label: $0.name, url: url(category: .some($0.slug)), isCurrent: $0.id == listing.category?.id) }
        let orders: [(ProductQuery.Sort, LocalizedMessage)] =
            (query.search == nil ? [] : [(.relevance, Messages.listSortRelevance)])
            + [(.name, Messages.listSortName), (.priceAscending, Messages.listSortPrice), (.priceDescending, Messages.listSortPriceDesc)]
        sorts = orders.map { Link(label: text($0.1), url: url(sort: $0.0), isCurrent: $0.0 == query.sort) }
        // First, Previous, Next and Last, as a keyset allows: the next page starts after this
        // page's last product and the previous one ends before its first, whatever the page's
        // number. Searches by relevance and the first pages go by number.
        let page = query.page, pageCount = listing.pageCount
        let byNumber = query.sort == .relevance
        func numbered(_ number: Int) -> String? { byNumber || number <= CatalogService.pagesByOffset ? "\(number)" : nil }
        position = pageCount > 1 ? text(Messages.listPageOf, ["page": LocalizedNumber(page), "pages": LocalizedNumber(pageCount)]) : nil
        firstURL = page > 1 ? url() : nil
        lastURL = page < pageCount ? url(page: numbered(pageCount) ?? "last") : nil
        if page > 1, let firstProduct = listing.products.first {
            previousURL = page == 2 ? url() : url(page: "\(page - 1)", start: byNumber ? .offset : .before(productID: firstProduct.id))
        }
        if page < pageCount, let lastProduct = listing.products.last {
            nextURL = url(page: "\(page + 1)", start: byNumber ? .offset : .after(productID: lastProduct.id))
        }
        // Search engines keep one URL per page: without the sort when the page needs no cursor.
        canonicalPath =
            numbered(page).map { url(sort: defaultSort, page: $0) }
            ?? (page == pageCount ? url(page: "last") : url(page: "\(page)", start: query.start))
        let count =
            listing.matchesMore
            ? text(Messages.listProductsMore, ["count": LocalizedNumber(SearchCandidates.limit)])
            : text(Messages.listProducts, count: listing.total)
        description =
            query.search.map { text(Messages.listDescriptionSearch, ["products": count, "search": $0]) }
            ?? text(Messages.listDescription, ["shelf": shelf, "products": count])
    }
}

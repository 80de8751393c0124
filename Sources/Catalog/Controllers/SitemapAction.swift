import Tessera

/// `/sitemap.xml`: the home page, each category's listing and each product page, as absolute
/// URLs (the sitemap protocol requires them), so search engines find every product without
/// following the pagination.
struct SitemapAction {
    let catalog: CatalogService

    func register(in routes: inout RouterBuilder) {
        let catalog = self.catalog
        routes.action(CatalogRoutes.sitemap) { _, context in
            let (categories, productIDs) = try await catalog.sitemap()
            var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            xml += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
            let paths = [CatalogRoutes.list.path] + categories.map { ProductListPage.categoryPath($0.slug) } + productIDs.map(CatalogRoutes.product.path)
            for path in paths {
                xml += "<url><loc>\(Self.escaped(context.absoluteURL(for: path)))</loc></url>\n"
            }
            xml += "</urlset>\n"
            return Response(headers: [.contentType: "application/xml; charset=utf-8"], body: .bytes(Array(xml.utf8)))
        }
    }

    /// XML text: `&`, `<` and `>` escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

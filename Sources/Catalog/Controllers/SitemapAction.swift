import Foundation
import Tessera
import TesseraViews

/// `/sitemap.xml`: the home page, each category's listing and each product page, as absolute
/// URLs (the sitemap protocol requires them), so search engines find every product without
/// following the pagination.
///
/// In an app with several languages (``LanguageMiddleware``), each page is listed once per
/// language, `?lang=de`, with every language's URL as an `hreflang` alternate and the URL
/// without the parameter as `x-default`, as search engines ask of translated pages.
///
/// The protocol allows 50,000 URLs a file. A catalog larger than a part
/// (``CatalogService/sitemapPartSize``) gets a sitemap index at `/sitemap.xml` that lists its
/// parts, `/sitemap.xml?part=1` and on.
struct SitemapAction {
    let catalog: CatalogService

    func register(in routes: inout RouterBuilder) {
        let catalog = self.catalog
        routes.action(CatalogRoutes.sitemap) { _, context in
            let part: Int
            switch context.request.query["part"] {
            case nil:
                let parts = try await catalog.sitemapPartCount(within: context.databaseBudget)
                if parts > 1 { return Self.xml(Self.index(parts: parts, in: context)) }
                part = 1
            case let value?:
                guard let number = Int(value) else { throw HTTPError(.badRequest, Messages.errorSitemapPart.text()) }
                part = number
            }
            let (categories, productIDs) = try await catalog.sitemap(part: part, within: context.databaseBudget)
            let paths =
                (part == 1 ? [CatalogRoutes.list.path] + categories.map { ProductListPage.categoryPath($0.slug) } : [])
                + productIDs.map(CatalogRoutes.product.path)
            var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            xml += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">"# + "\n"
            let choice = context.languageChoice
            for path in paths {
                guard let choice, choice.available.count > 1 else {
                    xml += "<url><loc>\(Self.escaped(context.absoluteURL(for: path)))</loc></url>\n"
                    continue
                }
                var alternates = choice.available.map {
                    #"<xhtml:link rel="alternate" hreflang="\#($0.code)" href="\#(Self.escaped(context.absoluteURL(for: choice.url(for: path, in: $0))))"/>"#
                }
                alternates.append(#"<xhtml:link rel="alternate" hreflang="x-default" href="\#(Self.escaped(context.absoluteURL(for: path)))"/>"#)
                for language in choice.available {
                    xml +=
                        "<url><loc>\(Self.escaped(context.absoluteURL(for: choice.url(for: path, in: language))))</loc>" + alternates.joined()
                        + "</url>\n"
                }
            }
            xml += "</urlset>\n"
            return Self.xml(xml)
        }
    }

    static func index(parts: Int, in context: RequestContext) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        for part in 1...parts {
            let url = context.absoluteURL(for: CatalogRoutes.sitemap.path + "?part=\(part)")
            xml += "<sitemap><loc>\(escaped(url))</loc></sitemap>\n"
        }
        return xml + "</sitemapindex>\n"
    }

    static func xml(_ text: String) -> Response {
        Response(headers: [.contentType: "application/xml; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// XML text: `&`, `<` and `>` escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

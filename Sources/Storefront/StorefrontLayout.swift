import Accounts
import Orders
import Tessera
import TesseraViews

/// The shop's layout: navigation with the signed-in user and the cart count, the flash message,
/// styles, footer.
struct StorefrontLayout: PageLayout {
    /// Everything it shows comes from the request and the session.
    var freshness: PageFreshness { .unchanging }

    func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        let choice = context.languageChoice
        // A URL that names its language is its own page for search engines: its canonical URL
        // keeps the language, and every language's URL is an `hreflang` alternate.
        let canonicalPath = page.canonicalPath.map { path in
            choice.map { $0.source == .url ? $0.url(for: path, in: $0.current) : path } ?? path
        }
        let site = context.site
        var alternates: [SiteLayout.Alternate] = []
        if let path = page.canonicalPath, let choice {
            alternates = choice.available.map { .init(code: $0.code, url: site.absolute(choice.url(for: path, in: $0))) }
            alternates.append(.init(code: "x-default", url: site.absolute(path)))
        }
        return context.render(
            LayoutView.self,
            SiteLayout(
                title: page.title,
                description: page.description ?? context.localized(Messages.siteDescription),
                languageCode: context.language.code,
                canonicalURL: canonicalPath.map { site.absolute($0) },
                alternates: alternates,
                languageLinks: (choice?.available ?? []).map {
                    .init(code: $0.code, name: $0.name, url: choice?.url(in: $0) ?? "/", isCurrent: $0 == context.language)
                },
                body: page.body,
                userName: context.shopper?.name,
                isStaff: context.shopper?.isStaff == true,
                cartCount: CartSession.itemCount(in: context),
                flash: context.takeFlash()
            ))
    }
}

/// What the layout template shows.
struct SiteLayout: Sendable {
    /// The same page in another language, for `<link rel="alternate" hreflang>`.
    struct Alternate: Sendable {
        var code: String
        var url: String
    }

    /// A link of the language switcher: the same page in that language, named in it.
    struct LanguageLink: Sendable {
        var code: String
        var name: String
        var url: String
        var isCurrent: Bool
    }

    var title: String
    var description: String
    /// `<html lang>`.
    var languageCode: String
    var canonicalURL: String?
    var alternates: [Alternate]
    var languageLinks: [LanguageLink]
    var body: HTMLOutput
    var userName: String?
    /// Staff see the back office in the navigation.
    var isStaff: Bool
    var cartCount: Int
    var flash: String?
}

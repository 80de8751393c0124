import Accounts
import Orders
import Tessera
import TesseraViews

/// The shop's layout: navigation with the signed-in user and the cart count, the flash message,
/// styles, footer.
struct StorefrontLayout: PageLayout {
    func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        context.render(LayoutView.self, SiteLayout(
            title: page.title,
            description: page.description ?? SiteLayout.defaultDescription,
            canonicalURL: page.canonicalPath.map { context.absoluteURL(for: $0) },
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
    static let defaultDescription = "Tessera Shop: lamps, kitchenware, furniture and more, with prices and stock on every page."

    var title: String
    var description: String
    var canonicalURL: String?
    var body: HTMLOutput
    var userName: String?
    /// Staff see the back office in the navigation.
    var isStaff: Bool
    var cartCount: Int
    var flash: String?
}

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
            body: page.body,
            userName: context.shopper?.name,
            cartCount: CartSession.itemCount(in: context),
            flash: context.takeFlash()
        ))
    }
}

/// What the layout template shows.
struct SiteLayout: Sendable {
    var title: String
    var body: HTMLOutput
    var userName: String?
    var cartCount: Int
    var flash: String?
}

import Accounts
import Tessera
import TesseraViews

/// The shop's layout: navigation with the signed-in user, the flash message, styles, footer.
struct StorefrontLayout: PageLayout {
    func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        LayoutView.render(SiteLayout(
            title: page.title,
            body: page.body,
            userName: SignedIn.userName(in: context),
            flash: context.takeFlash()
        ))
    }
}

/// What the layout template shows.
struct SiteLayout: Sendable {
    var title: String
    var body: HTMLOutput
    var userName: String?
    var flash: String?
}

import Tessera
import TesseraViews

/// The shop's layout: header navigation, styles, the region refresh script, footer.
struct StorefrontLayout: PageLayout {
    func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        LayoutView.render(LayoutContent(title: page.title, body: page.body))
    }
}

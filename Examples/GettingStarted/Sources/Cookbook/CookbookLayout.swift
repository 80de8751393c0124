public import Tessera
import TesseraViews

/// The app's layout: every page and error page goes through it, so no module knows it.
public struct CookbookLayout: PageLayout {
    public init() {}

    /// It shows nothing but the page and its language.
    public var freshness: PageFreshness { .unchanging }

    public func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        context.render(LayoutView.self, LayoutContent(title: page.title, body: page.body, languageCode: context.language.code))
    }
}

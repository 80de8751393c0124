public import TesseraViews

/// Wraps a page in the site's layout. The app provides one (its navigation, its styles); pages
/// and error pages of every module go through it, so modules never need to know it.
public protocol PageLayout: Sendable {
    /// Must keep the region slots of `page.body`, which it does by writing the body with
    /// `{{ page.body }}` in a template, or `output.write(page.body)`. Render the layout's view
    /// with `context.render(View.self, model)`, so that its forms (sign out, say) carry the
    /// request's CSRF token.
    func render(_ page: Page, in context: RequestContext) -> HTMLOutput

    /// What the layout shows depends on, besides the request and the session (a menu read from
    /// a service, say): pages are validated (``PageValidators``) only once it is declared.
    var freshness: PageFreshness { get }
}

extension PageLayout {
    /// Not declared: no page is validated.
    public var freshness: PageFreshness { .undeclared }
}

/// What a layout template renders: the page's title and body.
public struct LayoutContent: Sendable {
    /// The page's title, for `<title>`.
    public var title: String
    /// The page's body, region slots included: write it as it is.
    public var body: HTMLOutput
    /// `<html lang>`: the request's language.
    public var languageCode: String

    /// The content of a layout, from the page's title and body.
    public init(title: String, body: HTMLOutput, languageCode: String = "en") {
        self.title = title
        self.body = body
        self.languageCode = languageCode
    }
}

/// A plain HTML5 page, for apps that do not bring their own layout yet.
public struct BasicLayout: PageLayout {
    /// The plain layout; it needs nothing.
    public init() {}

    /// Nothing but the page and its language.
    public var freshness: PageFreshness { .unchanging }

    /// The page's title and body in a bare HTML5 document.
    public func render(_ page: Page, in context: RequestContext) -> HTMLOutput {
        context.render(BasicLayoutView.self, LayoutContent(title: page.title, body: page.body, languageCode: context.language.code))
    }
}

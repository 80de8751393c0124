/// What a page shows, besides its regions, depends on: declared by its controller and the
/// layout so that a repeat view can be answered 304 before the page loads (``PageValidators``).
///
/// A page is validated only when its controller, the layout and each of its regions say what
/// they depend on; anything left undeclared makes every view load and render, as before.
public struct PageFreshness: Sendable {
    /// `nil`: not declared.
    let topics: [Topic]?

    /// What it shows changes only when one of `topics` is published (on this instance or,
    /// through the bus, another), or with the request's target, language and session.
    public static func until(_ topics: [Topic]) -> PageFreshness {
        PageFreshness(topics: topics)
    }

    /// It shows nothing but what the request's target, language and session decide (a sign-in
    /// form, a layout's navigation).
    public static var unchanging: PageFreshness { PageFreshness(topics: []) }

    /// Not declared: every view loads and renders the page. The default.
    public static var undeclared: PageFreshness { PageFreshness(topics: nil) }
}

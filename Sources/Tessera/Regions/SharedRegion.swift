public import TesseraViews

/// A region whose fragment is the same for every visitor in a language, such as a product's
/// description: kept by the app's ``RegionCache`` under its own URL until a topic it shows is
/// published, and handed to everyone.
///
/// Nothing of a visitor can reach it, by construction:
/// - it is made once, when the app is built (``RouterBuilder/sharedRegion(_:_:)``), where no
///   request exists, so what it stores are the app's services;
/// - a page names it by its route and parameters (``Region/init(shared:_:deadline:isRequired:in:)``), never
///   by an instance, and the parameters reach it through their path, as at its own URL;
/// - its model comes from ``load(_:in:)``, which gets a ``SharedRegionContext``: a loader that
///   reads the visitor takes a ``RequestContext``, so calling it does not compile.
public protocol SharedRegion: Sendable {
    /// What its route's `{…}` segments carry, such as a product's id.
    associatedtype Parameters: RouteParameters
    /// The view the fragment is, bound to the model ``load(_:in:)`` reads.
    associatedtype View: HTMLView

    /// Reads the fragment's model for `parameters`, in `context`'s language.
    func load(_ parameters: Parameters, in context: SharedRegionContext) async throws -> View.Model

    /// The topics whose publication ends the kept fragment: everything it shows that can change,
    /// as ``TopicFamily/any`` stands for every key of a family (what a list of products shows).
    func keptUntil(_ parameters: Parameters) -> [Topic]

    /// The topics whose publication shows the region again on open pages (``LiveRegions``);
    /// none by default.
    func topics(_ parameters: Parameters) -> [Topic]

    /// What stands in the region when ``load(_:in:)`` throws or misses its deadline; never kept.
    func failureFragment(for error: any Error, in context: SharedRegionContext) -> HTMLOutput
}

extension SharedRegion {
    /// None: the region is not live.
    public func topics(_ parameters: Parameters) -> [Topic] { [] }

    /// A short note that this part of the page could not be loaded.
    public func failureFragment(for error: any Error, in context: SharedRegionContext) -> HTMLOutput {
        RegionFailureNote.fragment(in: context.language)
    }
}

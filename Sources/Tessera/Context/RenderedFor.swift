/// Whom a request's answer is rendered for. One field, since a request is rendered for one of
/// these at a time; what the app's steps do differs for each (no session for nobody, the stream's
/// session for a subscriber).
enum RenderedFor: Sendable {
    /// The visitor who sent the request.
    case visitor
    /// Nobody: a kept page's copy, made from the page's key alone (``KeptPages``), which notes
    /// what the page depends on in `record`.
    case keptPage(KeptPageRecord)
    /// A live region's subscriber: the region rendered again with the stream's request, which
    /// reports the region's topics to `probe`.
    case liveRegion(LiveRender.Probe)
}

import Synchronization

/// A region rendered again for one subscriber: through the whole app, at the region's own URL,
/// with the subscriber's request, so it passes the same middleware (session, sign-in,
/// authorization) as the page did.
struct LiveRender: Sendable {
    let html: [UInt8]
    let version: String
    let topics: [Topic]

    /// What a live render carries in its request's context (``RenderedFor/liveRegion(_:)``): the
    /// fragment route reports the topics its controller depends on into it. A URL that is not a
    /// region's fragment leaves it empty, and is not live.
    final class Probe: Sendable {
        /// The stream's session as its cookie held it, which every re-render sends again.
        let session: Session.Loaded?
        private let reported = Mutex<[Topic]?>(nil)

        init(session: Session.Loaded?) {
            self.session = session
        }

        var topics: [Topic]? { reported.withLock { $0 } }
        func report(_ topics: [Topic]) { reported.withLock { $0 = topics } }
    }

    /// The region at `source` as `stream`'s visitor would get it; `nil` when that visitor may not
    /// see it (any answer but 200: a 404 for another shopper's order, a redirect to sign in) or
    /// when it is not a live region. `session` is the stream's, as its cookie held it.
    static func render(_ source: String, for stream: Request, session: Session.Loaded?, through application: Application) async -> LiveRender? {
        // The path as routed, decoded: `/%5Flive` is the stream's own URL too, never a region.
        guard var request = try? Request(method: .get, target: source, headers: headers(for: stream)),
            !request.path.hasPrefix(LiveRegions.streamPath)
        else { return nil }
        request.remoteAddress = stream.remoteAddress
        request.clientAddress = stream.clientAddress
        request.isSecure = stream.isSecure
        request.id = stream.id
        let probe = Probe(session: session)
        guard let response = try? await application.render(request, for: .liveRegion(probe)),
            response.status == .ok, let topics = probe.topics, !topics.isEmpty,
            case .bytes(let html) = response.body
        else { return nil }
        return LiveRender(html: html, version: RegionVersion.of(html), topics: topics)
    }

    /// The stream's headers for a plain HTML GET: its cookies and language, no conditions, no
    /// compression.
    private static func headers(for stream: Request) -> RequestHeaders {
        var headers = RequestHeaders()
        for field in stream.headers {
            switch field.name {
            case .acceptEncoding, .accept, .ifNoneMatch, .ifModifiedSince, .range, .ifRange: continue
            case _ where field.name.canonicalName == "last-event-id": continue
            default: headers.append(name: field.name.rawName, value: field.value)
            }
        }
        headers.append(name: "Accept", value: "text/html")
        return headers
    }
}

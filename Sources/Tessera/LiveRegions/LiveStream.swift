import TesseraViews

/// `GET /_live?src=…&v=…`: one server-sent-events stream for every live region of a page.
///
/// `src` is a region's own URL and `v` the version the page shows, once per region, in the
/// order of the page's `data-live-stream` URL; a `Last-Event-ID` header (the versions, comma
/// separated) takes the place of the `v`s on a reconnect. Each region is rendered at once: one
/// whose version differs, because its model moved on since the page was rendered, goes down the
/// stream straight away. After that, a region goes down whenever a topic it depends on changes
/// and its fragment differs from the last one sent.
struct LiveStream: Sendable {
    let live: LiveRegions

    struct Watched {
        let source: String
        var version: String?
    }

    func respond(in context: RequestContext) async throws -> Response {
        let request = context.request
        let watched = try Self.parse(request, limit: live.configuration.maxRegionsPerStream)
        guard let application = live.application else { throw HTTPError(.serviceUnavailable) }
        // The head a GET would get, without subscribing: a HEAD must not wait for an endless body.
        guard request.method != .head else { return Self.streamResponse() }

        let session = context.session.loaded
        let client = (request.clientAddress ?? request.remoteAddress)?.description ?? "unknown"
        let subscriber = LiveSubscriber(client: client, regionCount: watched.count)
        guard live.hub.add(subscriber, limit: live.configuration.maxStreamsPerClient) else {
            throw HTTPError(.serviceUnavailable, message: "The server is shutting down.", headers: [.retryAfter: "2"])
        }
        // Owned by the stream's body, so the subscriber leaves the hub however the answer ends:
        // streamed to its end, dropped unsent (a deadline during the first renders), or refused.
        let membership = Membership(hub: live.hub, subscriber: subscriber)

        // First renders, while the subscriber hears every topic: a change made between the page's
        // render and now is either in these renders or marks its region dirty.
        var firstRenders: [LiveRender?] = []
        for (index, region) in watched.enumerated() {
            let rendered = await LiveRender.render(region.source, for: request, session: session, through: application)
            if let rendered { subscriber.setTopics(rendered.topics, ofRegion: index) }
            firstRenders.append(rendered)
        }
        let first = firstRenders
        var response = Self.streamResponse()
        guard first.contains(where: { $0 != nil }) else {
            // Nothing this visitor may follow: said once, and the page's script stops there.
            response.body = .bytes(ServerSentEvents.nothingToFollow)
            return response
        }
        live.hub.subscribe(subscriber)

        let hub = live.hub
        let initial = watched
        response.body = .stream { writer in
            var watched = initial
            _ = membership  // held by this body: the subscriber leaves the hub when the body goes
            try await writer.write(ServerSentEvents.opening)
            for (index, rendered) in first.enumerated() {
                guard let rendered, rendered.version != watched[index].version else { continue }
                watched[index].version = rendered.version
                try await writer.write(Self.event(for: watched, index, rendered))
            }
            try await writer.flush()
            for await _ in subscriber.wakes {
                let work = subscriber.takeWork()
                var wrote = false
                for index in work.dirty.sorted() {
                    guard let rendered = await LiveRender.render(watched[index].source, for: request, session: session, through: application) else {
                        continue
                    }
                    subscriber.setTopics(rendered.topics, ofRegion: index)
                    guard rendered.version != watched[index].version else { continue }
                    watched[index].version = rendered.version
                    try await writer.write(Self.event(for: watched, index, rendered))
                    wrote = true
                }
                if !work.dirty.isEmpty { hub.subscribe(subscriber) }
                if !wrote && work.heartbeat { try await writer.write(ServerSentEvents.heartbeat) }
                if wrote || work.heartbeat { try await writer.flush() }
            }
            if subscriber.isEvicted { try await writer.write(ServerSentEvents.evicted) }
        }
        return response
    }

    /// The head of every stream.
    private static func streamResponse() -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8",
                .cacheControl: "no-store",
                // nginx buffers proxied answers unless told not to; a stream must pass at once.
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ])
    }

    /// A subscriber's place in the hub, given up when the last reference goes.
    private final class Membership: Sendable {
        let hub: LiveHub
        let subscriber: LiveSubscriber

        init(hub: LiveHub, subscriber: LiveSubscriber) {
            self.hub = hub
            self.subscriber = subscriber
        }

        deinit { hub.remove(subscriber) }
    }

    private static func event(for watched: [Watched], _ index: Int, _ rendered: LiveRender) -> [UInt8] {
        let id = watched.map { $0.version ?? "" }.joined(separator: ",")
        return ServerSentEvents.region(source: watched[index].source, version: rendered.version, html: rendered.html, id: id)
    }

    /// The regions asked for, each with the version the client has, if it said.
    static func parse(_ request: Request, limit: Int) throws(HTTPError) -> [Watched] {
        let sources = request.query.values(for: "src")
        guard !sources.isEmpty else {
            throw HTTPError(.badRequest, message: "Name the regions to follow with src=, as the page's data-live-stream URL does.")
        }
        guard sources.count <= limit else {
            throw HTTPError(.badRequest, message: "A stream follows at most \(limit) regions.")
        }
        for source in sources
        where !source.hasPrefix("/") || source.hasPrefix("//") || source.utf8.count > 1024
            || source.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) || source.hasPrefix(LiveRegions.streamPath)
        {
            throw HTTPError(.badRequest, message: "Each src must be a region's path on this site.")
        }
        let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!].map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let versions = lastEventID ?? request.query.values(for: "v")
        let known = versions.count == sources.count
        return sources.enumerated().map { index, source in
            let version = known ? versions[index] : nil
            return Watched(source: source, version: version.flatMap { RegionVersion.isWellFormed($0) ? $0 : nil })
        }
    }
}

/// The element a page with live regions carries: `<div hidden data-live-stream="/_live?src=…&v=…">`.
/// Written after the page's last region, once every version is known, so the URL alone is
/// enough for a scraper to follow the page.
enum LiveStreamMarker {
    /// A slot name no template can use (`:` is not allowed in region names).
    static let slot = "tessera:live-stream"

    /// A live region as the page shows it: its URL, and the version it was rendered with (none
    /// when it failed, so the stream sends it as soon as it renders).
    struct Shown {
        let source: String
        let version: String?
    }

    /// Written straight into the page, in the order the page shows the regions. Every piece is
    /// percent-encoded or a version (base64url), so the URL is put together as trusted bytes and
    /// only the `&` between its parameters is escaped (`&amp;`).
    static func write(_ regions: [Shown], into output: inout HTMLOutput) {
        var url: [UInt8] = []
        url.reserveCapacity(32 + regions.count * 48)
        url.append(contentsOf: LiveRegions.streamPath.utf8)
        for (index, region) in regions.enumerated() {
            url.append(contentsOf: index == 0 ? "?src=".utf8 : "&amp;src=".utf8)
            URLEncoding.appendPathAsQueryValue(region.source, to: &url)
        }
        for region in regions {
            url.append(contentsOf: "&amp;v=".utf8)
            if let version = region.version { url.append(contentsOf: version.utf8) }
        }
        output.write(static: "<div hidden data-live-stream=\"")
        output.write(trusted: url)
        output.write(static: "\"></div>")
    }
}

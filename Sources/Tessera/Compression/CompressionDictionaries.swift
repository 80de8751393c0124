import Synchronization
import TesseraHTTP

/// The app's compression dictionaries (`CompressionDictionary`): made of its kept pages, one
/// of each route, so that a browser holding one has seen the markup of every kind of page the
/// app keeps. Chromium fetches it when idle, named by a `Link: <…>; rel="compression-dictionary"`
/// on the answers to clients that take zstd, keeps it, and names it in `Available-Dictionary` on
/// every request to the app; a page it asks for is then sent `Content-Encoding: dcz`, compressed
/// against it. Browsers without dictionaries get gzip as before.
///
/// Why its own resource, and not the page the browser holds: Chromium takes an answer as a
/// dictionary only while it is fresh in its cache, and a kept page is `no-cache`, so that a
/// change shows at once (`Benchmarks/dictionary-probe.py`).
///
/// What goes in is public and current:
/// - only a page that is kept (rendered for nobody, no cookie set), whose target
///   has no query (a visitor cannot fill it with what they chose), and at most half the bound;
/// - a page's content stops being served the moment a topic it shows is published, as its kept
///   copy does: every dictionary that holds it is withdrawn, and the next is made without it;
/// - while publications may be missed (the kept pages stop keeping), none is served.
///
/// The dictionary grows as routes are first kept, up to ``maxBytes``, each time a new one under
/// a new URL; the older ones stay answerable, for browsers that hold them, until withdrawn.
public final class CompressionDictionaries: Sendable {
    /// Where dictionaries are served: `/_tessera/dictionary/<16 hex digits>`.
    static let pathPrefix = "/_tessera/dictionary/"
    /// How long a browser may use one before asking again: a day. Not a year: a withdrawn
    /// dictionary must leave the browsers' caches too.
    static let cacheControl = "public, max-age=86400"

    /// The most bytes a dictionary holds: pages past it are not added. Zero makes none.
    public let maxBytes: Int

    private struct Source {
        let route: String
        let page: [UInt8]
        let topics: Set<Topic>
    }

    private struct State {
        /// The pages in the newest dictionary, in the order they came.
        var sources: [Source] = []
        /// Every dictionary still served, the newest last, each with the routes of its pages.
        var dictionaries: [(dictionary: CompressionDictionary, routes: Set<String>)] = []
        /// False while publications may be missed.
        var keeping = true
    }

    private let state = Mutex(State())

    /// Dictionaries of up to `maxBytes` (64 KB by default: a few kinds of page); zero for none.
    public init(maxBytes: Int = 64 << 10) {
        self.maxBytes = maxBytes
    }

    /// Whether it makes dictionaries.
    public var isOn: Bool { maxBytes > 0 }

    /// Itself when it makes dictionaries, else `nil`.
    var on: CompressionDictionaries? { isOn ? self : nil }

    /// The newest dictionary, which answers announce.
    var current: CompressionDictionary? {
        state.withLock { $0.dictionaries.last?.dictionary }
    }

    /// Adds the first kept page of `route` to the dictionary, which is then made anew, until one
    /// of `topics` is published; a route already in it, a page over half the bound, or one that
    /// would take it past ``maxBytes`` changes nothing.
    func offer(_ page: [UInt8], of route: String, until topics: [Topic]) {
        guard isOn, page.count <= maxBytes / 2 else { return }
        state.withLock { state in
            guard state.keeping, !state.sources.contains(where: { $0.route == route }),
                state.sources.reduce(0, { $0 + $1.page.count }) + page.count <= maxBytes
            else { return }
            state.sources.append(Source(route: route, page: page, topics: Set(topics)))
            Self.makeNewest(&state)
        }
    }

    /// Withdraws every dictionary that holds a page showing one of `topics`, and makes the next
    /// of the pages left: a change, or a page taken down, is no longer served from a dictionary.
    func invalidate(_ topics: [Topic]) {
        guard isOn, !topics.isEmpty else { return }
        let published = Set(topics)
        state.withLock { state in
            let stale = Set(state.sources.filter { !$0.topics.isDisjoint(with: published) }.map(\.route))
            guard !stale.isEmpty else { return }
            state.sources.removeAll { stale.contains($0.route) }
            state.dictionaries.removeAll { !$0.routes.isDisjoint(with: stale) }
            if !state.sources.isEmpty { Self.makeNewest(&state) }
        }
    }

    /// Publications may be missed: no dictionary is served or made until ``startKeeping()``.
    func stopKeeping() {
        state.withLock { $0 = State(keeping: false) }
    }

    func startKeeping() {
        state.withLock { $0.keeping = true }
    }

    private static func makeNewest(_ state: inout State) {
        guard let dictionary = CompressionDictionary(state.sources.flatMap(\.page)) else { return }
        state.dictionaries.append((dictionary, Set(state.sources.map(\.route))))
    }

    /// The dictionary at `path` (``CompressionDictionary/path``), while it is served.
    func dictionary(at path: String) -> CompressionDictionary? {
        state.withLock { $0.dictionaries.last { $0.dictionary.path == path }?.dictionary }
    }

    /// The dictionary `request` names in `Available-Dictionary`, when it also accepts `dcz` and
    /// the dictionary is served; `nil` for a request without one, which costs a header lookup.
    func dictionary(for request: Request) -> CompressionDictionary? {
        guard isOn, let named = request.headers[Self.availableDictionary],
            AcceptEncoding(request.headers[.acceptEncoding]).allowsDictionaryZstd
        else { return nil }
        return state.withLock { $0.dictionaries.last { $0.dictionary.availableValue == named }?.dictionary }
    }

    /// `response` with the newest dictionary's `Link` when `request` takes zstd, as every browser
    /// that takes dictionaries does; others are not told of it, which would cost them a header for
    /// nothing. A browser that holds an older one learns of the newest this way too.
    func announce(in response: inout Response, to request: Request) {
        guard isOn, AcceptEncoding(request.headers[.acceptEncoding]).namesZstd, let current else { return }
        response.headers[Self.link] = current.linkValue
    }

    /// Serves each dictionary at its path, usable for every page of this origin (`match="/*"`).
    func register(in routes: inout RouterBuilder) {
        routes.action(Route<String>("tessera.dictionary", .get, RoutePattern(Self.pathPrefix + "{name}"))) { _, context in
            guard let dictionary = self.dictionary(at: context.request.path) else { throw HTTPError(.notFound) }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/plain; charset=utf-8", .cacheControl: Self.cacheControl,
                    Self.useAsDictionary: "match=\"/*\"",
                ],
                body: .bytes(dictionary.bytes))
        }
    }

    static let availableDictionary = HTTPField.Name("Available-Dictionary")!
    static let link = HTTPField.Name("Link")!
    static let useAsDictionary = HTTPField.Name("Use-As-Dictionary")!
}

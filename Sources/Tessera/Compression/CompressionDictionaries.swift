import Synchronization
import TesseraHTTP

/// The app's compression dictionaries (`CompressionDictionary`): made of its kept pages, one
/// of each route, so that a browser holding one has seen the markup of every kind of page the
/// app keeps. Chromium fetches it when idle, named by a `Link: <…>; rel="compression-dictionary"`
/// on each kept page, keeps it a year, and names it in `Available-Dictionary` on every request
/// to the app; a page it asks for is then sent `Content-Encoding: dcz`, compressed against it.
/// Browsers without dictionaries get gzip as before.
///
/// Why its own resource, and not the page the browser holds: Chromium takes an answer as a
/// dictionary only while it is fresh in its cache, and a kept page is `no-cache`, so that a
/// change shows at once (`Benchmarks/dictionary-probe.py`).
///
/// The dictionary grows as routes are first kept, up to ``maxBytes``, each time a new one under
/// a new URL; the last eight stay answerable, for browsers that hold an older one.
public final class CompressionDictionaries: Sendable {
    /// Where dictionaries are served: `/_tessera/dictionary/<16 hex digits>`.
    static let pathPrefix = "/_tessera/dictionary/"
    /// How many dictionaries stay answerable after a newer one is made.
    static let retained = 8

    /// The most bytes a dictionary holds: pages past it are not added. Zero makes none.
    public let maxBytes: Int

    private struct State {
        /// The routes whose first kept page is in the dictionary, and those pages.
        var routes: Set<String> = []
        var pages: [UInt8] = []
        /// The newest last.
        var dictionaries: [CompressionDictionary] = []
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

    /// The newest dictionary, which kept pages announce.
    var current: CompressionDictionary? {
        state.withLock { $0.dictionaries.last }
    }

    /// Adds the first kept page of `route` to the dictionary, which is then made anew; a route
    /// already in it, or a page that would take it past ``maxBytes``, changes nothing.
    func offer(_ page: [UInt8], of route: String) {
        guard isOn else { return }
        state.withLock { state in
            guard !state.routes.contains(route), state.pages.count + page.count <= maxBytes else { return }
            guard let dictionary = CompressionDictionary(state.pages + page) else { return }
            state.routes.insert(route)
            state.pages += page
            state.dictionaries.append(dictionary)
            if state.dictionaries.count > Self.retained { state.dictionaries.removeFirst() }
        }
    }

    /// The dictionary at `path` (``CompressionDictionary/path``), while it is retained.
    func dictionary(at path: String) -> CompressionDictionary? {
        state.withLock { $0.dictionaries.last { $0.path == path } }
    }

    /// The dictionary `request` names in `Available-Dictionary`, when it also accepts `dcz` and
    /// the dictionary is retained; `nil` for a request without one, which costs a header lookup.
    func dictionary(for request: Request) -> CompressionDictionary? {
        guard isOn, let named = request.headers[Self.availableDictionary],
            AcceptEncoding(request.headers[.acceptEncoding]).allowsDictionaryZstd
        else { return nil }
        return state.withLock { $0.dictionaries.last { $0.availableValue == named } }
    }

    /// Serves each retained dictionary at its path: kept a year, since its path names its
    /// digest, and usable for every page of this origin (`match="/*"`).
    func register(in routes: inout RouterBuilder) {
        routes.action(Route<String>("tessera.dictionary", .get, RoutePattern(Self.pathPrefix + "{name}"))) { _, context in
            guard let dictionary = self.dictionary(at: context.request.path) else { throw HTTPError(.notFound) }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/plain; charset=utf-8", .cacheControl: "public, max-age=31536000, immutable",
                    Self.useAsDictionary: "match=\"/*\"",
                ],
                body: .bytes(dictionary.bytes))
        }
    }

    static let availableDictionary = HTTPField.Name("Available-Dictionary")!
    static let link = HTTPField.Name("Link")!
    static let useAsDictionary = HTTPField.Name("Use-As-Dictionary")!
}

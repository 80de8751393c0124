import Synchronization
import TesseraHTTP
import TesseraViews

/// Whole pages kept for visitors without a session (``KeptPage``), in memory, until a topic one
/// of their parts shows is published, here or on another instance (``LiveRegions`` tells it,
/// as it tells the ``RegionCache``): ASP.NET Core's output cache and Rails' page caching, with
/// eviction by topic instead of by time.
///
/// - Keyed by the request's site (when `PUBLIC_URL` does not name it), its target (the route,
///   its parameters and the query) and its language; each copy holds both encodings, identity
///   and gzip, compressed once when it is kept.
/// - Bounded in bytes (`maxBytes`), the least recently kept going first, so a hundred
///   thousand products cannot grow memory past the bound.
/// - Concurrent misses for one key render once and share the result.
/// - A copy goes out `Cache-Control: public, no-cache` with a strong `ETag` per encoding and
///   `Vary: Accept-Language, Cookie, Accept-Encoding`, so a repeat view is a 304 and a proxy or
///   CDN may keep it too, asking again each time. Only a 200 without `Set-Cookie` whose every
///   part declared what it depends on is kept.
public final class KeptPages: TopicFollower {
    private let cache: TopicCache<KeptPageKey, KeptPageCopy>
    /// Renders in progress, by key, with those waiting for them.
    private let inFlight = Mutex<[KeptPageKey: [CheckedContinuation<KeptPageCopy.Outcome?, Never>]]>([:])
    /// The app, to render a copy through its whole chain; set once it is built.
    private let application = Mutex<WeakApplication>(WeakApplication())

    private struct WeakApplication {
        weak var value: Application?
    }

    /// The dictionaries made of the first kept page of each route, which browsers that hold
    /// one get pages compressed against (``CompressionDictionaries``).
    public let dictionaries: CompressionDictionaries

    /// Up to `maxBytes` of pages (both encodings counted); zero keeps none. Each is kept ten
    /// minutes at most: the bound on a change nobody published.
    public init(maxBytes: Int = 64 << 20, maxAge: Duration = .seconds(600), dictionaries: CompressionDictionaries = CompressionDictionaries()) {
        cache = TopicCache(limits: .init(maxCost: maxBytes, maxAge: maxAge)) { key, copy in key.cost + copy.cost }
        self.dictionaries = dictionaries
    }

    /// Whether it keeps anything.
    public var isOn: Bool { cache.isOn }

    /// Pages kept now.
    public var count: Int { cache.count }

    /// The bytes they take, both encodings and their keys counted.
    var keptBytes: Int { cache.keptCost }

    /// Renders under way that other visitors wait for.
    var rendersAwaited: Int { inFlight.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// Keeps `copy` under `key` until one of `topics` is published.
    func keep(
        _ copy: KeptPageCopy, for key: KeptPageKey, until topics: [Topic], since generation: TopicCache<KeptPageKey, KeptPageCopy>.Generation? = nil
    ) {
        cache.store(copy, for: key, until: topics, since: generation ?? cache.generation)
    }

    func bind(_ application: Application) {
        self.application.withLock { $0.value = application }
    }

    // MARK: TopicFollower

    public func invalidate(_ topics: [Topic]) {
        cache.invalidate(topics)
        dictionaries.invalidate(topics)
    }

    public func stopKeeping() {
        cache.stopKeeping()
        dictionaries.stopKeeping()
    }

    public func startKeeping() {
        cache.startKeeping()
        dictionaries.startKeeping()
    }

    // MARK: Answering

    /// The kept copy's answer for `context`'s visitor when there is one; else the work that
    /// renders it (once for everyone asking meanwhile) and answers with it, or, when nothing
    /// could be rendered to share, with `otherwise`.
    func decide(
        _ key: KeptPageKey, for context: RequestContext, otherwise render: @escaping @Sendable (RequestContext) async throws -> Response
    ) -> NowOrLater<RequestContext, Response> {
        if let copy = cache.value(for: key) { return .now(copy.answer(to: context.request, dictionaries: dictionaries)) }
        return .later { context in
            switch await self.copy(for: key, asked: context.request, within: context.databaseBudget) {
            case .kept(let copy): return copy.answer(to: context.request, dictionaries: self.dictionaries)
            case .notKept(let response?): return response
            case .notKept(nil): return try await render(context)
            }
        }
    }

    /// The copy for `key`: rendered by the first to ask, awaited by the others, who share its
    /// outcome (a page that cannot be kept, such as a 404, is shared too: it was rendered for
    /// nobody). Only when that render left no answer at all does a waiter render its own.
    /// The render waits within the budget of the visitor who asked first, whose request it holds.
    private func copy(for key: KeptPageKey, asked request: Request, within budget: DatabaseBudget) async -> KeptPageCopy.Outcome {
        let shared: KeptPageCopy.Outcome? = await withCheckedContinuation { continuation in
            let rendersItself = inFlight.withLock { inFlight -> Bool in
                if inFlight[key] != nil {
                    inFlight[key]!.append(continuation)
                    return false
                }
                inFlight[key] = []
                return true
            }
            if rendersItself { continuation.resume(returning: nil) }
        }
        if let shared {
            if case .notKept(nil) = shared { return await render(key, asked: request, within: budget) }
            return shared
        }
        let outcome = await render(key, asked: request, within: budget)
        let waiting = inFlight.withLock { $0.removeValue(forKey: key) ?? [] }
        for waiter in waiting { waiter.resume(returning: outcome) }
        return outcome
    }

    /// Renders the page for nobody: a request made of `key` alone, through the app's chain.
    private func render(_ key: KeptPageKey, asked request: Request, within budget: DatabaseBudget) async -> KeptPageCopy.Outcome {
        guard let application = application.withLock({ $0.value }) else { return .notKept(nil) }
        let generation = cache.generation
        let rendered: (response: Response, topics: [Topic]?, route: String?)
        do {
            rendered = try await application.renderKeptPage(key.request(like: request), within: budget)
        } catch {
            return .notKept(nil)
        }
        guard KeptPageCopy.mayKeep(rendered.response, topics: rendered.topics) else { return .notKept(rendered.response) }
        // A page kept for everyone, whose target has no query a visitor chose, may teach the
        // compression dictionary its kind of page.
        if let route = rendered.route, let topics = rendered.topics, !key.target.contains("?"),
            case .bytes(let page) = rendered.response.body
        {
            dictionaries.offer(page, of: route, until: topics)
        }
        guard
            let copy = KeptPageCopy(
                rendered.response, topics: rendered.topics, dictionary: dictionaries.current, varies: dictionaries.isOn)
        else { return .notKept(rendered.response) }
        keep(copy, for: key, until: rendered.topics ?? [], since: generation)
        return .kept(copy)
    }
}

/// What a kept page is kept under: everything its HTML may vary with.
struct KeptPageKey: Hashable, Sendable {
    /// The site (`https://shop.example.com`) when `PUBLIC_URL` does not name it: absolute URLs
    /// on the page are then made from the request's own; empty when it does.
    let site: String
    /// The target as sent: the path (the route and its parameters) and the query.
    let target: String
    /// The language's code.
    let language: String

    var cost: Int { site.utf8.count + target.utf8.count + language.utf8.count + 64 }

    init(site: String, target: String, language: String) {
        self.site = site
        self.target = target
        self.language = language
    }

    /// The key of `context`'s request, when it may be answered from a kept copy: a `GET` or
    /// `HEAD` of the HTML page with no session cookie and no credentials.
    init?(_ context: RequestContext) {
        let request = context.request
        guard request.method == .get || request.method == .head, !context.session.cameWithCookie,
            request.headers[.authorization] == nil, !AcceptHeader(request.headers[.accept]).prefersJSON
        else { return nil }
        site = context.application.siteURL == nil ? context.site.description : ""
        target = request.target
        language = context.language.code
    }

    /// The request the copy is rendered from: this key and nothing else. The language goes as
    /// `Accept-Language`, which the language step resolves to it again (or the URL names it).
    func request(like asked: Request) throws(HTTPError) -> Request {
        var headers = RequestHeaders()
        headers.append(name: "Accept", value: "text/html")
        headers.append(name: "Accept-Language", value: language)
        if let host = asked.headers[HTTPField.Name("Host")!] { headers.append(name: "Host", value: host) }
        var request = try Request(method: .get, target: target, headers: headers)
        request.isSecure = asked.isSecure
        request.id = asked.id
        return request
    }
}

/// One kept page, in both encodings, with the answers built once; and, when the app has a
/// compression dictionary, compressed against it for the browsers that hold it.
struct KeptPageCopy: Sendable {
    let identity: Response
    let gzip: Response?
    let identityTag: String
    let gzipTag: String?
    /// The 304s for a visitor who has the identity or the gzip copy, made once, as the copies are.
    let identityNotModified: Response
    let gzipNotModified: Response?
    /// The page as `dcz` against the dictionary that was newest when it was kept.
    let dictionaryCompressed: (dictionary: CompressionDictionary, response: Response)?

    /// What a render gave: a copy that is kept, or an answer that is not (a 404, a page with a
    /// failed region), or nothing to share.
    enum Outcome: Sendable {
        case kept(KeptPageCopy)
        case notKept(Response?)
    }

    var cost: Int {
        func size(_ response: Response?) -> Int {
            guard case .bytes(let bytes)? = response?.body else { return 0 }
            return bytes.count + 512
        }
        return size(identity) + size(gzip) + size(dictionaryCompressed?.response)
    }

    static let cacheControl = "public, no-cache"
    static let vary = "Accept-Language, Cookie, Accept-Encoding"
    static let varyWithDictionaries = vary + ", Available-Dictionary"

    /// Whether `response` may be kept: a whole 200 that sets no cookie, and whose every part said
    /// what it depends on (`topics`).
    static func mayKeep(_ response: Response, topics: [Topic]?) -> Bool {
        guard response.status == .ok, topics != nil, !response.headers.contains(.setCookie), response.headers[.contentEncoding] == nil,
            case .bytes = response.body
        else { return false }
        return true
    }

    /// A copy of `response`, or `nil` when it may not be kept (``mayKeep(_:topics:)``); compressed
    /// against `dictionary` too, and varying with the dictionary a client names when the app
    /// makes dictionaries (`varies`).
    init?(_ response: Response, topics: [Topic]?, dictionary: CompressionDictionary? = nil, varies: Bool = false) {
        guard Self.mayKeep(response, topics: topics), case .bytes(let body) = response.body else { return nil }
        var identity = response
        let version = RegionVersion.of(body)
        identityTag = "\"\(version)\""
        identity.headers[.eTag] = identityTag
        identity.headers[.cacheControl] = Self.cacheControl
        let vary = varies ? Self.varyWithDictionaries : Self.vary
        identity.headers[.vary] = vary
        func notModified(_ tag: String) -> Response {
            Response(
                status: .notModified, headers: [.eTag: tag, .cacheControl: Self.cacheControl, .vary: vary, .contentType: "text/html; charset=utf-8"])
        }
        identityNotModified = notModified(identityTag)
        self.identity = identity
        if body.count >= 512, let compressed = GzipEncoder.gzip(body, level: GzipEncoder.once) {
            var gzip = identity
            gzip.body = .bytes(compressed)
            gzip.headers[.contentEncoding] = "gzip"
            let tag = "\"\(version).gz\""
            gzip.headers[.eTag] = tag
            self.gzip = gzip
            gzipTag = tag
            gzipNotModified = notModified(tag)
        } else {
            gzip = nil
            gzipTag = nil
            gzipNotModified = nil
        }
        dictionaryCompressed = dictionary.flatMap { dictionary in
            Self.compressed(identity, body: body, against: dictionary).map { (dictionary, $0) }
        }
    }

    /// `identity` with its `body` as `dcz` against `dictionary`, without a validator: a few
    /// hundred bytes, and the browser's next request may name another dictionary.
    private static func compressed(_ identity: Response, body: [UInt8], against dictionary: CompressionDictionary) -> Response? {
        guard let compressed = dictionary.compress(body) else { return nil }
        var answer = identity
        answer.body = .bytes(compressed)
        answer.headers[.contentEncoding] = "dcz"
        answer.headers[.eTag] = nil
        answer.headers[.vary] = Self.varyWithDictionaries
        return answer
    }

    /// The copy in the encoding `request` accepts, or a 304 when it already has it.
    /// A browser that holds one of the app's dictionaries gets the copy compressed against it:
    /// made when the copy was kept for the newest, or now for an older one it still holds.
    /// Answers to a client that takes zstd name the newest dictionary (`announce`).
    func answer(to request: Request, dictionaries: CompressionDictionaries) -> Response {
        var answer: Response
        if let dictionary = dictionaries.dictionary(for: request) {
            if let made = dictionaryCompressed, made.dictionary === dictionary {
                answer = made.response
            } else if case .bytes(let body) = identity.body, let compressed = Self.compressed(identity, body: body, against: dictionary) {
                answer = compressed
            } else {
                answer = identity
            }
        } else if let gzip, let gzipTag, let gzipNotModified, AcceptEncoding(request.headers[.acceptEncoding]).allowsGzip {
            if Self.has(gzipTag, request) { return gzipNotModified }
            answer = gzip
        } else {
            if Self.has(identityTag, request) { return identityNotModified }
            answer = identity
        }
        dictionaries.announce(in: &answer, to: request)
        return answer
    }

    /// Whether the request has the copy tagged `tag` already.
    private static func has(_ tag: String, _ request: Request) -> Bool {
        guard let ifNoneMatch = request.headers[.ifNoneMatch] else { return false }
        return EntityTagList(ifNoneMatch).matches(tag)
    }
}

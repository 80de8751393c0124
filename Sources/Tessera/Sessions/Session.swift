import Crypto
import Foundation
import Synchronization

/// The visitor's session: a few strings kept in an encrypted cookie.
///
/// ``SessionMiddleware`` loads it for each request. A visitor has none until something is kept
/// in it (a cart, a sign-in, a language chosen by hand, a flash): only then does an answer set
/// its cookie, so browsing, searching and reading set no cookie at all, and their pages can be
/// kept whole (decision 0035). Without that step in the chain the session
/// is *detached*: it reads as empty, and writes go nowhere (a debug build stops at
/// the first write, since it is a wiring mistake). Changing it makes the response carry a new
/// cookie. ``rotate()`` gives it a new identity, which sign-in must do so that a session id
/// planted before sign-in is worthless.
public struct Session: Sendable {
    private let storage: Storage?

    /// A session that is not kept anywhere: the one a request has when no session step runs.
    public static let detached = Session(storage: nil)

    private init(storage: Storage?) {
        self.storage = storage
    }

    /// The session in `cookie`, or a new, empty one when there is no valid cookie. A cookie
    /// sealed with a previous secret of `sessions`, or in the codec's older format, loads too,
    /// and the answer seals it again with the current ones.
    init(cookie: String?, sessions: SessionConfiguration) {
        let codec = sessions.codec
        if let cookie {
            if let (payload, isOlder) = codec.payload(in: cookie) {
                storage = Storage(payload: payload, loadedFrom: Loaded.Source(cookie: cookie, secret: codec.secret), sealAgain: isOlder)
                return
            }
            for previous in sessions.previousCodecs {
                guard let (payload, _) = previous.payload(in: cookie) else { continue }
                storage = Storage(payload: payload, loadedFrom: Loaded.Source(cookie: cookie, secret: previous.secret), sealAgain: true)
                return
            }
        }
        storage = Storage(payload: nil, loadedFrom: Loaded.Source(cookie: cookie, secret: codec.secret))
    }

    /// What a session's cookie held when it was loaded, and which cookie that was.
    struct Loaded: Sendable {
        struct Source: Sendable, Equatable {
            let cookie: String?
            let secret: Data
        }

        /// The cookie's value as sent, and the secret that verified it.
        let source: Source
        /// `nil` when there was no valid cookie.
        let payload: SessionRecord?

        /// Whether a request that sends `cookie`, checked with `codec`, would load this again.
        func isLoaded(from cookie: String?, by codec: SessionCodec) -> Bool {
            source == Source(cookie: cookie, secret: codec.secret)
        }
    }

    /// The session as its cookie held it when loaded, before this request changed anything;
    /// `nil` when detached. A live stream keeps it for its re-renders, which send the very same
    /// cookie: opening it again would prove nothing new.
    var loaded: Loaded? {
        storage.flatMap { storage in storage.loadedFrom.map { Loaded(source: $0, payload: storage.fromCookie) } }
    }

    /// A session loaded again from what ``loaded`` kept, as a new decode of the same cookie
    /// would make it: a fresh copy (nothing one request changes reaches another), and empty
    /// once expired.
    init(reloading loaded: Loaded, now: Date = Date()) {
        storage = Storage(payload: loaded.payload.flatMap { $0.isUnexpired(at: now) ? $0 : nil }, loadedFrom: loaded.source)
    }

    /// The session of a kept page's render for nobody (``KeptPages``): empty, and whatever is
    /// written to it goes nowhere, so the copy sets no cookie.
    static func nobodys() -> Session {
        Session(storage: Storage(payload: nil, keepsNothing: true))
    }

    /// Whether the request sent a session cookie, valid or not: only a request that sent none
    /// is answered from a kept page.
    var cameWithCookie: Bool { storage?.loadedFrom?.cookie != nil }

    /// The session's id; `nil` when detached. A new session's is drawn when first asked for,
    /// and kept only if the session is.
    public var id: String? { storage?.read { Base64URL.encode($0.id) } }

    /// The value kept under `key`; setting `nil` removes it. The whole session travels in its
    /// cookie, so keep values small: an id, not a record. Every copy of the context sees a change.
    public subscript(key: String) -> String? {
        get { storage?.value(key) }
        nonmutating set {
            guard let storage else {
                assertionFailure("the session was written, but the middleware chain has no SessionMiddleware")
                return
            }
            storage.change { payload in
                guard payload.values[key] != newValue else { return false }
                payload.values[key] = newValue
                return true
            }
        }
    }

    /// A new id for the same values: call it on sign-in.
    public func rotate() {
        storage?.change { payload in
            payload.id = SessionCodec.newIdentifier()
            return true
        }
    }

    /// Forgets everything, with a new id: call it on sign-out.
    public func clear() {
        storage?.change { payload in
            payload = Storage.newPayload()
            return true
        }
    }

    /// The `Set-Cookie` value when the session changed (or must be sealed again); else `nil`: a
    /// visit that keeps nothing sets no cookie. A session left holding nothing (its flash shown,
    /// its visitor signed out) deletes the cookie it came with: the visitor is one without a
    /// session again, whose pages may be kept whole. `Secure` when the configuration says so, or
    /// when the request came over HTTPS (`overHTTPS`).
    func setCookie(_ configuration: SessionConfiguration, overHTTPS: Bool = false, now: Date = Date()) -> String? {
        guard let storage, var payload = storage.payloadToSave() else { return nil }
        let secure = configuration.secureCookies || configuration.hostPrefix || overHTTPS
        let attributes = "; Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
        guard !payload.values.isEmpty else {
            guard storage.loadedFrom?.cookie != nil else { return nil }
            return "\(configuration.sentCookieName)=; Max-Age=0" + attributes
        }
        let maxAge = configuration.maxAge.components.seconds
        payload.expires = Int64(now.timeIntervalSince1970) + maxAge
        let value = configuration.codec.encode(payload)
        return "\(configuration.sentCookieName)=\(value); Max-Age=\(maxAge)" + attributes
    }

    /// The `Cache-Control` an answer needs because of what it took from this session, or `nil`
    /// when it never looked (an image, a health check), so that shared caches may keep it.
    ///
    /// A session that holds anything (a signed-in user, a cart) makes every answer that used it
    /// `private, no-store`: after sign-out, neither a shared cache nor the browser's Back button
    /// may show it again. An answer that asked the session something and found nothing (who is
    /// signed in: nobody) is `private, no-cache`: a signed-in visitor would have been answered
    /// differently, so no shared cache may hand it to others. (A page kept whole for visitors
    /// without a session is rendered without one, and is `public`: KeptPages.)
    var cacheControl: String? {
        storage?.read { payload, used, consulted in
            if used, !payload.values.isEmpty { return "private, no-store" }
            return used || consulted ? "private, no-cache" : nil
        }
    }

    /// What a page validator may key on: the cookie the session came from (empty without one)
    /// when it holds nothing (empty when detached); `nil` when it holds values, or its cookie was not valid (expired,
    /// forged), so the answer will replace it. Reading it does not count as using the session.
    var validatorIdentity: String? {
        guard let storage else { return "" }  // detached: nothing to vary with
        guard let source = storage.loadedFrom else { return nil }
        guard let cookie = source.cookie else { return "" }
        guard let payload = storage.fromCookie, payload.values.isEmpty else { return nil }
        return cookie
    }

    /// Whether the answer leaves the session as its cookie had it (no cookie to set) and it
    /// holds nothing: only then may a page's version be kept for the next request's cookie.
    var isUnchangedAndHoldsNothing: Bool {
        guard let storage else { return true }
        return storage.payloadToSave() == nil && storage.read { payload, _, _ in payload.values.isEmpty }
    }

    /// The session's state, shared by every copy of the request's context (regions run
    /// concurrently, so it is locked).
    ///
    /// A new session's id is drawn from the system's generator only when something asks for
    /// it or keeps something: most answers never do.
    private final class Storage: Sendable {
        private struct State {
            var payload: SessionRecord
            var modified = false
            /// Whether the answer found a value or changed the session.
            var used = false
            /// Whether the answer asked the session anything, found or not.
            var consulted = false

            /// Draws what the session lacks: an id for a new session.
            mutating func complete() {
                if payload.id.isEmpty { payload.id = SessionCodec.newIdentifier() }
            }
        }

        private let state: Mutex<State>
        /// The payload as loaded, before anything was drawn or changed.
        let fromCookie: SessionRecord?
        /// The cookie it came from; `nil` for a session that was not loaded from a request.
        let loadedFrom: Loaded.Source?

        /// Whether nothing written is ever saved (``Session/nobodys()``).
        let keepsNothing: Bool

        /// `sealAgain`: the cookie was sealed with a previous secret, so the answer sets it again.
        init(payload: SessionRecord?, loadedFrom: Loaded.Source? = nil, sealAgain: Bool = false, keepsNothing: Bool = false) {
            state = Mutex(State(payload: payload ?? Self.newPayload(), modified: sealAgain))
            fromCookie = payload
            self.loadedFrom = loadedFrom
            self.keepsNothing = keepsNothing
        }

        /// A session with nothing drawn yet (see ``State/complete()``).
        static func newPayload() -> SessionRecord {
            SessionRecord(id: [], expires: 0, values: [:])
        }

        func read<T>(_ body: (SessionRecord) -> T) -> T {
            state.withLock { state in
                state.complete()
                return body(state.payload)
            }
        }

        func read<T>(_ body: (SessionRecord, _ used: Bool, _ consulted: Bool) -> T) -> T {
            state.withLock { body($0.payload, $0.used, $0.consulted) }
        }

        /// The value under `key`. Finding one makes the answer depend on the session (see
        /// ``Session/cacheControl``); finding none does not, so asking an anonymous session who
        /// is signed in leaves the answer cacheable.
        func value(_ key: String) -> String? {
            state.withLock { state in
                let value = state.payload.values[key]
                state.consulted = true
                if value != nil { state.used = true }
                return value
            }
        }

        func change(_ body: (inout SessionRecord) -> Bool) {
            state.withLock { state in
                state.complete()
                state.used = true
                if body(&state.payload) {
                    state.modified = true
                    state.complete()
                }
            }
        }

        func payloadToSave() -> SessionRecord? {
            state.withLock { state in
                guard state.modified, !keepsNothing else { return nil }
                state.complete()
                return state.payload
            }
        }
    }
}

import Foundation
import Synchronization

/// The visitor's session: a few strings, kept in a signed cookie.
///
/// It is read from the cookie the first time something asks, so requests that never touch the
/// session pay nothing. Changing it makes the response carry a new cookie. ``rotate()`` gives it
/// a new identity, which sign-in must do so that a session id planted before sign-in is worthless.
public final class Session: Sendable {
    private struct State {
        var payload: SessionCodec.Payload?
        var modified = false
    }

    private let cookie: String?
    private let codec: SessionCodec?
    private let state = Mutex(State())

    init(cookie: String?, codec: SessionCodec?) {
        self.cookie = cookie
        self.codec = codec
    }

    private func withPayload<T>(_ body: (inout SessionCodec.Payload, inout Bool) -> T) -> T {
        state.withLock { state in
            if state.payload == nil {
                state.payload = cookie.flatMap { codec?.decode($0) } ?? SessionCodec.Payload(id: SessionCodec.newIdentifier(), expires: 0, values: [:])
            }
            return body(&state.payload!, &state.modified)
        }
    }

    public var id: String {
        withPayload { payload, _ in payload.id }
    }

    public subscript(key: String) -> String? {
        get { withPayload { payload, _ in payload.values[key] } }
        set {
            withPayload { payload, modified in
                guard payload.values[key] != newValue else { return }
                payload.values[key] = newValue
                modified = true
            }
        }
    }

    /// A new id for the same values: call it on sign-in and sign-out.
    public func rotate() {
        withPayload { payload, modified in
            payload.id = SessionCodec.newIdentifier()
            modified = true
        }
    }

    /// Forgets everything, and rotates.
    public func clear() {
        withPayload { payload, modified in
            payload = SessionCodec.Payload(id: SessionCodec.newIdentifier(), expires: 0, values: [:])
            modified = true
        }
    }

    /// The `Set-Cookie` value when the session changed, else `nil`.
    func setCookie(_ configuration: SessionConfiguration, now: Date = Date()) -> String? {
        state.withLock { state -> String? in
            guard state.modified, var payload = state.payload else { return nil }
            let maxAge = configuration.maxAge.components.seconds
            payload.expires = Int64(now.timeIntervalSince1970) + maxAge
            let value = configuration.codec.encode(payload)
            return "\(configuration.cookieName)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax"
                + (configuration.secureCookies ? "; Secure" : "")
        }
    }
}

import Foundation
import Synchronization
import Tessera

/// A browser's worth of state for tests: it keeps the session cookie between requests and reads
/// the CSRF token out of pages, so a test can click through a flow like a visitor, in process or
/// over a real socket alike.
public final class TestClient: Sendable {
    /// How requests reach the app: in process or over a socket.
    public let transport: any TestTransport
    /// The cookies the server set, by name, in the order they came: a browser's cookie jar
    /// for one site, without expiry.
    private let jar = Mutex<[(name: String, value: String)]>([])

    /// The `Cookie` header sent with every request (`session=…; lang=de`), or `nil` before the
    /// server set any; setting it replaces every cookie, as a test that copies a session does.
    public var cookie: String? {
        get { jar.withLock { jar in jar.isEmpty ? nil : jar.map { "\($0.name)=\($0.value)" }.joined(separator: "; ") } }
        set {
            jar.withLock { $0 = [] }
            for pair in (newValue ?? "").split(separator: ";") { store(String(pair).trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// Keeps `name=value`, replacing a cookie of that name; with `deleting` (`Max-Age=0`), only
    /// forgets it, as a browser does.
    private func store(_ pair: String, deleting: Bool = false) {
        guard let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
        jar.withLock { jar in
            jar.removeAll { $0.name == name }
            if !deleting { jar.append((name, value)) }
        }
    }

    /// A client with no cookie yet, sending through `transport`.
    public init(_ transport: any TestTransport) {
        self.transport = transport
    }

    /// A client of a live server on `port`.
    public convenience init(port: Int) {
        self.init(LiveTransport(port: port))
    }

    /// Sends a request with the cookie; `form` is sent urlencoded. Stores any new cookie.
    @discardableResult
    public func send(_ target: String, method: String = "GET", form: String? = nil, headers: [String: String] = [:]) async throws -> TestResponse {
        var fields = headers.map { ($0.key, $0.value) }
        if let cookie { fields.append(("Cookie", cookie)) }
        if form != nil { fields.append(("Content-Type", "application/x-www-form-urlencoded")) }
        let response = try await transport.execute(method: method, target: target, headers: fields, body: Array((form ?? "").utf8))
        for setCookie in response.headers("set-cookie") {
            store(String(setCookie.prefix { $0 != ";" }), deleting: setCookie.contains("Max-Age=0"))
        }
        return response
    }

    /// Gets `page`, then posts `form` (urlencoded, what the visitor fills in) to `action`, as a
    /// browser submits the page's form: with its hidden fields that `form` does not set.
    public func submit(from page: String, to action: String, form: String) async throws -> TestResponse {
        let reply = try await send(page)
        let hidden = reply.hiddenFields(ofFormTo: action)
        let filled = Set(form.split(separator: "&").map { String($0.prefix { $0 != "=" }) })
        let fields = hidden.filter { !filled.contains($0.name) }.map { URLEncoding.queryValue($0.name) + "=" + URLEncoding.queryValue($0.value) }
        return try await send(action, method: "POST", form: ([form] + fields).filter { !$0.isEmpty }.joined(separator: "&"))
    }
}

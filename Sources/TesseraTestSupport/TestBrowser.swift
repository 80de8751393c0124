import Foundation

/// A browser's worth of state for HTTP tests: it keeps the session cookie between requests and
/// reads the CSRF token out of pages, so a test can click through a flow like a visitor.
public final class TestBrowser: @unchecked Sendable {
    // @unchecked: one test drives one browser, one request at a time.
    public let port: Int
    public var cookie: String?

    public init(port: Int) {
        self.port = port
    }

    /// Sends a request with the cookie; `form` is sent urlencoded. Stores any new cookie.
    public func send(_ target: String, method: String = "GET", form: String? = nil, headers: [String: String] = [:]) async throws -> RawHTTPClient.Reply {
        var allHeaders = headers
        if let cookie { allHeaders["Cookie"] = cookie }
        if form != nil { allHeaders["Content-Type"] = "application/x-www-form-urlencoded" }
        let port = self.port
        let finalHeaders = allHeaders
        let reply = try await onThread {
            try RawHTTPClient.request(port: port, target, method: method, headers: finalHeaders, body: Array((form ?? "").utf8))
        }
        if let setCookie = reply.header("set-cookie") {
            cookie = String(setCookie.prefix { $0 != ";" })
        }
        return reply
    }

    /// Gets `page`, then posts `form` (urlencoded, without the token) to `action` with the page's CSRF token.
    public func submit(from page: String, to action: String, form: String) async throws -> RawHTTPClient.Reply {
        let token = try await send(page).csrfToken ?? ""
        return try await send(action, method: "POST", form: form + "&_csrf=" + token)
    }
}

extension RawHTTPClient.Reply {
    /// The CSRF token from the page's hidden field.
    public var csrfToken: String? {
        guard let range = text.range(of: #"name="_csrf" value=""#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// A `storefront` process on a new data directory, for one test: starting it migrates and seeds
/// the database; it is stopped with SIGTERM afterwards, and must exit 0.
public struct TestStorefront: Sendable {
    public let port: Int

    public func get(_ target: String) async throws -> RawHTTPClient.Reply {
        let port = self.port
        return try await onThread { try RawHTTPClient.request(port: port, target) }
    }

    public static func run(_ body: (TestStorefront) async throws -> Void) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-shop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let harness = try ProcessHarness(
            product: "storefront",
            environment: ["PORT": "0", "HOST": "127.0.0.1", "DATA_DIR": data.path, "LOG_LEVEL": "notice"],
            workingDirectory: ProcessHarness.packageRoot
        )
        do {
            try await body(TestStorefront(port: try await harness.waitForPort()))
        } catch {
            harness.signal(SIGTERM)
            _ = try? await harness.waitForExit()
            throw error
        }
        harness.signal(SIGTERM)
        guard try await harness.waitForExit() == 0 else { throw ProcessHarness.HarnessError.didNotExit(log: harness.log) }
    }
}

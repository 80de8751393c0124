import HTTPTypes

/// An answer that never changes (a health check, a robots.txt, a fixed page), built into a
/// libmicrohttpd response the first time it is sent and reused after that, the way a C server
/// sends a constant page. Keep one in a `static let` and return ``response`` from a handler.
///
/// Reuse is skipped, with the same bytes sent, when the response was changed after it was taken
/// from here (extra headers, another status), or while the server shuts down and adds
/// `Connection: close`.
public final class PreparedResponse: Sendable {
    /// The status it always answers with.
    public let status: HTTPResponse.Status
    /// The fields it always sends.
    public let headers: HTTPFields
    /// The body it always sends.
    public let body: [UInt8]
    let native = NativeResponseCache()

    /// Builds the answer once; the server reuses it for every request.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` prepared response.
    public convenience init(text: String, status: HTTPResponse.Status = .ok) {
        self.init(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// The response to return from a handler.
    public var response: Response {
        Response(prepared: self)
    }
}

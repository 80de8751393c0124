import HTTPTypes

/// One HTTP request, fully read, with its path already decoded and validated.
///
/// It is a value: handlers may pass it around, copy it and change it (a middleware that rewrites
/// the path, say) without affecting anyone else. The body is read before the handler runs, within
/// ``HTTPServerLimits/maxBodyBytes``, so a handler never deals with a half-received request.
public struct Request: Sendable {
    /// The method, such as `GET`.
    public var method: HTTPRequest.Method
    /// The decoded path, such as `/products/12`. Never contains `.`/`..` segments, `%2F` or NUL.
    public var path: String
    /// The target as the client sent it (path and query, still encoded). Useful for logs and redirects.
    public var target: String
    /// The decoded query string.
    public var query: QueryParameters
    /// Header fields; names match case-insensitively (`headers[.contentType]`).
    public var headers: RequestHeaders
    /// The address of the client's end of the connection (a proxy's, behind one).
    public var remoteAddress: IPAddress?
    /// The client's address: ``remoteAddress``, or behind a trusted proxy the client it reports
    /// (see ``TrustedProxies``). Use this one to tell clients apart, as a throttle does.
    public var clientAddress: IPAddress?
    /// Whether the client reached the site over HTTPS, as a trusted TLS-terminating proxy says.
    public var isSecure: Bool
    /// The whole body, read within the server's limit before the handler runs; empty when the
    /// body was written to disk instead (``spooledBody``).
    public var body: [UInt8]
    /// A `multipart/form-data` body larger than ``HTTPServerLimits/maxBodyBytes``, written to a
    /// temporary file as it arrived (up to ``HTTPServerLimits/maxUploadBytes``): ``form()``
    /// reads it in pieces, and its files stay on disk.
    public var spooledBody: SpooledFile?
    /// The id on every log line of this request, sent back as `X-Request-ID` (``RequestID``);
    /// empty for a request made by hand.
    public var id: String

    /// A request from its parts, for tests and tools; the server builds its own.
    public init(
        method: HTTPRequest.Method,
        path: String,
        target: String? = nil,
        query: QueryParameters = QueryParameters(),
        headers: RequestHeaders = [:],
        remoteAddress: IPAddress? = nil,
        clientAddress: IPAddress? = nil,
        isSecure: Bool = false,
        body: [UInt8] = [],
        spooledBody: SpooledFile? = nil,
        id: String = ""
    ) {
        self.id = id
        self.spooledBody = spooledBody
        self.method = method
        self.path = path
        self.target = target ?? path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.clientAddress = clientAddress ?? remoteAddress
        self.isSecure = isSecure
        self.body = body
    }

    /// The request's cookies, parsed from every `Cookie` header.
    public var cookies: Cookies {
        Cookies(headerValues: headers[values: .cookie])
    }

    /// The body decoded as a form, from `application/x-www-form-urlencoded` or `multipart/form-data`.
    ///
    /// The files of a small body stay in memory; those of a spooled one stay on disk. Either
    /// way they are put in place only when the handler asks, with ``UploadedFile/write(into:)``.
    ///
    /// A spooled body is parsed once, however often it is asked for (the CSRF check, then the
    /// handler): its files are copied out of it only then.
    public func form() throws(HTTPError) -> FormData {
        guard let spooledBody else { return try FormData(body: body, contentType: headers[.contentType]) }
        let contentType = headers[.contentType]
        return try spooledBody.parsedForm { () throws(HTTPError) in try FormData(body: [], spooled: spooledBody, contentType: contentType) }
    }
}

extension Request {
    /// The request the server would build for `target` (`/path?query`, still encoded): the path
    /// decoded and checked, the query parsed, exactly as for a request off the wire. For tests
    /// that send requests without a socket, and for tools.
    ///
    /// Throws the same 400 as the server for a target it refuses (`%2F`, `..`, bad UTF-8).
    public init(method: HTTPRequest.Method, target: String, headers: RequestHeaders = [:], body: [UInt8] = []) throws(HTTPError) {
        let parsed = try RequestTarget.parse(target)
        self.init(method: method, path: parsed.path, target: target, query: parsed.query, headers: headers, body: body)
    }
}

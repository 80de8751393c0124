import HTTPTypes
import Synchronization

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
    /// The whole body, read within the server's limit before the handler runs: in memory, or, for
    /// a `multipart/form-data` body larger than ``HTTPServerLimits/maxBodyBytes``, written to a
    /// temporary file as it arrived (up to ``HTTPServerLimits/maxUploadBytes``), which
    /// ``form()`` reads in pieces, its files staying on disk.
    public var body: RequestBody {
        didSet { parsedForm = ParsedForm(for: body) }
    }
    /// The form read from ``body``, once: the CSRF check and the handler both ask for it. None
    /// for a request without a body, most of them, which then costs nothing.
    private var parsedForm: ParsedForm?
    /// The id on every log line of this request, sent back as `X-Request-ID` (``RequestID``);
    /// empty for a request made by hand.
    public var id: String
    /// What logs and traces show instead of the target and path, when the path holds a secret
    /// (``SecretPaths``): the route's pattern.
    public let secretShownAs: String?

    /// The target as logs show it: ``target``, or the route's pattern when the path holds a secret.
    public var loggedTarget: String { secretShownAs ?? target }
    /// The path as logs and traces show it: ``path``, or the route's pattern when it holds a secret.
    public var loggedPath: String { secretShownAs ?? path }

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
        body: RequestBody = .empty,
        id: String = "",
        secretShownAs: String? = nil
    ) {
        self.id = id
        self.secretShownAs = secretShownAs
        self.method = method
        self.path = path
        self.target = target ?? path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.clientAddress = clientAddress ?? remoteAddress
        self.isSecure = isSecure
        self.body = body
        self.parsedForm = ParsedForm(for: body)
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
    /// The body is parsed once for its content type, however often it is asked for (the CSRF
    /// check, then the handler): a spooled body's files are copied out of it only then.
    public func form() throws(HTTPError) -> FormData {
        let contentType = headers[.contentType]
        let body = self.body
        guard let parsedForm else { return try FormData(body: body, contentType: contentType) }
        return try parsedForm.form(for: contentType) { () throws(HTTPError) in try FormData(body: body, contentType: contentType) }
    }

    /// The form a request's body was read as, kept by every copy of the request until its body
    /// changes (a new one then), for the content type it was read with.
    private final class ParsedForm: Sendable {
        private let kept = Mutex<(contentType: String?, form: Result<FormData, HTTPError>)?>(nil)

        /// A place for `body`'s form; none for an empty body, whose form costs nothing to read.
        init?(for body: RequestBody) {
            if body.isEmpty { return nil }
        }

        func form(for contentType: String?, _ parse: () throws(HTTPError) -> FormData) throws(HTTPError) -> FormData {
            let result = kept.withLock { kept in
                if let kept, kept.contentType == contentType { return kept.form }
                let form: Result<FormData, HTTPError> = Result { () throws(HTTPError) in try parse() }
                kept = (contentType, form)
                return form
            }
            return try result.get()
        }
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
        self.init(method: method, path: parsed.path, target: target, query: parsed.query, headers: headers, body: .memory(body))
    }
}

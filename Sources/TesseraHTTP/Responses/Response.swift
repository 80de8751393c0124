import HTTPTypes

/// What a handler answers: a status, header fields and a body.
///
/// The server adds `Date` and `Content-Length` (or chunked framing) itself, and answers `HEAD`
/// from the same response without sending the body, so handlers never special-case either.
public struct Response: Sendable {
    /// The status code and reason.
    public var status: HTTPResponse.Status
    /// The header fields; the server adds `Date` and the length or chunked framing itself.
    public var headers: HTTPFields {
        didSet { isPreparedAsIs = false }
    }
    /// What is sent after the head.
    public var body: ResponseBody {
        didSet { isPreparedAsIs = false }
    }
    /// The trace this answer belongs to, when the app traces: the access log line carries it
    /// (`trace_id`), as the request's other lines do. Not sent.
    public var traceID: String?
    /// True while this is a ``PreparedResponse``'s answer with its headers untouched, so the
    /// server can send the response it built once. Cheaper than comparing the headers.
    private(set) var isPreparedAsIs = false

    /// A response from its parts.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(prepared: PreparedResponse) {
        self.init(status: prepared.status, headers: prepared.headers, body: .prepared(prepared))
        isPreparedAsIs = true
    }

    /// Whether the body is a page (`Content-Type: text/html…`): the steps that concern only
    /// pages (the session's token cookie, the language, the dev reloader) ask it of every
    /// answer, so it reads the field in place, not through `headers[.contentType]`, which joins
    /// repeated fields into a new string.
    public var isHTML: Bool {
        headers.first(where: { $0.name == .contentType })?.value.utf8.starts(with: "text/html".utf8) ?? false
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .bytes(Array(text.utf8)))
    }

    /// A `text/html; charset=utf-8` response from bytes that are already HTML.
    public static func html(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    /// A redirect; 303 by default, the right answer after a successful POST.
    public static func redirect(to location: String, status: HTTPResponse.Status = .seeOther) -> Response {
        Response(status: status, headers: [.location: location])
    }
}

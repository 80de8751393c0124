import HTTPTypes
import TesseraViews

/// Answers what went wrong: an error the server found itself (a 413 before the body was read, a
/// 400 for a bad target) or anything the responder threw.
///
/// The server knows nothing of layouts; the framework's application plugs in a responder that
/// renders error pages inside the site's layout. Without one, ``PlainErrorResponder`` answers.
public protocol HTTPErrorResponder: Sendable {
    /// `request` is as complete as the server could make it: for a request refused before its
    /// body was read, the body is empty, and for a malformed target, the path is empty.
    /// `error` is anything; ``ThrownError/answer(for:revealingDetails:)`` says what it means.
    func response(for error: any Error, to request: Request) async -> Response
}

/// A small, self-contained error page: HTML for browsers, JSON for clients that ask for it.
public struct PlainErrorResponder: HTTPErrorResponder {
    /// The plain responder: no layout, no session.
    public init() {}

    /// A small page in the error's status, or its JSON when the client prefers JSON.
    public func response(for error: any Error, to request: Request) async -> Response {
        let answer = ThrownError.answer(for: error)
        if AcceptHeader(request.headers[.accept]).prefersJSON { return .json(answer) }
        var page = HTMLOutput(capacity: 512)
        page.write(static: "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        page.text("\(answer.status.code) \(answer.status.reasonPhrase)")
        page.write(static: "</title></head>\n<body><main><h1>")
        page.text("\(answer.status.code) \(answer.status.reasonPhrase)")
        page.write(static: "</h1><p>")
        page.text(ControlCharacters.removed(from: answer.publicMessage))
        page.write(static: "</p></main></body></html>\n")
        var response = Response.html(page.bytes, status: answer.status)
        response.headers.append(contentsOf: answer.headers)
        return response
    }
}

extension Response {
    /// The JSON answer to an error, the same everywhere: `{"error": {"status": 404, "message": "…"}}`,
    /// with the error's own header fields.
    public static func json(_ error: some HTTPResponseError) -> Response {
        var response = Response(
            status: error.status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .bytes(Array(ErrorJSON.encode(status: error.status.code, message: ControlCharacters.removed(from: error.publicMessage)).utf8))
        )
        response.headers.append(contentsOf: error.headers)
        return response
    }
}

/// The JSON error shape shared by every error answer: `{"error": {"message": "…", "status": 404}}`,
/// encoded by the same escaper as the templates' `json` filter, so it is safe to embed in HTML too.
public enum ErrorJSON {
    private struct Body: Encodable {
        struct Detail: Encodable {
            let status: Int
            let message: String
        }
        let error: Detail
    }

    /// The body for `status` and `message`.
    public static func encode(status: Int, message: String) -> String {
        ScriptJSON(Body(error: Body.Detail(status: status, message: message))).encoded
    }
}

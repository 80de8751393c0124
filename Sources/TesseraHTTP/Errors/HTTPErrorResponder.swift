import Foundation
import HTTPTypes
import TesseraJSON

/// Answers what went wrong: an error the server found itself (a 413 before the body was read, a
/// 400 for a bad target) or anything the responder threw.
///
/// The server knows nothing of layouts; the framework's application plugs in a responder that
/// renders error pages inside the site's layout. Without one, ``PlainErrorResponder`` answers.
public protocol HTTPErrorResponder: Sendable {
    /// The answer to `error`: now, when it needs no waiting, or the work that makes it later.
    ///
    /// `request` is as complete as the server could make it: for a request refused before its
    /// body was read, the body is empty, and for a malformed target, the path is empty.
    /// `error` is anything; ``ThrownError/answer(for:revealingDetails:)`` says what it means.
    /// For the few refusals libmicrohttpd makes inside its parser, where nothing can wait, only
    /// an answer ready now is used; a later one leaves libmicrohttpd's own short text. Should the
    /// later work throw, the server answers with ``PlainErrorResponder``'s page.
    func answer(for error: any Error, to request: Request) -> NowOrLater<Void, Response>
}

extension HTTPErrorResponder {
    /// The answer to `error`, waiting for it when it must; ``PlainErrorResponder``'s page if the
    /// work throws.
    public func response(for error: any Error, to request: Request) async -> Response {
        do {
            return try await answer(for: error, to: request).value()
        } catch {
            return PlainErrorResponder().page(for: error, to: request)
        }
    }
}

/// A small, self-contained error page: HTML for browsers, JSON for clients that ask for it.
public struct PlainErrorResponder: HTTPErrorResponder {
    /// The plain responder: no layout, no session.
    public init() {}

    /// A small page in the error's status, or its JSON when the client prefers JSON, now.
    public func answer(for error: any Error, to request: Request) -> NowOrLater<Void, Response> {
        .now(page(for: error, to: request))
    }

    /// The page itself, for the server's own thread when it cannot wait.
    func page(for error: any Error, to request: Request) -> Response {
        let answer = ThrownError.answer(for: error)
        if AcceptHeader(request.headers[.accept]).prefersJSON { return .json(answer) }
        let title = ErrorText.html("\(answer.status.code) \(answer.status.reasonPhrase)")
        let page =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(title)</title></head>\n"
            + "<body><main><h1>\(title)</h1><p>\(ErrorText.html(ControlCharacters.removed(from: answer.publicMessage)))</p></main></body></html>\n"
        var response = Response.html(Array(page.utf8), status: answer.status)
        response.headers.append(contentsOf: answer.headers)
        return response
    }
}

extension Response {
    /// The JSON answer to an error, the same everywhere: `{"error": {"status": 404, "message": "…"}}`,
    /// with the error's own header fields. `nosniff`: a browser reads it as JSON, never as a page.
    public static func json(_ error: some HTTPResponseError) -> Response {
        var response = Response(
            status: error.status,
            headers: [.contentType: "application/json; charset=utf-8", .xContentTypeOptions: "nosniff"],
            body: .bytes(Array(ErrorJSON.encode(status: error.status.code, message: ControlCharacters.removed(from: error.publicMessage)).utf8))
        )
        response.headers.append(contentsOf: error.headers)
        return response
    }
}

/// The JSON error shape shared by every error answer: `{"error": {"message": "…", "status": 404}}`.
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
        (try? JSONWriter(sortsKeys: true).string(Body(error: Body.Detail(status: status, message: message)))) ?? "null"
    }
}

/// The escape an error's text needs on the server's own page: this layer has no views, and
/// their escaping (TesseraViews' `HTMLEscaping`) sits above it.
enum ErrorText {
    /// `text` inside an HTML element or attribute.
    static func html(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

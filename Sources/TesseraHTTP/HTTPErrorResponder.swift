import HTTPTypes

/// Renders the answer to an error, whether the server found it (a 413 before the body was read,
/// a 400 for a bad path) or a handler threw it.
///
/// The server knows nothing of layouts; the framework plugs in a responder that renders error
/// pages inside the site's layout. Until then, ``PlainErrorResponder`` answers.
public protocol HTTPErrorResponder: Sendable {
    /// `request` is as complete as the server could make it: for a request refused before its
    /// body was read, the body is empty, and for a malformed target, the path is empty.
    func response(for error: HTTPError, to request: Request) async -> Response
}

/// A small, self-contained error page: HTML for browsers, JSON for clients that ask for it.
public struct PlainErrorResponder: HTTPErrorResponder {
    public init() {}

    public func response(for error: HTTPError, to request: Request) async -> Response {
        var response: Response
        if AcceptHeader(request.headers[.accept]).prefersJSON {
            response = Response(
                status: error.status,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .bytes(Array(ErrorJSON.encode(status: error.status.code, message: error.message).utf8))
            )
        } else {
            let title = HTMLText.escape("\(error.status.code) \(error.status.reasonPhrase)")
            let page = """
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>\(title)</title></head>
                <body><main><h1>\(title)</h1><p>\(HTMLText.escape(error.message))</p></main></body></html>

                """
            response = Response(status: error.status, headers: [.contentType: "text/html; charset=utf-8"], body: .bytes(Array(page.utf8)))
        }
        response.headers.append(contentsOf: error.headers)
        return response
    }
}

/// The JSON error shape shared by every error answer: `{"error": {"status": 404, "message": "…"}}`.
public enum ErrorJSON {
    public static func encode(status: Int, message: String) -> String {
        "{\"error\":{\"status\":\(status),\"message\":\"\(escape(message))\"}}"
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "<": escaped += "\\u003c"  // safe to embed in HTML too
            case _ where scalar.value < 0x20:
                escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// Minimal HTML text escaping for the server's own pages. Templates have their own, stricter escaper.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

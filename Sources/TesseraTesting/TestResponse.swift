import Foundation

/// A response as a test sees it, whichever way it was sent: status, header fields in order, and
/// the whole body (a streamed one collected).
public struct TestResponse: Sendable {
    /// The status code, such as 404.
    public var status: Int
    /// The header fields, in the order they were sent, names as sent.
    public var headers: [(String, String)]
    /// The whole body; a streamed or chunked one is collected.
    public var body: [UInt8]

    /// A response as a transport read it.
    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first field named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Every field named `name`, such as each `Set-Cookie`.
    public func headers(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }

    /// The hidden fields of the page's first form that posts to `action`, names and values decoded: what a browser sends along with what the visitor typed.
    /// Empty when the page has no such form.
    public func hiddenFields(ofFormTo action: String) -> [(name: String, value: String)] {
        let markup = self.markup
        guard let form = markup.tags.first(where: { $0.name == "form" && $0["action"] == action }) else { return [] }
        var fields: [(name: String, value: String)] = []
        for tag in markup.after(form).tags {
            if tag.name == "form" { break }
            if tag.name == "input", tag["type"] == "hidden", let name = tag["name"] { fields.append((name, tag["value"] ?? "")) }
        }
        return fields
    }
}

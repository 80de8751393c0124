import Foundation

/// The start tags of an HTML document, with their attributes decoded, so that tests read the
/// scraping contract (`data-order-id`, `data-view`, `data-price-minor`…) as a scraper would,
/// instead of matching exact strings of markup.
public struct Markup: Sendable {
    /// One start tag: its name, its attributes (entities decoded) and where it starts.
    public struct Tag: Sendable, Equatable {
        /// The tag name, lowercased.
        public var name: String
        /// The attributes by name, values with their entities decoded.
        public var attributes: [String: String]
        /// The tag's position in the document, to compare document order.
        public var offset: Int

        /// The value of `attribute`, if the tag has it.
        public subscript(attribute: String) -> String? { attributes[attribute] }
    }

    /// Every start tag of the page, in document order.
    public let tags: [Tag]

    /// Scans `html` for its start tags.
    public init(_ html: String) {
        let tagPattern = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=\/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/
        let attributePattern = /([^\s=\/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/
        var tags: [Tag] = []
        for match in html.matches(of: tagPattern) {
            var attributes: [String: String] = [:]
            for attribute in match.output.2.matches(of: attributePattern) {
                let value = attribute.output.2 ?? attribute.output.3 ?? attribute.output.4 ?? ""
                attributes[attribute.output.1.lowercased()] = Self.decode(String(value))
            }
            tags.append(
                Tag(
                    name: match.output.1.lowercased(), attributes: attributes,
                    offset: html.utf8.distance(from: html.startIndex, to: match.range.lowerBound)))
        }
        self.tags = tags
    }

    /// Every tag that has `attribute`, optionally with that exact value.
    public func tags(with attribute: String, equalTo value: String? = nil) -> [Tag] {
        tags.filter { tag in tag[attribute].map { value == nil || $0 == value } ?? false }
    }

    /// The first tag that has `attribute` (with `value`, if given).
    public func first(_ attribute: String, equalTo value: String? = nil) -> Tag? {
        tags(with: attribute, equalTo: value).first
    }

    /// The tags after `tag` in document order: inside it and beyond.
    public func after(_ tag: Tag) -> Markup {
        Markup(tags: tags.filter { $0.offset > tag.offset })
    }

    init(tags: [Tag]) {
        self.tags = tags
    }

    /// The names of the views in the document, in order (`data-view`).
    public var views: [String] { tags(with: "data-view").compactMap { $0["data-view"] } }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

extension TestResponse {
    /// The reply's body as parsed markup.
    public var markup: Markup { Markup(text) }
}

/// An `If-None-Match` field (RFC 9110 §13.1.2): a list of entity tags, or `*`, compared weakly,
/// as that field always is, so `W/"x"` and `"x"` match.
struct EntityTagList {
    private let field: String

    init(_ field: String) {
        self.field = field
    }

    /// Whether the list names any of `tags` (each written `"…"` or `W/"…"`), or is `*`.
    func matches(_ tags: String...) -> Bool {
        let opaque = tags.map(Self.opaque)
        return field.split(separator: ",").contains { listed in
            let tag = listed.trimmingCharacters(in: " \t")
            return tag == "*" || opaque.contains(Self.opaque(tag))
        }
    }

    private static func opaque(_ tag: some StringProtocol) -> Substring {
        let tag = Substring(tag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

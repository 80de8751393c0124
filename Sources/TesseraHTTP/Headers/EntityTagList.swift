/// An `If-None-Match` field (RFC 9110 §13.1.2): a list of entity tags, or `*`, compared weakly,
/// as that field always is, so `W/"x"` and `"x"` match.
package struct EntityTagList {
    private let field: String

    package init(_ field: String) {
        self.field = field
    }

    /// Whether the list names `tag` (written `"…"` or `W/"…"`), or is `*`.
    package func matches(_ tag: String) -> Bool {
        var tag = tag
        return tag.withUTF8 { tag in
            let wanted = Self.opaque(tag)
            return FieldList.contains(field) { listed in
                (listed.count == 1 && listed[0] == UInt8(ascii: "*")) || Self.opaque(listed).elementsEqual(wanted)
            }
        }
    }

    /// The tag without its weakness mark, `W/`.
    private static func opaque(_ tag: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        tag.starts(with: "W/".utf8) ? tag.dropFirst(2) : tag[...]
    }
}

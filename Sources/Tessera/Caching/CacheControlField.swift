/// A `Cache-Control` field's directives, read byte by byte: the steps that shape every answer
/// ask it on the way out, and Foundation's substring search was a measurable part of a 304.
struct CacheControlField {
    private let field: String

    init(_ field: String) {
        self.field = field
    }

    /// Whether it names `directive` (lowercase ASCII), with or without a value.
    func has(_ directive: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: directive.utf8Start, count: directive.utf8CodeUnitCount)
        return field.utf8.split(separator: UInt8(ascii: ",")).contains { piece in
            let name = piece.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                .prefix { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            return name.elementsEqual(wanted) { $0 | 0x20 == $1 }
        }
    }
}

import TesseraHTTP

/// A `Cache-Control` field's directives: the steps that shape every answer ask it on the way out.
struct CacheControlField {
    private let field: String

    init(_ field: String) {
        self.field = field
    }

    /// Whether it names `directive` (lowercase ASCII), with or without a value.
    func has(_ directive: StaticString) -> Bool {
        FieldList.contains(field) { element in
            let name = element.prefix { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            return FieldList.element(UnsafeBufferPointer(rebasing: name), equalsIgnoringCase: directive)
        }
    }
}

import HTTPTypes
import TesseraHTTP

/// An answer's `Cache-Control` directives, every field of it read in place: the steps that shape
/// every answer ask it on the way out, and reading `headers[.cacheControl]` joins the fields
/// into a new string first.
struct CacheControlField {
    private let fields: HTTPFields

    /// The directives of `fields`' `Cache-Control` fields.
    init(_ fields: HTTPFields) {
        self.fields = fields
    }

    /// The directives of one field's value.
    init(_ field: String) {
        self.init([.cacheControl: field])
    }

    /// Whether it names `directive` (lowercase ASCII), with or without a value.
    func has(_ directive: StaticString) -> Bool {
        fields.contains { field in
            field.name == .cacheControl && FieldList.contains(field.value) { element in
                let name = element.prefix { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
                return FieldList.element(UnsafeBufferPointer(rebasing: name), equalsIgnoringCase: directive)
            }
        }
    }
}

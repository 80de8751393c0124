import HTTPTypes

/// An answer's `Cache-Control` directives, read in place: the steps that shape every answer ask
/// it on the way out, and reading `headers[.cacheControl]` joins the fields into a new string
/// first.
package struct CacheControlField {
    private enum Source {
        case fields(HTTPFields)
        case value(String)
    }

    private let source: Source

    /// The directives of `fields`' `Cache-Control` fields, all of them.
    package init(_ fields: HTTPFields) {
        source = .fields(fields)
    }

    /// The directives of one field's value.
    package init(_ field: String) {
        source = .value(field)
    }

    /// Whether it names `directive` (lowercase ASCII), with or without a value.
    package func has(_ directive: StaticString) -> Bool {
        switch source {
        case .fields(let fields): fields.contains { $0.name == .cacheControl && Self.names(directive, in: $0.value) }
        case .value(let value): Self.names(directive, in: value)
        }
    }

    private static func names(_ directive: StaticString, in value: String) -> Bool {
        FieldList.contains(value) { element in
            let name = element.prefix { $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            return FieldList.element(UnsafeBufferPointer(rebasing: name), equalsIgnoringCase: directive)
        }
    }
}

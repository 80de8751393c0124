/// A comma-separated field value (RFC 9110 §5.6.1: `Vary`, `Cache-Control`, `If-None-Match`),
/// walked in place: the steps that shape every answer read these on the way out, and
/// splitting them into strings was a measurable part of a 304.
package enum FieldList {
    /// Whether some element of `field`, without the spaces and tabs around it, satisfies `test`.
    package static func contains(_ field: String, where test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var field = field
        return field.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start, last = end
                while first < last, isSpace(bytes[first]) { first += 1 }
                while first < last, isSpace(bytes[last - 1]) { last -= 1 }
                if first < last, test(UnsafeBufferPointer(rebasing: bytes[first..<last])) { return true }
                start = end + 1
            }
            return false
        }
    }

    /// Whether `element` is `name`, ASCII letters compared without case.
    package static func element(_ element: UnsafeBufferPointer<UInt8>, equalsIgnoringCase name: UnsafeBufferPointer<UInt8>) -> Bool {
        element.count == name.count && zip(element, name).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    /// Whether `element` is `name` (ASCII), letters compared without case.
    package static func element(_ element: UnsafeBufferPointer<UInt8>, equalsIgnoringCase name: StaticString) -> Bool {
        self.element(element, equalsIgnoringCase: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

import Foundation

/// How single values become bytes: strings escaped as JSON requires (and as `<script>` does when
/// asked), integers digit by digit, floating point in its shortest form that reads back the same.
extension JSONWritingState {
    /// Writes `value` if it is one of JSON's own kinds, or a type `JSONEncoder` writes as one
    /// (`Date`, `Data`, `URL`, `Decimal`), and says whether it did. Comparing metatypes costs
    /// no dynamic cast, which a field of a generic container would otherwise pay.
    mutating func writePrimitive<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Int64.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int64.self)))
        } else if T.self == Int32.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if T.self == Int16.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int16.self)))
        } else if T.self == Int8.self {
            writeInteger(Int64(unsafeBitCast(value, to: Int8.self)))
        } else if T.self == UInt.self {
            writeInteger(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if T.self == UInt64.self {
            writeInteger(UInt64(unsafeBitCast(value, to: UInt64.self)))
        } else if T.self == UInt32.self {
            writeInteger(UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if T.self == UInt16.self {
            writeInteger(UInt64(unsafeBitCast(value, to: UInt16.self)))
        } else if T.self == UInt8.self {
            writeInteger(UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else if T.self == Float.self {
            try writeFloat(unsafeBitCast(value, to: Float.self))
        } else if T.self == Date.self {
            try writeDate(unsafeBitCast(value, to: Date.self))
        } else if T.self == Data.self {
            writeString(unsafeBitCast(value, to: Data.self).base64EncodedString())
        } else if T.self == URL.self {
            writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Decimal.self {
            bytes.append(contentsOf: unsafeBitCast(value, to: Decimal.self).description.utf8)
        } else {
            return false
        }
        return true
    }

    mutating func writeNull() {
        bytes.append(contentsOf: "null".utf8)
    }

    mutating func writeBool(_ value: Bool) {
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func writeInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        writeInteger(value.magnitude)
    }

    /// Digits last first, in a buffer on the stack: no `String` per number. Not generic, so
    /// that a container generic over its key (which Swift does not specialize in part) calls
    /// code specialized for its integer.
    mutating func writeInteger(_ value: UInt64) {
        var magnitude = value
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = 20
            repeat {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remainder)
                magnitude = quotient
            } while magnitude != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index..<20]))
        }
    }

    /// The shortest decimal that reads back as the same value (Swift's `description`), without
    /// a trailing `.0`, as `JSONEncoder` writes it. JSON has no infinity and no NaN.
    mutating func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw nonConforming(value) }
        writeNumber(value.description)
    }

    mutating func writeFloat(_ value: Float) throws {
        guard value.isFinite else { throw nonConforming(value) }
        writeNumber(value.description)
    }

    private mutating func writeNumber(_ description: String) {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    private func nonConforming(_ value: some Encodable) -> EncodingError {
        EncodingError.invalidValue(
            value, EncodingError.Context(codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
    }

    mutating func writeDate(_ date: Date) throws {
        switch options.dateEncoding {
        case .deferredToDate: try writeDouble(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: try writeDouble(date.timeIntervalSince1970)
        case .iso8601: writeString(date.formatted(.iso8601))
        }
    }

    /// `text` in quotes, with what JSON (and, if asked, `<script>`) cannot take as it is escaped.
    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let length = escapedLength(utf8, at: index)
                if length == 0 {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(utf8, at: index)
                index += length
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How many bytes at `index` an escape replaces; 0 if the byte goes out as it is.
    private func escapedLength(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = utf8[index]
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && !options.isScriptSafe { return 0 }
        switch byte {
        case 0..<0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"): return 1
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): return options.isScriptSafe ? 1 : 0
        case 0xE2:
            // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end a line in JavaScript before ES2019.
            let isSeparator = index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9)
            return options.isScriptSafe && isSeparator ? 3 : 0
        default: return 0
        }
    }

    private mutating func appendEscape(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) {
        let byte = utf8[index]
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
        case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
        case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
        case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
        case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
        case 0xE2: appendUnicodeEscape(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
        default: appendUnicodeEscape(UInt16(byte))
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        let hex: StaticString = "0123456789abcdef"
        hex.withUTF8Buffer { digits in
            bytes.append(contentsOf: #"\u"#.utf8)
            bytes.append(digits[Int(unit >> 12)])
            bytes.append(digits[Int(unit >> 8 & 0xF)])
            bytes.append(digits[Int(unit >> 4 & 0xF)])
            bytes.append(digits[Int(unit & 0xF)])
        }
    }
}

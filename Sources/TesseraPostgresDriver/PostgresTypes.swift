public import Foundation

// The Swift types Tessera binds and reads, in PostgreSQL's text format (bytes for `bytea`).

extension Int: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .int8 }
    public var postgresBytes: [UInt8] { Array(String(self).utf8) }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let value = PostgresText.integer(bytes, as: Int.self) else { throw .notA("an integer", bytes) }
        self = value
    }
}

extension Int64: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .int8 }
    public var postgresBytes: [UInt8] { Array(String(self).utf8) }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let value = PostgresText.integer(bytes, as: Int64.self) else { throw .notA("an integer", bytes) }
        self = value
    }
}

extension Int32: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .int4 }
    public var postgresBytes: [UInt8] { Array(String(self).utf8) }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let value = PostgresText.integer(bytes, as: Int32.self) else { throw .notA("a 32-bit integer", bytes) }
        self = value
    }
}

extension String: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .text }
    public var postgresBytes: [UInt8] { Array(utf8) }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension Bool: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .bool }
    public var postgresBytes: [UInt8] { self ? [UInt8(ascii: "t")] : [UInt8(ascii: "f")] }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        switch bytes.count == 1 ? bytes[0] : 0 {
        case UInt8(ascii: "t"): self = true
        case UInt8(ascii: "f"): self = false
        default: throw .notA("a boolean", bytes)
        }
    }
}

extension Double: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .float8 }
    public var postgresBytes: [UInt8] { Array(description.utf8) }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { throw .notA("a number", bytes) }
        self = value
    }
}

extension Date: PostgresEncodable, PostgresDecodable {
    public static var postgresType: PostgresType { .timestamptz }
    /// UTC, to the microsecond, as `timestamptz` keeps it.
    public var postgresBytes: [UInt8] { Array(PostgresText.timestamp(self).utf8) }

    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let date = PostgresText.date(bytes) else { throw .notA("a timestamp", bytes) }
        self = date
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else {
            self = nil
            return
        }
        self = try Wrapped(postgresText: bytes, type: type)
    }
}

/// Bytes as a `bytea`: a photo, a passkey's challenge.
public struct PostgresBytes: PostgresEncodable, PostgresDecodable, Hashable {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public static var postgresType: PostgresType { .bytea }
    /// Sent as they are (`bytea` is bound in the binary format).
    public var postgresBytes: [UInt8] { bytes }

    /// Read from the text format's hex form, `\x0a1b…`.
    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let decoded = PostgresText.hex(bytes) else { throw .notA("bytea in hex", bytes) }
        self.bytes = decoded
    }
}

/// What an array column may hold.
public protocol PostgresArrayElement: PostgresEncodable, PostgresDecodable {
    /// The array type whose elements are of this type.
    static var postgresArrayType: PostgresType { get }
}

extension String: PostgresArrayElement {
    public static var postgresArrayType: PostgresType { .textArray }
}

extension Int: PostgresArrayElement {
    public static var postgresArrayType: PostgresType { .int8Array }
}

extension Int32: PostgresArrayElement {
    public static var postgresArrayType: PostgresType { .int4Array }
}

extension Double: PostgresArrayElement {
    public static var postgresArrayType: PostgresType { .float8Array }
}

extension Array: PostgresEncodable where Element: PostgresArrayElement {
    public static var postgresType: PostgresType { Element.postgresArrayType }
    /// The array literal, `{"a","b"}`, each element quoted.
    public var postgresBytes: [UInt8] { PostgresText.arrayLiteral(map(\.postgresBytes)) }
}

extension Array: PostgresDecodable where Element: PostgresArrayElement {
    public init(postgresText bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        guard let bytes else { throw .null }
        guard let elements = PostgresText.arrayElements(bytes) else { throw .notA("an array", bytes) }
        self = try elements.map { element throws(PostgresDecodingError) in
            guard let element else { return try Element(postgresText: nil, type: .unknown) }
            do {
                return try element.withUnsafeBytes { try Element(postgresText: $0, type: .unknown) }
            } catch let error as PostgresDecodingError {
                throw error
            } catch {
                throw PostgresDecodingError(reason: "\(error)")
            }
        }
    }
}

/// PostgreSQL's text format, read and written.
package enum PostgresText {
    package static func integer<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as type: T.Type) -> T? {
        var index = 0
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: T = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times.subtractingReportingOverflow(T(digit)) : times.addingReportingOverflow(T(digit))
            guard !overflow, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// `2026-11-29 03:07:07.123456+00` (the session's time zone is UTC: ``LoopConnection``
    /// sets it), or with an offset.
    package static func date(_ bytes: UnsafeRawBufferPointer) -> Date? {
        let text = String(decoding: bytes, as: UTF8.self)
        var components = DateComponents()
        let scanner = text.utf8
        func number(_ from: Int, _ count: Int) -> Int? {
            let start = scanner.index(scanner.startIndex, offsetBy: from, limitedBy: scanner.endIndex)
            guard let start, let end = scanner.index(start, offsetBy: count, limitedBy: scanner.endIndex) else { return nil }
            return Int(String(decoding: scanner[start..<end], as: UTF8.self))
        }
        guard bytes.count >= 19, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            let hours = number(index + 1, 2) ?? 0
            let minutes = index + 3 < bytes.count && bytes[index + 3] == UInt8(ascii: ":") ? (number(index + 4, 2) ?? 0) : 0
            offset = sign * (hours * 3600 + minutes * 60)
        }
        components.timeZone = TimeZone(secondsFromGMT: offset)
        guard let whole = utcCalendar.date(from: components) else { return nil }
        return whole.addingTimeInterval(fraction)
    }

    package static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let micros = Int(((seconds - whole) * 1_000_000).rounded())
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        var microText = String(micros)
        microText = String(repeating: "0", count: max(0, 6 - microText.count)) + microText
        return
            "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)).\(microText)+00"
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    package static func hex(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"), bytes.count % 2 == 0 else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity((bytes.count - 2) / 2)
        var index = 2
        while index < bytes.count {
            guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        return result
    }

    package static func arrayLiteral(_ elements: [[UInt8]]) -> [UInt8] {
        var literal: [UInt8] = [UInt8(ascii: "{")]
        for (index, element) in elements.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(UInt8(ascii: "\""))
            for byte in element {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return literal
    }

    /// A one-dimensional array's elements; `nil` elements are NULL.
    package static func arrayElements(_ bytes: UnsafeRawBufferPointer) -> [[UInt8]?]? {
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var elements: [[UInt8]?] = []
        var index = 1
        let end = bytes.count - 1
        guard index < end else { return [] }
        while index <= end {
            var element: [UInt8] = []
            var quoted = false
            if bytes[index] == UInt8(ascii: "\"") {
                quoted = true
                index += 1
                while index < end, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    element.append(bytes[index])
                    index += 1
                }
                index += 1  // the closing quote
            } else {
                while index < end, bytes[index] != UInt8(ascii: ",") {
                    element.append(bytes[index])
                    index += 1
                }
            }
            elements.append(!quoted && element == Array("NULL".utf8) ? nil : element)
            index += 1  // the comma, or the closing brace
        }
        return elements
    }
}

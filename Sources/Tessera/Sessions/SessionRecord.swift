import Foundation

/// A session as its cookie holds it, and the bytes ``SessionCodec`` seals: fixed fields first,
/// then the entries, integers big-endian.
///
/// | bytes | field |
/// |---|---|
/// | 16 | session id |
/// | 8 | expiry, seconds since 1970 |
/// | any | entries: key length (1 byte, 1 to 255), key, value length (2 bytes), value; UTF-8 |
///
/// Cookies of format 2 (``SessionCodec/olderVersion``) hold 32 bytes of a form token after the
/// expiry, from before forms were checked by where they came from (decision 0035): they are
/// read and skipped.
///
/// Only the secret's holder can seal a record, but the parser stays safe whatever the bytes (it
/// is fuzzed on its own: `make fuzz`), so it needs nothing but Foundation.
struct SessionRecord: Equatable, Sendable {
    /// The session's id, ``idLength`` random bytes; empty until drawn.
    var id: [UInt8]
    var expires: Int64
    var values: [String: String]

    static let idLength = 16
    private static let fixedLength = idLength + 8
    /// The form token that format-2 records hold after the expiry.
    private static let olderTokenLength = 32

    init(id: [UInt8], expires: Int64, values: [String: String]) {
        self.id = id
        self.expires = expires
        self.values = values
    }

    func isUnexpired(at now: Date) -> Bool {
        expires > Int64(now.timeIntervalSince1970)
    }

    /// The record as bytes; it must have its id.
    var bytes: [UInt8] {
        precondition(id.count == Self.idLength, "a saved session has its id")
        var record: [UInt8] = []
        record.reserveCapacity(Self.fixedLength + values.reduce(0) { $0 + 3 + $1.key.utf8.count + $1.value.utf8.count })
        record.append(contentsOf: id)
        withUnsafeBytes(of: expires.bigEndian) { record.append(contentsOf: $0) }
        for (key, value) in values {
            let keyBytes = key.utf8, valueBytes = value.utf8
            // The session's API holds short strings (ids, counts, names): longer ones are not kept.
            guard (1...255).contains(keyBytes.count), valueBytes.count <= Int(UInt16.max) else {
                assertionFailure("session entry too long to keep: \(key)")
                continue
            }
            record.append(UInt8(keyBytes.count))
            record.append(contentsOf: keyBytes)
            withUnsafeBytes(of: UInt16(valueBytes.count).bigEndian) { record.append(contentsOf: $0) }
            record.append(contentsOf: valueBytes)
        }
        return record
    }

    /// The session in `bytes`, or `nil` when they are not a whole record or it has expired;
    /// `withOlderToken` for a format-2 record, whose form token is skipped.
    init?(bytes record: [UInt8], now: Date, withOlderToken: Bool = false) {
        let entriesStart = Self.fixedLength + (withOlderToken ? Self.olderTokenLength : 0)
        guard record.count >= entriesStart else { return nil }
        var expires: Int64 = 0
        for byte in record[Self.idLength..<(Self.idLength + 8)] { expires = expires << 8 | Int64(byte) }
        self.init(id: Array(record[0..<Self.idLength]), expires: expires, values: [:])
        guard isUnexpired(at: now) else { return nil }
        var cursor = entriesStart
        while cursor < record.count {
            let keyLength = Int(record[cursor])
            let valueStart = cursor + 1 + keyLength + 2
            guard keyLength > 0, valueStart <= record.count else { return nil }
            let valueLength = Int(record[valueStart - 2]) << 8 | Int(record[valueStart - 1])
            guard valueStart + valueLength <= record.count,
                let key = String(validating: record[(cursor + 1)..<(cursor + 1 + keyLength)], as: UTF8.self),
                let value = String(validating: record[valueStart..<(valueStart + valueLength)], as: UTF8.self)
            else { return nil }
            values[key] = value
            cursor = valueStart + valueLength
        }
    }
}

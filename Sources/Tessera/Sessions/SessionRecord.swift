import Foundation

/// A session as its cookie holds it, and the bytes ``SessionCodec`` seals: fixed fields first,
/// then the entries, integers big-endian.
///
/// | bytes | field |
/// |---|---|
/// | 16 | session id |
/// | 8 | expiry, seconds since 1970 |
/// | 32 | CSRF token |
/// | any | entries: key length (1 byte, 1 to 255), key, value length (2 bytes), value; UTF-8 |
///
/// Only the secret's holder can seal a record, but the parser stays safe whatever the bytes (it
/// is fuzzed on its own: `make fuzz`), so it needs nothing but Foundation.
struct SessionRecord: Equatable, Sendable {
    /// The session's id, ``idLength`` random bytes; empty until drawn.
    var id: [UInt8]
    var expires: Int64
    /// The CSRF token of its forms, ``tokenLength`` random bytes; empty until drawn.
    var token: [UInt8]
    var values: [String: String]

    static let idLength = 16
    static let tokenLength = 32
    private static let fixedLength = idLength + 8 + tokenLength

    init(id: [UInt8], expires: Int64, token: [UInt8], values: [String: String]) {
        self.id = id
        self.expires = expires
        self.token = token
        self.values = values
    }

    func isUnexpired(at now: Date) -> Bool {
        expires > Int64(now.timeIntervalSince1970)
    }

    /// The record as bytes; it must have its id and token.
    var bytes: [UInt8] {
        precondition(id.count == Self.idLength && token.count == Self.tokenLength, "a saved session has its id and token")
        var record: [UInt8] = []
        record.reserveCapacity(Self.fixedLength + values.reduce(0) { $0 + 3 + $1.key.utf8.count + $1.value.utf8.count })
        record.append(contentsOf: id)
        withUnsafeBytes(of: expires.bigEndian) { record.append(contentsOf: $0) }
        record.append(contentsOf: token)
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

    /// The session in `bytes`, or `nil` when they are not a whole record or it has expired.
    init?(bytes record: [UInt8], now: Date) {
        guard record.count >= Self.fixedLength else { return nil }
        var expires: Int64 = 0
        for byte in record[Self.idLength..<(Self.idLength + 8)] { expires = expires << 8 | Int64(byte) }
        self.init(
            id: Array(record[0..<Self.idLength]), expires: expires, token: Array(record[(Self.idLength + 8)..<Self.fixedLength]), values: [:])
        guard isUnexpired(at: now) else { return nil }
        var cursor = Self.fixedLength
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

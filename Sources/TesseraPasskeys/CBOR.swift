/// A CBOR value (RFC 8949), as WebAuthn's authenticators write them: the attestation object and
/// the credential's key (a COSE key) are CBOR maps.
///
/// Only reading is needed, and only of values a few kilobytes long; integer keys and values stay
/// exact (`.unsigned`, `.negative`), since COSE names its fields by small integers.
enum CBOR: Sendable, Hashable {
    case unsigned(UInt64)
    /// `-1 - n`: CBOR's negative integers reach one further than `Int64`'s.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// In the order written; keys are compared as values.
    case map([Pair])
    case tagged(UInt64, Box)
    case boolean(Bool)
    case null
    case undefined
    case simple(UInt8)
    case float(Double)

    /// One entry of a map.
    struct Pair: Sendable, Hashable {
        let key: CBOR
        let value: CBOR
    }

    /// A tagged value's content: an indirection, so that the enum has a size.
    final class Box: Sendable, Hashable {
        let value: CBOR
        init(_ value: CBOR) { self.value = value }
        static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// The value as an `Int`, when it is an integer that fits.
    var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The value under `key` in a map, `nil` for anything else.
    subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The value under the integer `key` (COSE's labels).
    subscript(key: Int) -> CBOR? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    /// The value under the text `key` (the attestation object's).
    subscript(key: String) -> CBOR? {
        self[.text(key)]
    }
}
